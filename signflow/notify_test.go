package signflow

import (
	"slices"
	"testing"
)

func TestInviteesAreEveryOtherPartyAndWitness(t *testing.T) {
	c := &Contract{SellerIN: "301234567", BuyerIN: "31234567890123",
		Witnesses: []Witness{{IN: "32345678901234"}, {IN: "301234567"}, {IN: "33456789012345"}}}
	got := invitees(c, "301234567")
	want := []string{"31234567890123", "32345678901234", "33456789012345"}
	if !slices.Equal(got, want) {
		t.Fatalf("invitees = %v, want %v (the creator's owner left out, each number once)", got, want)
	}
}
