package webhooks_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/webhooks"
)

func TestPendingDeliveriesSurviveARestart(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		rcv := newReceiver(t, func(n int) int {
			if n == 1 {
				return 503
			}
			return 204
		})
		app := h.app(rcv.URL)
		first := h.start(webhooks.Options{})
		retrying := h.only(h.contract(app).ID).ID
		h.waitAttempts(retrying, 1)
		stop(t, first)
		untried := h.only(h.contract(app).ID).ID // written while no pool runs

		h.restart()
		h.start(webhooks.Options{})

		h.waitStatus(untried, signflow.DeliveryDelivered)
		h.clock.Advance(2 * time.Second) // the retry that was due when the first process stopped
		d := h.waitStatus(retrying, signflow.DeliveryDelivered)
		if len(d.Attempts) != 2 || d.Attempts[0].StatusCode != 503 || d.Attempts[1].StatusCode != 204 {
			t.Errorf("log of the retried row %+v, want 503 then 204", d.Attempts)
		}
		var ids []string
		for _, r := range rcv.got() {
			ids = append(ids, r.header.Get("X-Contracts-Delivery"))
		}
		if want := []string{retrying, untried, retrying}; len(ids) != 3 || ids[0] != want[0] || ids[1] != want[1] || ids[2] != want[2] {
			t.Errorf("delivery ids %v, want %v", ids, want)
		}
	})
}

func TestChangeThatRollsBackEmitsNothing(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		rcv := newReceiver(t, answer(204))
		app := h.app(rcv.URL)
		h.start(webhooks.Options{})

		_, err := h.svc.CreateContract(h.Access(t, app), &signflow.ContractInput{TemplateID: h.Template.ID,
			BuyerIN: fixture.CustomerIN, Price: 100, Currency: "RUB"}, signflow.Actor{})
		if signflow.ErrorCode(err) != signflow.EINVALID {
			t.Fatalf("CreateContract with a currency the template does not allow: %v, want EINVALID", err)
		}
		// A transaction that wrote an outbox row and then failed.
		boom := errors.New("boom")
		err = h.store.Update(func(tx signflow.Tx) error {
			body, _ := json.Marshal(signflow.WebhookBody{Event: signflow.EventCreated})
			if err := tx.AddDelivery(&signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: signflow.NewID(),
				Target: signflow.AppTarget(app.ID), URL: rcv.URL, Body: body, Status: signflow.DeliveryPending, NextAt: h.clock.Now()}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update = %v", err)
		}
		if all, _ := h.svc.Deliveries(signflow.DeliveryFilter{}); len(all) != 0 {
			t.Fatalf("%d outbox rows after failed changes, want 0", len(all))
		}
		// The next committed change is the first thing the receiver hears of.
		c := h.contract(app)
		h.waitStatus(h.only(c.ID).ID, signflow.DeliveryDelivered)
		got := rcv.got()
		if len(got) != 1 || body(t, got[0].body)["contractId"] != c.ID {
			t.Fatalf("receiver got %d requests, want only the committed contract's", len(got))
		}
	})
}

// CONTRACT_CREATED, CONTRACT_SIGNED, CONTRACT_ACTIVE of one contract reach
// a target in that order, even when the first has to be retried; another
// contract's events to the same target do not wait for them.
func TestOneContractsEventsArriveInOrder(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		rcv := newReceiver(t, func(n int) int {
			if n == 1 {
				return 500
			}
			return 204
		})
		app := h.app(rcv.URL)
		h.start(webhooks.Options{})
		c := h.contract(app)
		h.waitAttempts(h.only(c.ID).ID, 1)

		h.sign(app, c.ID, fixture.CustomerIN, custPhone)
		h.sign(app, c.ID, peerIN, peerPhone) // CONTRACT_SIGNED and CONTRACT_ACTIVE in one transaction
		// The outbox holds all four rows; the later ones wait for the first.
		waitFor(t, "four rows scheduled", func() bool { return metric(t, h.reg, "contracts_webhook_queue_depth", nil) == 4 })
		other := h.contract(app)
		h.waitStatus(h.only(other.ID).ID, signflow.DeliveryDelivered)

		h.clock.Advance(2 * time.Second)
		rows := h.deliveries(c.ID)
		for _, d := range rows {
			h.waitStatus(d.ID, signflow.DeliveryDelivered)
		}
		type event struct{ event, status, actor string }
		var got []event
		for _, r := range rcv.got() {
			if b := body(t, r.body); b["contractId"] == c.ID {
				got = append(got, event{b["event"].(string), b["status"].(string), b["actorIn"].(string)})
			}
		}
		want := []event{
			{signflow.EventCreated, signflow.StatusCreated, peerIN}, // the failed first attempt
			{signflow.EventCreated, signflow.StatusCreated, peerIN},
			{signflow.EventSigned, signflow.StatusCreated, fixture.CustomerIN},
			{signflow.EventSigned, signflow.StatusActive, peerIN},
			{signflow.EventActive, signflow.StatusActive, peerIN},
		}
		if len(got) != len(want) {
			t.Fatalf("arrivals %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("arrival %d: %+v, want %+v", i+1, got[i], want[i])
			}
		}
	})
}

