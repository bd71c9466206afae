package signflow_test

import (
	"encoding/json"
	"slices"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The outbox as receivers see it is checked by webhooks/outbox_test.go
// (TestChangeThatRollsBackEmitsNothing, TestEventSelectionAndTargetBodies),
// webhooks/retry_test.go (TestRevokedKeyIsNotSentTo), the actor of the audit
// event by server/actor_env_test.go (TestAuditActorIsTheSameOnEveryInterface),
// and the rollback of a change with its rows on both engines by
// storage/storagetest/transactions.go (testRollbackLeavesNothing). Here, the
// rule of outbox.go: each event is audited, and a webhook event gets one row
// for the creating app (if it wants that event) and one for each usable key
// that can read the contract; the app's body names the template.
func TestRecordWritesAuditAndOneRowPerTarget(t *testing.T) {
	w := fixture.NewStandard(t)
	svc := w.Service
	appCred := fixture.MustCredential(t, svc.CreateApp, &signflow.CredentialInput{Name: "Shop", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:9/app", WebhookEvents: []string{signflow.EventCancelled}})
	key := func(name, owner string, templates []string, all bool) *signflow.NewCredential {
		return fixture.MustCredential(t, svc.CreateKey, &signflow.CredentialInput{Name: name, OwnerIN: owner, Scopes: signflow.KeyScopes,
			AllTemplates: all, TemplateIDs: templates, WebhookURL: "http://127.0.0.1:9/" + name})
	}
	seeing := key("seeing", fixture.OwnerIN, nil, true)
	key("blind", fixture.OwnerIN, []string{w.Other.ID}, false)
	key("stranger", fixture.OtherIN, nil, true)
	revoked := key("revoked", fixture.OwnerIN, nil, true)
	fixture.Must(t, func() error { return svc.RevokeKey(revoked.ID) })

	app := w.Access(t, appCred)
	c, err := svc.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 150000, Currency: "UZS"}, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Cancel(app, c.ID, signflow.Actor{IP: "10.0.0.1"}); err != nil {
		t.Fatal(err)
	}

	var rows []*signflow.Delivery
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) (err error) {
			rows, err = tx.Deliveries(signflow.DeliveryFilter{ContractID: c.ID, Limit: 100})
			return err
		})
	})
	var got []string
	for _, d := range rows {
		got = append(got, d.Event+" "+d.Target)
		var body signflow.WebhookBody
		if err := json.Unmarshal(d.Body, &body); err != nil || body.Event != d.Event || body.ContractID != c.ID {
			t.Errorf("row %s body %s: %v", d.Target, d.Body, err)
		}
		if embedded := d.Target == signflow.AppTarget(appCred.ID); embedded != (body.TemplateID == w.Template.ID) {
			t.Errorf("row %s: templateId %q", d.Target, body.TemplateID)
		}
		if d.Status != signflow.DeliveryPending {
			t.Errorf("row %s: status %s", d.Target, d.Status)
		}
	}
	slices.Sort(got)
	want := []string{
		signflow.EventCancelled + " " + signflow.AppTarget(appCred.ID),
		signflow.EventCancelled + " " + signflow.KeyTarget(seeing.ID),
		signflow.EventCreated + " " + signflow.KeyTarget(seeing.ID),
	}
	if !slices.Equal(got, want) {
		t.Errorf("outbox rows\n%q\nwant\n%q", got, want)
	}

	trail, err := svc.AuditTrail(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, e := range trail {
		events = append(events, e.Type)
		if e.Version != c.Version && e.Type == signflow.EventCreated || e.IP != "10.0.0.1" {
			t.Errorf("audit event %+v", e)
		}
	}
	if !slices.Contains(events, signflow.EventCreated) || !slices.Contains(events, signflow.EventCancelled) {
		t.Errorf("audit trail %v", events)
	}
}
