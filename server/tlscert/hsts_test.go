package tlscert

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHSTSOnTLSResponsesOnly(t *testing.T) {
	srv := httptest.NewTLSServer(app())
	defer srv.Close()
	plain := httptest.NewServer(app())
	defer plain.Close()
	for _, tc := range []struct {
		client *http.Client
		url    string
		status int
		want   string
	}{
		{srv.Client(), srv.URL + "/", 200, HSTSValue},
		{srv.Client(), srv.URL + "/missing", 404, HSTSValue},
		{plain.Client(), plain.URL + "/", 200, ""},
	} {
		res, err := tc.client.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || res.Header.Get("Strict-Transport-Security") != tc.want {
			t.Errorf("%s: %d, HSTS %q", tc.url, res.StatusCode, res.Header.Get("Strict-Transport-Security"))
		}
	}
}