// An app gets the events it chose (all when it chose none) of the
// contracts it created, with templateId and major units; a key gets every
// event of the contracts its owner takes part in, in minor units and
// without templateId.
func TestEventSelectionAndTargetBodies(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		all, activeOnly, ownKey, otherKey := newReceiver(t, answer(204)), newReceiver(t, answer(204)), newReceiver(t, answer(204)), newReceiver(t, answer(204))
		app := h.app(all.URL)
		picky := h.app(activeOnly.URL, signflow.EventActive)
		key := h.key(peerIN, ownKey.URL)
		h.key(fixture.OwnerIN, otherKey.URL) // takes no part in the contracts
		h.start(webhooks.Options{})

		c := h.contract(app)
		h.clock.Advance(time.Minute)
		if _, err := h.svc.Cancel(h.Access(t, app), c.ID, signflow.Actor{}); err != nil {
			t.Fatal(err)
		}
		pc := h.contract(picky)
		h.sign(picky, pc.ID, fixture.CustomerIN, custPhone)
		h.sign(picky, pc.ID, peerIN, peerPhone)
		rows := append(h.deliveries(c.ID), h.deliveries(pc.ID)...)
		for _, d := range rows {
			h.waitStatus(d.ID, signflow.DeliveryDelivered)
		}
		perTarget := map[string]int{}
		for _, d := range rows {
			perTarget[d.Target]++
		}
		want := map[string]int{signflow.AppTarget(app.ID): 2, signflow.AppTarget(picky.ID): 1, signflow.KeyTarget(key.ID): 6}
		if len(perTarget) != len(want) {
			t.Errorf("outbox rows per target %v, want %v", perTarget, want)
		}
		for target, n := range want {
			if perTarget[target] != n {
				t.Errorf("%s has %d rows, want %d", target, perTarget[target], n)
			}
		}
		if n := len(otherKey.got()); n != 0 {
			t.Errorf("the key of a company that takes no part got %d requests", n)
		}

		type want1 struct{ event, status, actor, at string }
		check := func(who string, r *receiver, contract *signflow.Contract, amount string, templateID bool, want []want1) {
			t.Helper()
			var got []map[string]any
			for _, req := range r.got() {
				if b := body(t, req.body); b["contractId"] == contract.ID {
					got = append(got, b)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%s got %d requests for contract %s, want %d", who, len(got), contract.Number, len(want))
			}
			for i, w := range want {
				b := got[i]
				for k, v := range map[string]any{"event": w.event, "status": w.status, "actorIn": w.actor, "occurredAt": w.at,
					"contractNumber": contract.Number, "buyerIn": fixture.CustomerIN, "sellerIn": peerIN, "creatorIn": peerIN,
					"currency": "UZS", "amount": json.Number(amount)} {
					if b[k] != v {
						t.Errorf("%s %s: %s = %v, want %v", who, w.event, k, b[k], v)
					}
				}
				if _, has := b["templateId"]; has != templateID || (templateID && b["templateId"] != h.Template.ID) {
					t.Errorf("%s %s: templateId %v (present %v), want present %v", who, w.event, b["templateId"], has, templateID)
				}
			}
		}
		created, cancelled := c.CreatedAt.Format(time.RFC3339), c.CreatedAt.Add(time.Minute).Format(time.RFC3339)
		cancelledEvents := []want1{{signflow.EventCreated, signflow.StatusCreated, peerIN, created},
			{signflow.EventCancelled, signflow.StatusCancelled, peerIN, cancelled}}
		check("app", all, c, "1500.5", true, cancelledEvents)
		check("key", ownKey, c, "150050", false, cancelledEvents)
		signed := cancelled // the clock stood still since the cancel
		check("app with only CONTRACT_ACTIVE", activeOnly, pc, "1500.5", true, []want1{{signflow.EventActive, signflow.StatusActive, peerIN, signed}})
		check("key", ownKey, pc, "150050", false, []want1{{signflow.EventCreated, signflow.StatusCreated, peerIN, signed},
			{signflow.EventSigned, signflow.StatusCreated, fixture.CustomerIN, signed}, {signflow.EventSigned, signflow.StatusActive, peerIN, signed},
			{signflow.EventActive, signflow.StatusActive, peerIN, signed}})
	})
}
