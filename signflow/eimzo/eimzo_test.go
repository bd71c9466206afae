package eimzo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"contracts/internal/config"
	"contracts/signflow"
	"contracts/signflow/eimzo"
	"contracts/signflow/eimzo/eimzotest"
)

const (
	hash  = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	tin   = "301234567"
	pinfl = "31234567890123"
)

func newVerifier(t *testing.T, mod func(*eimzo.Config)) (*eimzo.Verifier, *eimzotest.Server) {
	t.Helper()
	srv := eimzotest.New(t)
	cfg := eimzo.Config{VerifyURL: srv.URL, Host: "contracts.example", Timeout: config.Default().EIMZO.Timeout}
	if mod != nil {
		mod(&cfg)
	}
	v, err := eimzo.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v, srv
}

func TestVerifyAcceptsTheSignersOwnSignature(t *testing.T) {
	v, srv := newVerifier(t, nil)
	p7 := eimzotest.Sign(hash, eimzotest.Key{TIN: tin, PINFL: "30101010101010", CN: "Alpha Savdo MChJ"})
	ctx := signflow.WithActor(context.Background(), signflow.Actor{IP: "203.0.113.7"})
	cert, err := v.Verify(ctx, p7, hash, tin)
	if err != nil {
		t.Fatal(err)
	}
	if cert.TIN != tin || cert.PINFL != "30101010101010" || cert.CommonName != "Alpha Savdo MChJ" || cert.SerialNumber == "" ||
		cert.Timestamp == "" || cert.SigningTime == "" || !strings.Contains(cert.Issuer, "TestCA") {
		t.Fatalf("certificate %+v", cert)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Path != eimzo.TimestampPath || reqs[1].Path != eimzo.VerifyPath {
		t.Fatalf("calls %+v", reqs)
	}
	for _, r := range reqs {
		if r.Host != "contracts.example" || r.RealIP != "203.0.113.7" || !strings.HasPrefix(r.ContentType, "text/plain") {
			t.Fatalf("request %+v", r)
		}
	}
	if reqs[0].Body != p7 || reqs[1].Body == p7 {
		t.Fatal("the verify call did not carry the timestamped PKCS#7")
	}
}

func TestVerifyPersonalCertificate(t *testing.T) {
	v, _ := newVerifier(t, nil)
	cert, err := v.Verify(context.Background(), eimzotest.Sign(hash, eimzotest.Key{PINFL: pinfl, CN: "Karimov Aziz"}), hash, pinfl)
	if err != nil || cert.PINFL != pinfl || cert.TIN != "" {
		t.Fatalf("personal certificate: %+v, %v", cert, err)
	}
}

func TestVerifyRefusals(t *testing.T) {
	own := eimzotest.Key{TIN: tin, PINFL: "30101010101010", CN: "Alpha"}
	for _, tc := range []struct {
		name, p7, signer, message string
		calls                     int
	}{
		{"foreign company", eimzotest.Sign(hash, eimzotest.Key{TIN: "309876543", CN: "Beta"}), tin, "taxpayer 309876543, not of the signer 301234567", 2},
		{"employee key for the person", eimzotest.Sign(hash, own), "30101010101010", "not of the signer", 2},
		{"personal key for a company", eimzotest.Sign(hash, eimzotest.Key{PINFL: "30101010101010"}), tin, "person 30101010101010", 2},
		{"other document", eimzotest.Sign("another hash", own), tin, "not over this contract", 2},
		{"tampered", eimzotest.Tamper(eimzotest.Sign(hash, own)), tin, "not valid", 2},
		{"revoked", eimzotest.Sign(hash, eimzotest.Key{TIN: tin, Revoked: true}), tin, "revoked", 2},
		{"expired", eimzotest.Sign(hash, eimzotest.Key{TIN: tin, Expired: true}), tin, "not valid at the time of signing", 2},
		{"untrusted chain", eimzotest.Sign(hash, eimzotest.Key{TIN: tin, Untrusted: true}), tin, "chain", 2},
		{"not base64", "%%%not base64%%%", tin, "not an E-IMZO PKCS#7", 0},
		{"not a PKCS#7", "aGVsbG8gd29ybGQ=", tin, "not an E-IMZO PKCS#7", 0},
		{"empty", "", tin, "not an E-IMZO PKCS#7", 0},
		{"PKCS#7 the server cannot read", "MIAGCSqGSIb3DQEHAqCAMAA=", tin, "could not timestamp the signature: Invalid PKCS#7", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, srv := newVerifier(t, nil)
			cert, err := v.Verify(context.Background(), tc.p7, hash, tc.signer)
			if signflow.ErrorCode(err) != signflow.EINVALID || !strings.Contains(signflow.ErrorMessage(err), tc.message) || cert != nil {
				t.Fatalf("Verify = %+v, %v; want EINVALID mentioning %q", cert, err, tc.message)
			}
			if n := len(srv.Requests()); n != tc.calls {
				t.Fatalf("%d calls to the server, want %d", n, tc.calls)
			}
		})
	}
}

