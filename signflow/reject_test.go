package signflow_test

import (
	"strings"
	"testing"

	"contracts/signflow"
)

// Rejections confirmed through each method, and refused without their
// confirmation, are checked by server/reject_test.go
// (TestAttackCreatorRejectsInTheCounterpartysName) and
// server/signpage/reject_test.go; here, reject.go's rule that what an
// E-IMZO rejection signs can never be what a signature signs.
func TestRejectContentIsNotTheHash(t *testing.T) {
	hash := signflow.DocumentHash(&signflow.Contract{ID: "c1", BuyerIN: "31234567890123", SellerIN: "301234567"})
	got := signflow.RejectContent(hash)
	if got == hash || got != "REJECT:"+hash || !strings.HasSuffix(got, hash) {
		t.Fatalf("RejectContent(%s) = %s", hash, got)
	}
	if signflow.RejectContent("") == "" || signflow.RejectContent(hash) == signflow.RejectContent(hash+"0") {
		t.Fatal("RejectContent must keep the hash it rejects")
	}
}
