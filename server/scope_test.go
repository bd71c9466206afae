package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// A caller without the route's scope gets 403 and the handler never runs;
// one with it gets through.
func TestRequireScope(t *testing.T) {
	ran := 0
	e := NewEcho("key", zerolog.Nop(), nil, true)
	access := func(c echo.Context) *signflow.Access {
		return &signflow.Access{Scopes: strings.Split(c.Request().Header.Get("X-Scopes"), ",")}
	}
	e.POST("/x", func(c echo.Context) error { ran++; return c.NoContent(http.StatusNoContent) },
		RequireScope("contracts:write", access))
	srv := httptest.NewServer(e)
	defer srv.Close()

	for _, tc := range []struct {
		scopes  string
		status  int
		ranOnce bool
	}{
		{"contracts:read", http.StatusForbidden, false},
		{"", http.StatusForbidden, false},
		{"contracts:read,contracts:write", http.StatusNoContent, true},
	} {
		ran = 0
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/x", strings.NewReader(`{}`))
		req.Header.Set("X-Scopes", tc.scopes)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || (ran == 1) != tc.ranOnce {
			t.Errorf("scopes %q: status %d, handler ran %d times; want %d, ran=%v (%s)", tc.scopes, res.StatusCode, ran, tc.status, tc.ranOnce, body)
		}
		if tc.status == http.StatusForbidden && !strings.Contains(string(body), "contracts:write") {
			t.Errorf("scopes %q: body %s does not name the missing scope", tc.scopes, body)
		}
	}
}
