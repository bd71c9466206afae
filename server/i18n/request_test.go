package i18n

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// A page answers in the language PageLang picks and remembers a ?lang=
// choice, through the area's own cookie setter, only when it is new.
func TestPageLangPicksAndRemembers(t *testing.T) {
	const langCookie = "area_lang"
	set := func(c echo.Context, name, value string, maxAge int, site http.SameSite) {
		c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/area", MaxAge: maxAge, HttpOnly: true, SameSite: site})
	}
	e := echo.New()
	e.GET("/area", func(c echo.Context) error { return c.String(http.StatusOK, PageLang(c, langCookie, set)) })
	e.GET("/area/plain", func(c echo.Context) error { return c.String(http.StatusOK, RequestLang(c, langCookie)) })
	srv := httptest.NewServer(e)
	defer srv.Close()

	for _, tc := range []struct {
		name, path, remembered, accept string
		want, wantSet                  string
	}{
		{"asked is remembered", "/area?lang=en", "", "ru", "en", "en"},
		{"asked equals remembered", "/area?lang=ru", "ru", "", "ru", ""},
		{"asked unknown falls to cookie", "/area?lang=de", "ru", "en", "ru", ""},
		{"no ask: Accept-Language", "/area", "", "en-GB,ru;q=0.5", "en", ""},
		{"nothing: Uzbek", "/area", "", "fr", "uz", ""},
		{"RequestLang never sets", "/area/plain?lang=en", "", "", "en", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+tc.path, nil)
			if tc.remembered != "" {
				req.AddCookie(&http.Cookie{Name: langCookie, Value: tc.remembered})
			}
			if tc.accept != "" {
				req.Header.Set("Accept-Language", tc.accept)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if string(body) != tc.want {
				t.Errorf("lang = %q, want %q", body, tc.want)
			}
			var got *http.Cookie
			for _, ck := range res.Cookies() {
				if ck.Name == langCookie {
					got = ck
				}
			}
			switch {
			case tc.wantSet == "" && got != nil:
				t.Errorf("cookie set to %q, want none", got.Value)
			case tc.wantSet != "" && got == nil:
				t.Errorf("no cookie, want %q", tc.wantSet)
			case got != nil && (got.Value != tc.wantSet || got.MaxAge != 365*24*3600 ||
				got.Path != "/area" || got.SameSite != http.SameSiteLaxMode):
				t.Errorf("cookie = %+v, want %q for a year, Lax, on the area's path", got, tc.wantSet)
			}
		})
	}
}
