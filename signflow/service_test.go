package signflow

import (
	"bytes"
	"crypto/sha256"
	"testing"
	"time"
)

// Every test of the package and of server/ runs through NewService's
// defaults; the refusal of zero lifetimes is signflow/service_options_test.go
// (TestZeroLifetimesRefused). Here, the rest of service.go: the stand-ins
// for zero options, HashSecret's stored form, and a MAC whose parts cannot
// be shifted into one another (so a token's app id cannot borrow digits of
// its generation) and whose reused states keep the key.
func TestServiceDefaultsAndMAC(t *testing.T) {
	s := NewService(nil, Options{Secret: []byte("k"), SessionTTL: time.Minute, OTPTTL: time.Minute})
	if !s.opt.Methods[MethodOTP] || s.opt.Now == nil || s.opt.Texts == nil || s.opt.Queue == nil {
		t.Fatalf("stand-ins missing: %+v", s.opt)
	}
	if got := s.opt.Money(150005, "UZS"); got != "1500.05 UZS" {
		t.Errorf("money %q", got)
	}
	if sum := sha256.Sum256([]byte("ck_x")); !bytes.Equal(HashSecret("ck_x"), sum[:]) {
		t.Error("HashSecret is not SHA-256")
	}

	first := s.mac("token", "app", "12", "99")
	for i := 0; i < 3; i++ {
		if !bytes.Equal(s.mac("token", "app", "12", "99"), first) {
			t.Fatal("a reused MAC state gives another sum")
		}
	}
	if bytes.Equal(s.mac("token", "app1", "2", "99"), first) {
		t.Error("parts shifted across a boundary give the same MAC")
	}
	other := NewService(nil, Options{Secret: []byte("other"), SessionTTL: time.Minute, OTPTTL: time.Minute})
	if bytes.Equal(other.mac("token", "app", "12", "99"), first) {
		t.Error("another secret gives the same MAC")
	}
}
