package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"
)

// TestConfigSeal: seal files are set both or neither, must hold a PEM
// certificate and its key, and the time-stamp authority is an http(s)
// URL; each refusal names the key.
func TestConfigSeal(t *testing.T) {
	dir := t.TempDir()
	certPEM, keyPEM, _ := testtools.SelfSignedCert(t, "Alpha Savdo document seal", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	otherCert, _, _ := testtools.SelfSignedCert(t, "Other seal", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	files := map[string][]byte{"seal.pem": certPEM, "seal-key.pem": keyPEM, "other.pem": otherCert, "text.pem": []byte("not PEM\n")}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := func(name string) string { return filepath.Join(dir, name) }
	env := func(cert, key, tsa string) map[string]string {
		return map[string]string{"CONTRACTS_SEAL__CERTFILE": cert, "CONTRACTS_SEAL__KEYFILE": key, "CONTRACTS_SEAL__TSAURL": tsa}
	}
	cfg, err := loadConfigWith(t, "seal:\n  certFile: "+path("seal.pem")+"\n  keyFile: "+path("seal-key.pem")+"\n  tsaURL: https://tsa.example/tsr\n", nil)
	if err != nil || cfg.Seal.CertFile != path("seal.pem") || cfg.Seal.KeyFile != path("seal-key.pem") || cfg.Seal.TSAURL != "https://tsa.example/tsr" {
		t.Fatalf("a good seal: %+v, %v", cfg, err)
	}
	if cfg, err := loadConfigWith(t, "", nil); err != nil || cfg.Seal != (SealConfig{}) || cfg.RateLimit.VerifyPerMinute != 30 {
		t.Fatalf("defaults: %+v %d, %v", cfg.Seal, cfg.RateLimit.VerifyPerMinute, err)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"certificate without key", env(path("seal.pem"), "", ""), "seal.certFile and seal.keyFile: set both"},
		{"key without certificate", env("", path("seal-key.pem"), ""), "seal.certFile and seal.keyFile: set both"},
		{"missing file", env(path("absent.pem"), path("seal-key.pem"), ""), "seal.certFile, seal.keyFile: seal certificate: open " + path("absent.pem")},
		{"not PEM", env(path("text.pem"), path("seal-key.pem"), ""), "no PEM CERTIFICATE block"},
		{"key not PEM", env(path("seal.pem"), path("text.pem"), ""), "seal key: no PEM private key block"},
		{"certificate of another key", env(path("other.pem"), path("seal-key.pem"), ""), "none matches the seal key"},
		{"tsa URL of another scheme", env("", "", "ftp://tsa.example"), "seal.tsaURL"},
		{"tsa URL without a host", env("", "", "https://"), "seal.tsaURL"},
		{"negative verify limit", map[string]string{"CONTRACTS_RATELIMIT__VERIFYPERMINUTE": "-1"}, "ratelimit.verifyPerMinute"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadConfigWith(t, "", c.env)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want one saying %q", err, c.want)
			}
		})
	}
}
