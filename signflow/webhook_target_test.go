package signflow_test

import (
	"net/netip"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Link-local addresses (the cloud metadata service among them), in every
// spelling, are refused as webhook targets; loopback, private and public
// ones are not.
func TestWebhookAddrRefused(t *testing.T) {
	refused := []string{"169.254.169.254", "169.254.0.1", "169.254.255.255", "fe80::1", "fe80::1%eth0", "febf::1",
		"::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "fd00:ec2::254", "100.100.100.200"}
	for _, s := range refused {
		if why := signflow.WebhookAddrRefused(netip.MustParseAddr(s)); why == "" {
			t.Errorf("%s allowed as a webhook target", s)
		}
	}
	allowed := []string{"127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1", "10.0.0.5", "172.16.3.4", "192.168.1.10",
		"fd12:3456::1", "100.64.0.1", "8.8.8.8", "2001:db8::1", "169.253.255.255", "169.255.0.1", "fec0::1"}
	for _, s := range allowed {
		if why := signflow.WebhookAddrRefused(netip.MustParseAddr(s)); why != "" {
			t.Errorf("%s refused: %s", s, why)
		}
	}
}

// Setting a webhook URL on a new app or key refuses a link-local target,
// and an address written in a notation resolvers may read as one; an
// on-premises receiver is accepted.
func TestWebhookURLTargets(t *testing.T) {
	w := fixture.NewStandard(t)
	refused := map[string]string{
		"http://169.254.169.254/latest/meta-data/": "link-local",
		"http://169.254.169.254.:80/":              "link-local",
		"https://[fe80::1]:8443/hook":              "link-local",
		"http://[fe80::1%25eth0]/hook":             "link-local",
		"http://[::ffff:169.254.169.254]/":         "link-local",
		"http://[::ffff:a9fe:a9fe]/":               "link-local",
		"http://[fd00:ec2::254]/":                  "metadata",
		"http://2852039166/":                       "standard form",
		"http://0xa9fea9fe/":                       "standard form",
		"http://169.254.43518/":                    "standard form",
		"http://0251.0376.0251.0376/":              "standard form",
		"http://./":                                "standard form",
	}
	for raw, want := range refused {
		for kind, create := range map[string]func(*signflow.CredentialInput) (*signflow.NewCredential, error){"app": w.Service.CreateApp, "key": w.Service.CreateKey} {
			_, err := create(&signflow.CredentialInput{Name: "Hook", OwnerIN: fixture.OwnerIN, Scopes: []string{"CONTRACTS_READ"},
				AllTemplates: true, WebhookURL: raw})
			if signflow.ErrorCode(err) != signflow.EINVALID || !strings.Contains(err.Error(), "webhookUrl") || !strings.Contains(err.Error(), want) {
				t.Errorf("%s with webhookUrl %s: %v, want invalid naming webhookUrl and %q", kind, raw, err, want)
			}
		}
	}
	for _, raw := range []string{"http://127.0.0.1:9000/hook", "http://localhost:9000/hook", "http://[::1]/hook", "http://10.0.0.5/hook",
		"https://192.168.1.10:8443/hook", "http://erp.lan/hook", "https://shop.example/hook", "http://1c-server/hook", "http://host.docker.internal./h"} {
		fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Hook", OwnerIN: fixture.OwnerIN,
			Scopes: []string{"CONTRACTS_READ"}, AllTemplates: true, WebhookURL: raw})
	}
}
