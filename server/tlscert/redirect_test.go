package tlscert

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestHTTPListenerRedirectsToHTTPS(t *testing.T) {
	log, _ := testLog(t)
	a, err := NewACME(ACMEConfig{HTTPListen: "127.0.0.1:0"}, dirCache(t, t.TempDir()), log,
		Listener{Name: "embedded", Domains: []string{domain, "www." + domain}, BaseURL: "https://" + domain + ":8443"},
		Listener{Name: "key", Domains: []string{"api." + domain}})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown(t.Context())
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		method, host, path string
		status             int
		location, body     string
	}{
		{"GET", domain, "/v1/contracts?page=2&q=a%20b", 308, "https://" + domain + ":8443/v1/contracts?page=2&q=a%20b", ""},
		{"HEAD", "WWW.Contracts.Localhost:80", "/", 308, "https://www." + domain + ":8443/", ""},
		{"GET", "api." + domain, "/cabinet", 308, "https://api." + domain + "/cabinet", ""},
		{"GET", "evil.example", "/", 421, "", "unknown host"},
		{"GET", "127.0.0.1", "/", 421, "", "unknown host"},
		{"POST", domain, "/v1/contracts", 400, "", "use https://" + domain + ":8443/v1/contracts"},
		{"GET", domain, "/.well-known/acme-challenge/nothing", 404, "", ""},
		{"GET", "evil.example", "/.well-known/acme-challenge/nothing", 403, "", ""},
	} {
		req, err := http.NewRequestWithContext(t.Context(), tc.method, "http://"+a.HTTPAddr()+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = tc.host
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || res.Header.Get("Location") != tc.location || !strings.Contains(string(body), tc.body) {
			t.Errorf("%s %s%s: %d %q %q", tc.method, tc.host, tc.path, res.StatusCode, res.Header.Get("Location"), body)
		}
		if res.Header.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s %s%s: HSTS over plain HTTP", tc.method, tc.host, tc.path)
		}
	}
}
