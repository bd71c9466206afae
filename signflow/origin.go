package signflow

import (
	"net"
	"strconv"
	"strings"
)

// ParseOrigin reads a page's origin, https://host[:port] (http:// only for
// loopback names), and rebuilds it from its parts, so nothing of the text
// but a scheme, a host name or address and a port reaches a header.
func ParseOrigin(s string) (string, bool) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || (scheme != "https" && scheme != "http") {
		return "", false
	}
	host, port := rest, ""
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.HasSuffix(rest, "]") {
		host, port = rest[:i], rest[i+1:]
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '0' || len(port) > 5 {
			return "", false
		}
		port = strconv.Itoa(n)
	}
	host = strings.ToLower(host)
	var name string
	switch {
	case strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]"):
		ip := net.ParseIP(host[1 : len(host)-1])
		if ip == nil || ip.To4() != nil {
			return "", false
		}
		name = "[" + ip.String() + "]"
		if scheme == "http" && !ip.IsLoopback() {
			return "", false
		}
	case net.ParseIP(host) != nil:
		ip := net.ParseIP(host)
		if ip.To4() == nil {
			return "", false // IPv6 only in brackets
		}
		name = ip.String()
		if scheme == "http" && !ip.IsLoopback() {
			return "", false
		}
	default:
		if !hostName(host) {
			return "", false
		}
		name = host
		if scheme == "http" && name != "localhost" && !strings.HasSuffix(name, ".localhost") {
			return "", false
		}
	}
	if port != "" {
		return scheme + "://" + name + ":" + port, true
	}
	return scheme + "://" + name, true
}

// hostName: dot-separated labels of letters, digits and inner hyphens.
func hostName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
