package verify

import (
	"bytes"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/i18n"
	"contracts/server/pdf/pades"

	"github.com/rs/zerolog"
)

// TestUploadRateLimit: POST /verify takes a bounded number of files per
// client IP: over it, 429 with Retry-After, as the JSON error body or as
// the page in its language; another address is not held up, and time
// brings the budget back.
func TestUploadRateLimit(t *testing.T) {
	u := newUploadEnv(t)
	file := u.sealed(t, "en")
	clock := fixture.NewClock()
	srv := limitedServer(t, u, 2, clock)
	post := func(ip, query, accept string) (*http.Response, string) {
		t.Helper()
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("file", "contract.pdf")
		fw.Write(file)
		mw.Close()
		req, _ := http.NewRequest("POST", srv.URL+"/verify"+query, &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("X-Forwarded-For", ip)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	for i := range 2 {
		if resp, body := post("203.0.113.5", "", "application/json"); resp.StatusCode != 200 || !strings.Contains(body, `"intact":true`) {
			t.Fatalf("check %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	resp, body := post("203.0.113.5", "", "application/json")
	if resp.StatusCode != 429 || !strings.Contains(body, `"code":429`) || resp.Header.Get("Retry-After") != "30" {
		t.Fatalf("third check in a minute, JSON: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	resp, body = post("203.0.113.5", "?lang=ru", "")
	if resp.StatusCode != 429 || !strings.Contains(body, i18n.Verify.For("ru")["tooMany"]) || resp.Header.Get("Retry-After") == "" ||
		!strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("third check in a minute, page: %d %q %.300s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if resp, body := post("198.51.100.7", "", "application/json"); resp.StatusCode != 200 {
		t.Fatalf("another address: %d %s", resp.StatusCode, body)
	}
	clock.Advance(30 * time.Second)
	if resp, body := post("203.0.113.5", "", "application/json"); resp.StatusCode != 200 {
		t.Fatalf("30 s later: %d %s", resp.StatusCode, body)
	}
}

// limitedServer serves the verify pages of u's world with a limit of n
// checks a minute per client IP, which X-Forwarded-For names.
func limitedServer(t *testing.T, u *uploadEnv, n int, clock *fixture.Clock) *httptest.Server {
	t.Helper()
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	e.IPExtractor = server.IPExtractor([]*net.IPNet{loopback})
	Register(e, Deps{Service: u.w.Service, Verifier: pades.NewVerifier(u.sealer.Certificate()), SealFingerprint: sealID.Fingerprint(),
		Limiter: server.NewLimiter(n, time.Minute, clock.Now)})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv
}
