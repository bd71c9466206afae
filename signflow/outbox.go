package signflow

import (
	"slices"
	"time"
)

// record writes, in the caller's transaction, the audit event of each of
// the events and one outbox row per webhook target that wants it.
func (s *Service) record(tx Tx, c *Contract, events []string, actor Actor, method, sessionID string) error {
	return s.recordWhy(tx, c, events, actor, method, sessionID, why{})
}

// why says more of a change than its events: the audit event's detail, the
// webhook body's reason, and what add puts in each body (it is given the
// body and whether it goes to the embedded interface).
type why struct {
	detail, reason string
	add            func(*WebhookBody, bool)
}

// recordWhy is record with the change's why.
func (s *Service) recordWhy(tx Tx, c *Contract, events []string, actor Actor, method, sessionID string, w why) error {
	now := UTC(s.opt.Now())
	var targets []target
	for _, ev := range events {
		err := tx.AddAudit(&AuditEvent{ID: NewID(), ContractID: c.ID, Type: ev, ActorIN: actor.IN, At: now, IP: actor.IP,
			UserAgent: actor.UserAgent, Method: method, Hash: c.Hash, SessionID: sessionID, Version: c.Version, Detail: w.detail})
		if err != nil {
			return err
		}
		if !slices.Contains(WebhookEvents, ev) {
			continue
		}
		if targets == nil {
			var err error
			if targets, err = webhookTargets(tx, c, now); err != nil {
				return err
			}
		}
		for _, t := range targets {
			if len(t.events) > 0 && !slices.Contains(t.events, ev) {
				continue
			}
			b := webhookBody(c, ev, actor.IN, now, t.embedded)
			b.Reason = w.reason
			if w.add != nil {
				w.add(b, t.embedded)
			}
			body, err := marshalWebhookBody(b)
			if err != nil {
				return err
			}
			d := &Delivery{ID: newOrderedID(), Event: ev, ContractID: c.ID, Target: t.id, TargetName: t.name, URL: t.url,
				Body: body, Status: DeliveryPending, Attempts: []Attempt{}, NextAt: now, CreatedAt: now}
			if err := tx.AddDelivery(d); err != nil {
				return err
			}
		}
	}
	return nil
}

type target struct {
	id, name, url string
	events        []string
	embedded      bool
}

// webhookTargets: the app that created the contract, and every key that
// can read it (its owner takes part, within its templates).
func webhookTargets(tx Tx, c *Contract, now time.Time) ([]target, error) {
	out := []target{}
	if c.AppID != "" {
		app, err := tx.App(c.AppID)
		if err != nil && ErrorCode(err) != ENOTFOUND {
			return nil, err
		}
		if app != nil && app.WebhookURL != "" {
			out = append(out, target{id: AppTarget(app.ID), name: app.Name, url: app.WebhookURL, events: app.WebhookEvents, embedded: true})
		}
	}
	seen := map[string]bool{}
	for _, in := range []string{c.BuyerIN, c.SellerIN} {
		keys, err := tx.KeysByOwner(in)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if seen[k.ID] || k.Usable(now) != nil || k.WebhookURL == "" || !k.CanSee(c) {
				continue
			}
			seen[k.ID] = true
			out = append(out, target{id: KeyTarget(k.ID), name: k.Name, url: k.WebhookURL})
		}
	}
	return out, nil
}

func webhookBody(c *Contract, event, actorIN string, now time.Time, embedded bool) *WebhookBody {
	b := &WebhookBody{Event: event, ContractID: c.ID, ContractNumber: c.Number, Status: c.Status, BuyerIN: c.BuyerIN,
		SellerIN: c.SellerIN, CreatorIN: c.CreatorIN, ActorIN: actorIN, Amount: MinorNumber(c.Price), Currency: c.Currency,
		OccurredAt: now.Format(time.RFC3339)}
	if embedded {
		b.TemplateID, b.Amount = c.TemplateID, MajorNumber(c.Price)
	}
	return b
}
