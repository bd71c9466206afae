package config

import (
	"strings"
	"testing"
)

// TestConfigValidateNamesTheSameFirstKey sets two bad keys of one check at
// a time; Validate must name the same one, the first in the struct's
// order, on every call (a check ranging over a map named either).
func TestConfigValidateNamesTheSameFirstKey(t *testing.T) {
	for _, tc := range []struct {
		name  string
		set   func(*Config)
		first string
	}{
		{"listen addresses", func(c *Config) { c.Key.Listen, c.Admin.Listen = "nowhere", "nowhere" }, "key.listen"},
		{"URLs", func(c *Config) { c.Key.BaseURL, c.Payments.Click.PayURL = "ftp://x", "ftp://x" }, "key.baseURL"},
		{"durations", func(c *Config) { c.HTTP.IdleTimeout, c.Cabinet.IdleTimeout = 5, 5 }, "http.idleTimeout"},
		{"durations across sections", func(c *Config) { c.EIMZO.Timeout, c.Webhooks.Timeout = 5, 5 }, "eimzo.timeout"},
		{"limits", func(c *Config) { c.RateLimit.OTPPerMinute, c.RateLimit.VerifyConcurrent = -1, -1 }, "ratelimit.otpPerMinute"},
		{"identity providers", func(c *Config) { c.Identity.MyID.AuthURL, c.Identity.AbleID.AuthURL = "https://a", "https://a" }, "identity.myid"},
		{"MyID web URLs", func(c *Config) {
			c.Identity.MyID.Flow, c.Identity.MyID.BaseURL, c.Identity.MyID.WebURL = "web", "x", "x"
		}, "identity.myid.baseURL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := ""
			for i := 0; i < 50; i++ {
				c := loadedDefault()
				tc.set(&c)
				err := c.Validate()
				if err == nil {
					t.Fatal("two bad keys pass")
				}
				if want == "" {
					want = err.Error()
					if !strings.HasPrefix(want, "config: "+tc.first+":") {
						t.Fatalf("Validate names %q, want the first bad key %s", want, tc.first)
					}
				}
				if err.Error() != want {
					t.Fatalf("call %d: %q, earlier %q", i, err, want)
				}
			}
		})
	}
}
