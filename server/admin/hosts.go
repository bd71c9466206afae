package admin

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/labstack/echo/v4"
)

// HostCheck answers 421 to a request whose Host names neither this
// machine's loopback (localhost, *.localhost, 127.0.0.0/8, ::1), nor the
// address the connection arrived on, nor the host of listen, nor one of
// allowed. A web page whose name an attacker re-points at 127.0.0.1 (DNS
// rebinding) then cannot read /metrics or /demo: its requests carry its own
// name. A request without Host (HTTP/1.0) names nothing and passes: browsers
// always send one.
func HostCheck(listen string, allowed []string) echo.MiddlewareFunc {
	names := map[string]bool{}
	for _, h := range allowed {
		names[normalHost(h)] = true
	}
	// A listen address given by name; one given as an address is covered by
	// the connection's own address (and 0.0.0.0 must not become a name).
	if h, _, err := net.SplitHostPort(listen); err == nil && h != "" {
		if _, err := netip.ParseAddr(h); err != nil {
			names[normalHost(h)] = true
		}
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.Host == "" || hostAllowed(r, names) {
				return next(c)
			}
			return echo.NewHTTPError(http.StatusMisdirectedRequest,
				"The admin listener does not answer to this host name: use localhost or its address, or add the name to admin.allowedHosts.")
		}
	}
}

func hostAllowed(r *http.Request, names map[string]bool) bool {
	h := r.Host
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = normalHost(h)
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || names[h] {
		return true
	}
	ip, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	ip = ip.Unmap().WithZone("")
	if ip.IsLoopback() {
		return true
	}
	// The listener's own address: with a listen address such as :8082 it
	// is whichever address this connection arrived on.
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if tcp, ok := local.(*net.TCPAddr); ok {
		own, _ := netip.AddrFromSlice(tcp.IP)
		return own.Unmap() == ip
	}
	return false
}

// normalHost lower-cases a host name or address and drops IPv6 brackets and
// a final dot, so that "LOCALHOST." and "[::1]" compare as written plainly.
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.Unmap().WithZone("").String()
	}
	return strings.TrimSuffix(strings.ToLower(h), ".")
}
