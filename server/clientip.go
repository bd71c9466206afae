package server

import (
	"fmt"
	"net"
	"strings"

	"github.com/labstack/echo/v4"
)

// IPExtractor is how every listener reads the client address that rate
// limits, the audit trail and the access log see: the TCP peer, unless the
// peer is one of the trusted proxies, whose X-Forwarded-For then names the
// client (the nearest address in it that is not itself a trusted proxy).
// With no trusted proxies the header is never believed: anyone can send it.
func IPExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	// echo trusts loopback, link-local and private peers by default: only
	// the configured ranges are trusted here.
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// ParseTrustedProxies reads http.trustedProxies: CIDR ranges, or single
// addresses (a range of one); an entry may itself be a comma-separated
// list, as an environment variable gives it.
func ParseTrustedProxies(list []string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, entry := range list {
		for _, s := range strings.Split(entry, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			if ip := net.ParseIP(s); ip != nil {
				bits := 8 * len(ip.To16())
				if ip.To4() != nil {
					ip, bits = ip.To4(), 32
				}
				out = append(out, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
				continue
			}
			_, n, err := net.ParseCIDR(s)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or a CIDR range such as 10.0.0.0/8", s)
			}
			out = append(out, n)
		}
	}
	return out, nil
}
