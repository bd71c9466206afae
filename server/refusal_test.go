package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// Both pages name each refusal the same way, in one header, with the
// attempts left or the wait where they help.
func TestRefuse(t *testing.T) {
	e := NewEcho("test", zerolog.Nop(), nil, false)
	var refusal error
	e.POST("/x", func(c echo.Context) error { return Refuse(c, refusal) })
	srv := httptest.NewServer(e)
	defer srv.Close()
	for _, tc := range []struct {
		err           error
		status        int
		reason, extra string
	}{
		{&signflow.WrongCodeError{Left: 3}, 400, "wrong-code", "X-Attempts-Left: 3"},
		{&signflow.ResendWaitError{After: 42 * time.Second}, 429, "resend-wait", "Retry-After: 42"},
		{&RetryAfterError{Err: signflow.Errorf(signflow.ERATELIMIT, "slow down"), After: 20 * time.Second}, 429, "rate-limited", "Retry-After: 20"},
		{signflow.ErrSessionClosed, 403, "session-closed", ""},
		{signflow.ErrTooManyWrong, 403, "session-closed", ""},
		{signflow.ErrSessionExpired, 403, "session-expired", ""},
		{signflow.ErrSessionNotFound, 404, "session-not-found", ""},
		{signflow.ErrCSRF, 403, "csrf", ""},
		{signflow.Errorf(signflow.EUNAVAILABLE, "down"), 503, "unavailable", ""},
		{signflow.Errorf(signflow.EINVALID, "no words for this"), 400, "", ""},
	} {
		refusal = tc.err
		res, err := http.Post(srv.URL+"/x", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status || res.Header.Get(ReasonHeader) != tc.reason {
			t.Errorf("%v: %d %q, want %d %q", tc.err, res.StatusCode, res.Header.Get(ReasonHeader), tc.status, tc.reason)
		}
		if name, value, ok := strings.Cut(tc.extra, ": "); ok && res.Header.Get(name) != value {
			t.Errorf("%v: %s %q, want %q", tc.err, name, res.Header.Get(name), value)
		}
	}
	if ReasonOf(nil) != "" {
		t.Error("ReasonOf names no error")
	}
}

// The audit trail keeps the caller's IP and at most MaxUserAgent bytes of
// its user agent, cut between characters.
func TestActor(t *testing.T) {
	e := echo.New()
	for _, ua := range []string{"curl/8.5", strings.Repeat("a", 511) + "ʻbc", strings.Repeat("я", 400)} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("User-Agent", ua)
		req.RemoteAddr = "192.0.2.7:1234"
		a := Actor(e.NewContext(req, httptest.NewRecorder()))
		if a.IP != "192.0.2.7" || len(a.UserAgent) > MaxUserAgent || !utf8.ValidString(a.UserAgent) || !strings.HasPrefix(ua, a.UserAgent) ||
			len(ua) <= MaxUserAgent && a.UserAgent != ua || len(ua) > MaxUserAgent && len(a.UserAgent) < MaxUserAgent-3 {
			t.Errorf("actor of %d bytes: %q (%d bytes) from %s", len(ua), a.UserAgent, len(a.UserAgent), a.IP)
		}
	}
}
