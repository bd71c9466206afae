package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// A parentOrigin as the embedded interface takes it is checked by
// server/embedded/origin_test.go (TestParentOriginParsed); here,
// origin.go's rule: what comes back is rebuilt from its parts.
func TestParseOriginRebuilds(t *testing.T) {
	for in, want := range map[string]string{
		"https://Shop.Example:8443": "https://shop.example:8443", "https://shop.example": "https://shop.example",
		"http://localhost:3000": "http://localhost:3000", "http://app.localhost": "http://app.localhost",
		"http://127.0.0.1:8080": "http://127.0.0.1:8080", "https://[::1]:9443": "https://[::1]:9443",
		"https://[0:0:0:0:0:0:0:1]": "https://[::1]", "https://10.0.0.1": "https://10.0.0.1",
	} {
		if got, ok := signflow.ParseOrigin(in); !ok || got != want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "shop.example", "https://", "https://*.example", "http://shop.example", "http://10.0.0.1",
		"http://[2001:db8::1]", "https://::1", "https://[127.0.0.1]", "https://a.example:080", "https://a.example:65536",
		"https://-a.example", "https://a_b.example", "https://a.example/x", "wss://a.example"} {
		if got, ok := signflow.ParseOrigin(bad); ok {
			t.Errorf("ParseOrigin(%q) accepted as %q", bad, got)
		}
	}
}
