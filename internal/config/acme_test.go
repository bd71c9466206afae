package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestConfigACME: listeners that name ACME domains get https base URLs of
// their first domain unless baseURL is set; the others keep theirs.
func TestConfigACME(t *testing.T) {
	cases := []struct {
		name          string
		yaml          string
		env           map[string]string
		embedded, key string   // base URLs
		domains       []string // embedded.tls.acme.domains
	}{
		{name: "off", embedded: "http://localhost:8080", key: "http://localhost:8081", domains: []string{}},
		{name: "on port 443", yaml: "embedded: {listen: \":443\", tls: {acme: {domains: [Sign.Example.com]}}}\n",
			embedded: "https://sign.example.com", key: "http://localhost:8081", domains: []string{"Sign.Example.com"}},
		{name: "on another port, from the environment", env: map[string]string{"CONTRACTS_EMBEDDED__TLS__ACME__DOMAINS": "a.example.com, b.example.com"},
			embedded: "https://a.example.com:8080", key: "http://localhost:8081", domains: []string{"a.example.com", "b.example.com"}},
		{name: "both listeners, one with its own base URL", yaml: "embedded: {listen: \":443\", baseURL: \"https://sign.example.com/contracts\", tls: {acme: {domains: [sign.example.com]}}}\n" +
			"key: {listen: \":8443\", tls: {acme: {domains: [api.example.com]}}}\n",
			embedded: "https://sign.example.com/contracts", key: "https://api.example.com:8443", domains: []string{"sign.example.com"}},
		{name: "base URL set without ACME", env: map[string]string{"CONTRACTS_KEY__BASEURL": "https://keys.example"},
			embedded: "http://localhost:8080", key: "https://keys.example", domains: []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := loadConfigWith(t, c.yaml, c.env)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Embedded.BaseURL != c.embedded || cfg.Key.BaseURL != c.key || !reflect.DeepEqual(cfg.Embedded.TLS.ACME.Domains, c.domains) {
				t.Fatalf("embedded %q, key %q, domains %q", cfg.Embedded.BaseURL, cfg.Key.BaseURL, cfg.Embedded.TLS.ACME.Domains)
			}
			if on := len(c.domains) > 0 || strings.HasPrefix(c.key, "https://api"); cfg.ACMEOn() != on {
				t.Fatalf("ACMEOn %v, want %v", cfg.ACMEOn(), on)
			}
		})
	}
}
