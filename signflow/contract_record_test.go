package signflow_test

import (
	"context"
	"encoding/base64"
	"slices"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/eimzo"
	"contracts/signflow/eimzo/eimzotest"
)

// storedContract reads a contract as the store holds it.
func storedContract(t *testing.T, w *fixture.Standard, id string) *signflow.Contract {
	t.Helper()
	var c *signflow.Contract
	fixture.Must(t, func() error {
		return w.DB.View(func(tx signflow.Tx) (err error) { c, err = tx.Contract(id); return err })
	})
	return c
}

// Every change keeps the parties' details, as the creator's tenant holds
// them then and only what the document shows; a record changed later
// leaves them (and the view as recorded) alone, and reads show them too
// (with the phone held now); the next change takes the new one.
func TestChangesRecordParties(t *testing.T) {
	w := fixture.NewStandard(t)
	a := w.Access(t, w.AppA)
	c := w.Contract(t)
	got := storedContract(t, w, c.ID).Parties
	if got == nil || got.Buyer == nil || got.Seller == nil {
		t.Fatalf("creation kept %+v", got)
	}
	if got.Buyer.LastName != "Karimov" || got.Buyer.Phone != "" || got.Buyer.Passport != "" ||
		got.Seller.LegalName != "Alpha Savdo MChJ" || got.Seller.Type != signflow.ClientCompany || got.Seller.Phone != "" {
		t.Fatalf("creation kept buyer %+v, seller %+v", got.Buyer, got.Seller)
	}
	fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov",
		Phone: "+998 90 123-45-67", Passport: "AB1234567", Address: "Toshkent"})
	live, err := w.Service.Contract(a, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if live.Buyer.Passport != "" || live.Buyer.Phone != "998901234567" {
		t.Fatalf("a read shows %+v, not the recorded details with the phone held", live.Buyer)
	}
	recorded := live.AsRecorded()
	if recorded.Buyer.Passport != "" || recorded.Seller.LegalName != "Alpha Savdo MChJ" || recorded.Creator != recorded.Seller {
		t.Fatalf("as recorded: buyer %+v, creator %+v", recorded.Buyer, recorded.Creator)
	}
	if _, err := w.Service.Cancel(a, c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if got := storedContract(t, w, c.ID).Parties; got.Buyer.Passport != "AB1234567" || got.Buyer.Address != "Toshkent" {
		t.Fatalf("the cancel kept %+v", got.Buyer)
	}
	// A contract last changed before details were kept reads as it is.
	old := &signflow.ContractView{Contract: &signflow.Contract{}, Buyer: live.Buyer}
	if old.AsRecorded() != old {
		t.Fatal("a view without records was replaced")
	}
}

// RecordedTrail keeps the events up to the change that made the version:
// audit-only events after it and later changes are left out, and events
// kept before versions were noted are known by their type.
func TestRecordedTrail(t *testing.T) {
	ev := func(typ string, version int64) *signflow.AuditEvent {
		return &signflow.AuditEvent{Type: typ, Version: version}
	}
	trail := []*signflow.AuditEvent{ev(signflow.EventCreated, 1), ev(signflow.AuditSessionOpened, 0), ev(signflow.AuditCodeSent, 0),
		ev(signflow.EventSigned, 2), ev(signflow.AuditSessionOpened, 0), ev(signflow.EventSigned, 3), ev(signflow.EventActive, 3),
		ev(signflow.AuditSessionClosed, 0)}
	types := func(events []*signflow.AuditEvent) []string {
		out := []string{}
		for _, e := range events {
			out = append(out, e.Type)
		}
		return out
	}
	for _, tc := range []struct {
		version int64
		want    int
	}{{1, 1}, {2, 4}, {3, 7}, {4, 7}} {
		got := signflow.RecordedTrail(trail, tc.version)
		if len(got) != tc.want {
			t.Errorf("version %d: %v, want the first %d", tc.version, types(got), tc.want)
		}
	}
	legacy := []*signflow.AuditEvent{ev(signflow.EventCreated, 0), ev(signflow.AuditSessionOpened, 0), ev(signflow.EventCancelled, 0),
		ev(signflow.AuditSessionClosed, 0)}
	if got := types(signflow.RecordedTrail(legacy, 2)); !slices.Equal(got, []string{signflow.EventCreated, signflow.AuditSessionOpened, signflow.EventCancelled}) {
		t.Errorf("a trail without versions: %v", got)
	}
	if got := signflow.RecordedTrail(nil, 1); len(got) != 0 {
		t.Errorf("no events: %v", got)
	}
	// Appending to the answer never writes into the trail read.
	cut := signflow.RecordedTrail(trail, 1)
	_ = append(cut, ev("X", 0))
	if trail[1].Type != signflow.AuditSessionOpened {
		t.Fatal("appending to the recorded trail overwrote the trail")
	}
}

// The events a change records carry the version it made; audit-only ones
// carry none.
func TestChangeEventsCarryTheVersion(t *testing.T) {
	w := fixture.NewStandard(t)
	a := w.Access(t, w.AppA)
	c := w.Contract(t)
	if _, _, err := w.Service.OpenSession(a, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN}, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	w.Clock.Advance(time.Minute)
	if _, err := w.Service.Cancel(a, c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	trail, err := w.Service.AuditTrail(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{signflow.EventCreated: 1, signflow.AuditSessionOpened: 0, signflow.EventCancelled: 2}
	if len(trail) != len(want) {
		t.Fatalf("%d events", len(trail))
	}
	for _, e := range trail {
		if v, ok := want[e.Type]; !ok || e.Version != v {
			t.Errorf("%s carries version %d, want %d", e.Type, e.Version, v)
		}
	}
}

// An E_IMZO signature keeps the signer's PKCS #7 as the E-IMZO server
// accepted it (time-stamped) and its certificate on the contract.
func TestEIMZOSignatureIsKept(t *testing.T) {
	w := newIDWorld(t, 0)
	c, _, token := w.open(t, fixture.OwnerIN)
	p7 := eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OwnerIN, CN: "Alpha Savdo MChJ"})
	if _, err := w.svc.SignWithEIMZO(context.Background(), token, p7, w.actor); err != nil {
		t.Fatal(err)
	}
	reqs := w.ez.Requests()
	if len(reqs) != 2 || reqs[1].Path != eimzo.VerifyPath || reqs[1].Body == p7 {
		t.Fatalf("E-IMZO calls %+v", reqs)
	}
	sig := storedContract(t, w.Standard, c.ID).Signatures[fixture.OwnerIN]
	if sig == nil || base64.StdEncoding.EncodeToString(sig.PKCS7) != reqs[1].Body {
		t.Fatalf("kept signature %+v, want the time-stamped PKCS #7 the server verified", sig)
	}
	if sig.Certificate == nil || sig.Certificate.TIN != fixture.OwnerIN || sig.Certificate.CommonName != "Alpha Savdo MChJ" ||
		sig.Certificate.Timestamp == "" || sig.Certificate.PKCS7 != "" {
		t.Fatalf("kept certificate %+v", sig.Certificate)
	}
}
