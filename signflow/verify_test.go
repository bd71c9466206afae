package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// The verify page as people reach it (by the PDF's QR code, with a wrong
// or short hash) is checked by server/verify/verify_test.go; here, what
// verify.go shows of a number and the link it builds.
func TestVerifyMaskAndLink(t *testing.T) {
	for in, want := range map[string]string{"31234567890123": "31**********23", "301234567": "30*****67", "12345": "12*45",
		"1234": "****", "": ""} {
		if got := signflow.MaskIN(in); got != want {
			t.Errorf("MaskIN(%q) = %q, want %q", in, got, want)
		}
	}
	c := &signflow.Contract{ID: "c1", Hash: "0123456789abcdef0123456789abcdef"}
	want := "https://contracts.example.uz/verify/c1?h=" + c.Hash[:signflow.VerifyPrefixLen]
	for _, base := range []string{"https://contracts.example.uz", "https://contracts.example.uz/", "https://contracts.example.uz//"} {
		if got := signflow.VerifyURL(base, c); got != want {
			t.Errorf("VerifyURL(%q) = %q, want %q", base, got, want)
		}
	}
}