func TestVerifyWithoutTimestampAndWithFullURL(t *testing.T) {
	srv := eimzotest.New(t)
	v, err := eimzo.New(eimzo.Config{VerifyURL: srv.URL + eimzo.VerifyPath, SkipTimestamp: true, Timeout: config.Default().EIMZO.Timeout})
	if err != nil {
		t.Fatal(err)
	}
	cert, err := v.Verify(context.Background(), eimzotest.Sign(hash, eimzotest.Key{TIN: tin}), hash, tin)
	if err != nil || cert.Timestamp != "" {
		t.Fatalf("Verify = %+v, %v", cert, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != eimzo.VerifyPath || reqs[0].Host != strings.TrimPrefix(srv.URL, "http://") || reqs[0].RealIP != "" {
		t.Fatalf("calls %+v", reqs)
	}
}

func TestVerifyServerFailures(t *testing.T) {
	p7 := eimzotest.Sign(hash, eimzotest.Key{TIN: tin})
	for _, tc := range []struct {
		name    string
		set     func(*eimzotest.Server)
		message string
	}{
		{"500", func(s *eimzotest.Server) { s.Fail(500) }, "HTTP 500"},
		{"502", func(s *eimzotest.Server) { s.Fail(502) }, "HTTP 502"},
		{"404 (wrong URL)", func(s *eimzotest.Server) { s.Fail(404) }, "HTTP 404"},
		{"time-out", func(s *eimzotest.Server) { s.Slow(5 * time.Second) }, "did not answer within 100ms"},
		{"down", func(s *eimzotest.Server) { s.Close() }, "could not be reached"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Only the time-out case needs a short one: a loaded machine may
			// take more than 100ms to answer the others.
			v, srv := newVerifier(t, func(c *eimzo.Config) {
				if tc.name == "time-out" {
					c.Timeout = 100 * time.Millisecond
				}
			})
			tc.set(srv)
			start := time.Now()
			_, err := v.Verify(context.Background(), p7, hash, tin)
			if signflow.ErrorCode(err) != signflow.EUNAVAILABLE || !strings.Contains(signflow.ErrorMessage(err), tc.message) {
				t.Fatalf("Verify: %v; want EUNAVAILABLE mentioning %q", err, tc.message)
			}
			if time.Since(start) > 2*time.Second {
				t.Fatalf("waited %s", time.Since(start))
			}
		})
	}
	v, srv := newVerifier(t, nil)
	srv.Fail(400)
	if _, err := v.Verify(context.Background(), p7, hash, tin); signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("400: %v", err)
	}
}

func TestNewRejectsBadURL(t *testing.T) {
	for _, u := range []string{"", "e-imzo:8080", "/backend", "ftp://e-imzo"} {
		if _, err := eimzo.New(eimzo.Config{VerifyURL: u}); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
	// The time-out is the configuration's (eimzo.timeout); none is refused.
	if _, err := eimzo.New(eimzo.Config{VerifyURL: "http://e-imzo:8080"}); err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("no time-out: %v", err)
	}
}
