package signflow

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// Webhook targets may be loopback or private (receivers on the premises
// live there) but not link-local: 169.254.0.0/16 and fe80::/10 hold the
// cloud metadata services, whose answers carry the machine's credentials.
// The check runs when a URL is set, on its literal address, and again on
// every connection, on the address its name resolves to then.

// nat64 is the well-known NAT64 prefix: 64:ff9b::a9fe:a9fe reaches
// 169.254.169.254 through a NAT64 gateway.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// metadataAddrs are metadata services outside the link-local ranges.
var metadataAddrs = map[netip.Addr]bool{
	netip.MustParseAddr("fd00:ec2::254"):   true, // AWS, over IPv6
	netip.MustParseAddr("100.100.100.200"): true, // Alibaba Cloud
}

// WebhookAddrRefused says why a webhook may not be sent to ip, or "" when
// it may.
func WebhookAddrRefused(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("")
	if nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte(b[12:]))
	}
	switch {
	case ip.IsLinkLocalUnicast():
		return fmt.Sprintf("%s is a link-local address, where cloud metadata services live", ip)
	case metadataAddrs[ip]:
		return fmt.Sprintf("%s is a cloud metadata service", ip)
	}
	return ""
}

// checkWebhookURL accepts an absolute http(s) URL whose host is a name or
// an address in standard form that WebhookAddrRefused allows.
func checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Errorf(EINVALID, "webhookUrl: must be an absolute http or https URL").Keyed(KeyWebhookURL)
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		if why := WebhookAddrRefused(ip); why != "" {
			return Errorf(EINVALID, "webhookUrl: %s; give a public, private or loopback address", why).Keyed(KeyWebhookURL)
		}
		return nil
	}
	if host == "" || numericHost(host) {
		return Errorf(EINVALID, "webhookUrl: %q is neither a host name nor an address in standard form", u.Hostname()).Keyed(KeyWebhookURL)
	}
	return nil
}

// numericHost reports whether every label of host is a decimal or 0x
// number: an IPv4 address in a notation (2852039166, 0xa9fea9fe,
// 169.254.43518, 0251.0376.0251.0376) that some resolvers read as one.
func numericHost(host string) bool {
	for _, label := range strings.Split(host, ".") {
		digits := strings.TrimPrefix(strings.TrimPrefix(label, "0x"), "0X")
		if label == "" || strings.Trim(digits, "0123456789abcdefABCDEF") != "" ||
			digits == label && strings.Trim(label, "0123456789") != "" {
			return false
		}
	}
	return true
}
