package apitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// A url.Values body is sent as a form, and FormField puts the credential
// in its field unless the form holds the field already; a JSON body and
// a row without a credential are sent as they are.
func TestFormBodiesCarryTheCredential(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Type", r.Header.Get("Content-Type"))
		w.Write(body)
	}))
	defer srv.Close()
	c := &Caller{URL: srv.URL, Auth: FormField("csrf")}
	Run(t, c, []Scenario{
		{Name: "form with the credential", Method: "POST", Path: "/", As: "t0k", Body: url.Values{"a": {"b c"}},
			Status: 200, WantHeader: map[string]string{"X-Type": formType}, Want: []string{"a=b+c", "csrf=t0k"}},
		{Name: "form with its own token", Method: "POST", Path: "/", As: "t0k", Body: url.Values{"csrf": {"mine"}},
			Status: 200, Want: []string{"csrf=mine"}, Not: []string{"t0k"}},
		{Name: "form with an empty token", Method: "POST", Path: "/", As: "t0k", Body: url.Values{"csrf": {""}, "a": {"b"}},
			Status: 200, Want: []string{"a=b&csrf="}, Not: []string{"t0k"}},
		{Name: "form without a credential", Method: "POST", Path: "/", Body: url.Values{"a": {"b"}},
			Status: 200, Not: []string{"csrf"}},
		{Name: "JSON", Method: "POST", Path: "/", As: "t0k", Body: map[string]string{"a": "b"},
			Status: 200, WantHeader: map[string]string{"X-Type": "application/json"}, Want: []string{`{"a":"b"}`}, Not: []string{"t0k"}},
	})
}
