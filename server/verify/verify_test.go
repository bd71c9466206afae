package verify

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/i18n"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

func TestVerifyPage(t *testing.T) {
	w := fixture.NewStandard(t)
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	Register(e, Deps{Service: w.Service})
	srv := httptest.NewServer(e)
	defer srv.Close()
	c := w.Contract(t)
	if _, err := w.Service.Cancel(w.Access(t, w.AppA), c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	link := strings.TrimPrefix(signflow.VerifyURL(srv.URL, c), srv.URL)

	code, body := get(link + "&lang=en")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	for _, want := range []string{c.Number, "Cancelled", c.Hash, "Alpha Savdo MChJ", "Karimov Aziz", "31**********23", "30*****67"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, secret := range []string{fixture.CustomerIN, fixture.OwnerIN, "998901234567"} {
		if strings.Contains(body, secret) {
			t.Errorf("page shows %q unmasked", secret)
		}
	}
	if code, body = get(link + "&lang=ru"); !strings.Contains(body, "Отменён") || !strings.Contains(body, `lang="ru"`) {
		t.Errorf("ru page: %d", code)
	}
	for _, bad := range []string{"/verify/" + c.ID, "/verify/" + c.ID + "?h=0000000000000000", "/verify/not-a-uuid?h=" + c.Hash[:16]} {
		if code, body = get(bad); code != 404 || strings.Contains(body, c.Number) {
			t.Errorf("%s: status %d, shows number %v", bad, code, strings.Contains(body, c.Number))
		}
	}
}

// TestVerifyPageLanguage: the page follows ?lang= (the QR of a ru or en
// PDF carries it), else the browser's Accept-Language, else Uzbek; its
// switcher links the same page in each language.
func TestVerifyPageLanguage(t *testing.T) {
	w := fixture.NewStandard(t)
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	Register(e, Deps{Service: w.Service})
	srv := httptest.NewServer(e)
	defer srv.Close()
	c := w.Contract(t)
	link := signflow.VerifyURL(srv.URL, c)
	for _, s := range []struct{ query, accept, lang, title string }{
		{"", "", "uz", "Shartnomani tekshirish"},
		{"", "ru-RU,ru;q=0.9,en;q=0.8", "ru", "Проверка договора"},
		{"", "en-GB,en;q=0.9", "en", "Contract verification"},
		{"", "de-DE,en;q=0.5", "en", "Contract verification"},
		{"&lang=en", "ru-RU", "en", "Contract verification"},
		{"&lang=uz", "en", "uz", "Shartnomani tekshirish"},
		{"&lang=xx", "ru", "ru", "Проверка договора"},
	} {
		req, _ := http.NewRequest("GET", link+s.query, nil)
		if s.accept != "" {
			req.Header.Set("Accept-Language", s.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := string(b)
		if resp.StatusCode != 200 || !strings.Contains(body, `<html lang="`+s.lang+`"`) || !strings.Contains(body, "<title>"+s.title+"</title>") {
			t.Errorf("?%s Accept-Language %q: %d, want %s", s.query, s.accept, resp.StatusCode, s.lang)
		}
		h := c.Hash[:signflow.VerifyPrefixLen]
		for _, l := range signflow.Languages {
			want := `<a href="/verify/` + c.ID + `?h=` + h + `&amp;lang=` + l + `" lang="` + l + `"`
			if !strings.Contains(body, want) {
				t.Errorf("no switcher link %s in\n%s", want, body)
			}
		}
		if !strings.Contains(body, `lang="`+s.lang+`" title="`+i18n.LanguageNames[s.lang]+`" aria-current="true"`) {
			t.Errorf("the switcher does not mark %s as current", s.lang)
		}
	}
}
