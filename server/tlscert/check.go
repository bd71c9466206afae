package tlscert

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"os"
	"strings"

	"golang.org/x/crypto/acme/autocert"
)

// LetsEncrypt is the default ACME directory: Let's Encrypt production.
const LetsEncrypt = autocert.DefaultACMEDirectory

// DefaultHTTPListen is where HTTP-01 challenges and the redirect to https
// are served unless acme.httpListen says otherwise.
const DefaultHTTPListen = ":80"

// ACMEConfig is the acme section shared by every listener.
type ACMEConfig struct {
	Email        string // acme.email: the CA's contact for this account; optional
	DirectoryURL string // acme.directoryURL; empty means LetsEncrypt
	CAFile       string // acme.caFile: an extra CA (PEM) trusted for the directory
	HTTPListen   string // acme.httpListen; empty means DefaultHTTPListen
}

func (c ACMEConfig) directory() string {
	if c.DirectoryURL == "" {
		return LetsEncrypt
	}
	return c.DirectoryURL
}

func (c ACMEConfig) httpListen() string {
	if c.HTTPListen == "" {
		return DefaultHTTPListen
	}
	return c.HTTPListen
}

// Listener is one listener's TLS settings, named as in the config.
type Listener struct {
	Name     string   // the listener's config prefix: "embedded", "key"
	Domains  []string // <Name>.tls.acme.domains: ACME is on when not empty
	CertFile string   // <Name>.tls.certFile
	KeyFile  string   // <Name>.tls.keyFile
	BaseURL  string   // <Name>.baseURL, after DefaultBaseURL
}

// Validate checks the TLS settings of the listeners and, when one of them
// uses ACME, the acme section; the error names the config key of the first
// bad value. It reads acme.caFile but opens no port: a busy
// acme.httpListen is found by ACME.Start.
func Validate(c ACMEConfig, ls ...Listener) error {
	owner := map[string]string{} // domain -> listener name
	acmeOn := false
	for _, l := range ls {
		if (l.CertFile == "") != (l.KeyFile == "") {
			return fmt.Errorf("%s.tls: certFile and keyFile go together", l.Name)
		}
		if len(l.Domains) == 0 {
			continue
		}
		acmeOn = true
		if l.CertFile != "" {
			return fmt.Errorf("%s.tls: acme.domains and certFile/keyFile cannot both be set: use ACME or your own certificate", l.Name)
		}
		for _, d := range l.Domains {
			if err := CheckDomain(d); err != nil {
				return fmt.Errorf("%s.tls.acme.domains: %w", l.Name, err)
			}
			d = strings.ToLower(d)
			if other, ok := owner[d]; ok {
				return fmt.Errorf("%s.tls.acme.domains: %q is also in %s.tls.acme.domains", l.Name, d, other)
			}
			owner[d] = l.Name
		}
		if l.BaseURL != "" {
			if u, err := url.Parse(l.BaseURL); err != nil || u.Scheme != "https" || u.Host == "" {
				return fmt.Errorf("%s.baseURL: %q must be an https URL when %s.tls.acme.domains is set", l.Name, l.BaseURL, l.Name)
			}
		}
	}
	if !acmeOn {
		return nil
	}
	if u, err := url.Parse(c.directory()); err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("acme.directoryURL: %q is not an https URL", c.DirectoryURL)
	}
	if c.Email != "" {
		if a, err := mail.ParseAddress(c.Email); err != nil || a.Address != c.Email {
			return fmt.Errorf("acme.email: %q is not an email address", c.Email)
		}
	}
	if _, _, err := net.SplitHostPort(c.httpListen()); err != nil {
		return fmt.Errorf("acme.httpListen: %q is not a host:port address", c.HTTPListen)
	}
	if _, err := caPool(c.CAFile); err != nil {
		return fmt.Errorf("acme.caFile: %w", err)
	}
	return nil
}

// CheckDomain says why name cannot be given to ACME, or nil. ACME here
// issues for fully qualified DNS names: not IP addresses, not wildcards
// (those need DNS-01 challenges), not single labels such as localhost.
func CheckDomain(name string) error {
	switch {
	case name == "":
		return errors.New("an empty name")
	case net.ParseIP(name) != nil:
		return fmt.Errorf("%q is an IP address; certificates are issued for DNS names", name)
	case strings.Contains(name, "*"):
		return fmt.Errorf("%q is a wildcard; list each name instead", name)
	case !strings.Contains(name, "."):
		return fmt.Errorf("%q has no dot; use a fully qualified name such as contracts.example.com", name)
	case len(name) > 253:
		return fmt.Errorf("%q is longer than 253 characters", name)
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return fmt.Errorf("%q has an empty or too long label (1 to 63 characters between dots)", name)
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return fmt.Errorf("%q has a bad character %q; names are letters, digits, hyphens and dots (xn-- for other scripts)", name, r)
			}
		}
		if l[0] == '-' || l[len(l)-1] == '-' {
			return fmt.Errorf("%q has a label that starts or ends with a hyphen", name)
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return fmt.Errorf("%q ends in a number, so it is not a DNS name", name)
	}
	return nil
}

// DefaultBaseURL is a listener's base URL: baseURL when set; with ACME on
// and baseURL unset, https://<first domain>, with the port of listen unless
// it is 443 (or unknown).
func DefaultBaseURL(baseURL, listen string, domains []string) string {
	if baseURL != "" || len(domains) == 0 {
		return baseURL
	}
	host := strings.ToLower(domains[0])
	if _, port, err := net.SplitHostPort(listen); err == nil && port != "" && port != "443" && port != "0" {
		host = net.JoinHostPort(host, port)
	}
	return "https://" + host
}

// caPool is the system's roots plus the PEM certificates in caFile, if
// set: the roots trusted for the ACME directory.
func caPool(caFile string) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if caFile == "" {
		return pool, nil
	}
	data, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("%s holds no PEM certificate", caFile)
	}
	return pool, nil
}
