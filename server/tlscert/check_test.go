package tlscert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"contracts/internal/testtools"
)

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	certPEM, _, _ := testtools.SelfSignedCert(t, "ca.example", testNow, testNow.AddDate(1, 0, 0))
	writeFile(t, ca, certPEM)
	notPEM := filepath.Join(dir, "not.pem")
	writeFile(t, notPEM, []byte("not a certificate"))
	on := func(domains ...string) Listener { return Listener{Name: "embedded", Domains: domains} }
	for _, tc := range []struct {
		name string
		acme ACMEConfig
		ls   []Listener
		want string // "" means valid
	}{
		{"acme off ignores the acme section", ACMEConfig{CAFile: "/nonexistent"}, []Listener{{Name: "embedded"}}, ""},
		{"acme on", ACMEConfig{Email: "ops@example.com", CAFile: ca, DirectoryURL: "https://ca.example/dir", HTTPListen: "0.0.0.0:80"},
			[]Listener{{Name: "embedded", Domains: []string{"Sign.Example.com", "www.sign.example.com"}, BaseURL: "https://sign.example.com"},
				{Name: "key", Domains: []string{"api.example.com"}}, {Name: "admin", CertFile: "a.pem", KeyFile: "a.key"}}, ""},
		{"acme and certFile", ACMEConfig{}, []Listener{{Name: "key", Domains: []string{"a.example.com"}, CertFile: "c.pem", KeyFile: "k.pem"}},
			"key.tls: acme.domains and certFile/keyFile cannot both be set"},
		{"certFile without keyFile", ACMEConfig{}, []Listener{{Name: "admin", CertFile: "c.pem"}}, "admin.tls: certFile and keyFile go together"},
		{"IP address", ACMEConfig{}, []Listener{on("192.0.2.1")}, `embedded.tls.acme.domains: "192.0.2.1" is an IP address`},
		{"IPv6 address", ACMEConfig{}, []Listener{on("2001:db8::1")}, `embedded.tls.acme.domains: "2001:db8::1" is an IP address`},
		{"no dot", ACMEConfig{}, []Listener{on("localhost")}, `embedded.tls.acme.domains: "localhost" has no dot`},
		{"wildcard", ACMEConfig{}, []Listener{on("*.example.com")}, `embedded.tls.acme.domains: "*.example.com" is a wildcard`},
		{"underscore", ACMEConfig{}, []Listener{on("my_host.example.com")}, `"my_host.example.com" has a bad character '_'`},
		{"space", ACMEConfig{}, []Listener{on("a b.example.com")}, `has a bad character ' '`},
		{"url", ACMEConfig{}, []Listener{on("https://example.com")}, `has a bad character ':'`},
		{"empty label", ACMEConfig{}, []Listener{on("a..example.com")}, "empty or too long label"},
		{"final dot", ACMEConfig{}, []Listener{on("example.com.")}, "empty or too long label"},
		{"hyphen", ACMEConfig{}, []Listener{on("-a.example.com")}, "starts or ends with a hyphen"},
		{"numeric", ACMEConfig{}, []Listener{on("10.0.0")}, "ends in a number"},
		{"empty", ACMEConfig{}, []Listener{on("")}, "an empty name"},
		{"twice", ACMEConfig{}, []Listener{on("a.example.com"), {Name: "key", Domains: []string{"A.example.com"}}},
			`key.tls.acme.domains: "a.example.com" is also in embedded.tls.acme.domains`},
		{"unreadable caFile", ACMEConfig{CAFile: filepath.Join(dir, "missing.pem")}, []Listener{on("a.example.com")},
			"acme.caFile: open " + filepath.Join(dir, "missing.pem") + ": no such file or directory"},
		{"caFile is a directory", ACMEConfig{CAFile: dir}, []Listener{on("a.example.com")}, "acme.caFile: read " + dir},
		{"caFile without certificate", ACMEConfig{CAFile: notPEM}, []Listener{on("a.example.com")}, "acme.caFile: " + notPEM + " holds no PEM certificate"},
		{"http directory", ACMEConfig{DirectoryURL: "http://ca.example/dir"}, []Listener{on("a.example.com")}, "acme.directoryURL: \"http://ca.example/dir\" is not an https URL"},
		{"bad email", ACMEConfig{Email: "ops"}, []Listener{on("a.example.com")}, `acme.email: "ops" is not an email address`},
		{"email with a name", ACMEConfig{Email: "Ops <ops@example.com>"}, []Listener{on("a.example.com")}, "acme.email:"},
		{"bad httpListen", ACMEConfig{HTTPListen: "80"}, []Listener{on("a.example.com")}, `acme.httpListen: "80" is not a host:port address`},
		{"http baseURL", ACMEConfig{}, []Listener{{Name: "key", Domains: []string{"a.example.com"}, BaseURL: "http://a.example.com"}},
			`key.baseURL: "http://a.example.com" must be an https URL when key.tls.acme.domains is set`},
	} {
		err := Validate(tc.acme, tc.ls...)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestDefaultBaseURL(t *testing.T) {
	for _, tc := range []struct {
		base, listen string
		domains      []string
		want         string
	}{
		{"", ":443", []string{"Sign.Example.com", "b.example.com"}, "https://sign.example.com"},
		{"", ":8443", []string{"sign.example.com"}, "https://sign.example.com:8443"},
		{"", "127.0.0.1:0", []string{"sign.example.com"}, "https://sign.example.com"},
		{"https://other.example.com", ":443", []string{"sign.example.com"}, "https://other.example.com"},
		{"", ":8080", nil, ""},
	} {
		if got := DefaultBaseURL(tc.base, tc.listen, tc.domains); got != tc.want {
			t.Errorf("%q %q %v: got %q, want %q", tc.base, tc.listen, tc.domains, got, tc.want)
		}
	}
}

func TestDirCacheNarrowsMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "acme")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := DirCache(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode())
	}
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, nil)
	if _, err := DirCache(filepath.Join(file, "acme")); err == nil || !strings.HasPrefix(err.Error(), "acme cache: ") {
		t.Fatalf("got %v", err)
	}
}
