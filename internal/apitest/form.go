package apitest

import (
	"io"
	"net/http"
	"net/url"
	"strings"
)

const formType = "application/x-www-form-urlencoded"

// FormField returns the Auth of pages whose forms carry their credential
// in a field, such as a CSRF token: the credential goes in the field name
// of a form request, unless the form holds that field already (a row that
// sends a wrong or an empty token on purpose). Other requests are left as
// they are.
func FormField(name string) func(req *http.Request, credential string) {
	return func(req *http.Request, credential string) {
		if req.Body == nil || req.Header.Get("Content-Type") != formType {
			return
		}
		data, err := io.ReadAll(req.Body)
		req.Body.Close()
		form, perr := url.ParseQuery(string(data))
		if err == nil && perr == nil && !form.Has(name) {
			form.Set(name, credential)
			data = []byte(form.Encode())
		}
		body := string(data)
		req.Body, req.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }
	}
}
