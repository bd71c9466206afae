package config

import (
	"fmt"
	"net/netip"
	"strings"
)

// validate checks the admin token's length and the allowed host names.
func (a AdminConfig) validate() error {
	if a.Token != "" && len(a.Token) < 32 {
		return fmt.Errorf("config: admin.token: at least 32 characters (or empty, to generate one)")
	}
	for _, h := range a.AllowedHosts {
		name := strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
		if _, err := netip.ParseAddr(name); err == nil {
			continue
		}
		if !hostName(name) {
			return fmt.Errorf("config: admin.allowedHosts: %q is not a host name or address (give it without scheme or port)", h)
		}
	}
	return nil
}

// hostName reports whether s is a DNS name: dot-separated labels of
// letters, digits, hyphens (and underscores, which hosts files allow), with an optional final dot.
func hostName(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}
