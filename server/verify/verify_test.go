package verify

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
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
