package signflow_test

import (
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The state machine on its own: every transition of the spec's table, the
// party statuses of docs/decisions.md, a version bump on every change, and refusals
// that change nothing. Legacy statuses are never produced.
func TestStateMachine(t *testing.T) {
	const buyer, seller = "31111111111111", "301234567"
	fresh := func() *signflow.Contract {
		return &signflow.Contract{Status: signflow.StatusCreated, BuyerIN: buyer, SellerIN: seller, CreatorIN: seller,
			BuyerStatus: signflow.PartyPending, SellerStatus: signflow.PartyPending, Version: 1, Hash: "h"}
	}
	now := fixture.NewClock().Now()
	sign := func(in string) func(*signflow.Contract) ([]string, error) {
		return func(c *signflow.Contract) ([]string, error) { return c.Sign(in, signflow.Signature{}, now) }
	}
	cases := []struct {
		name          string
		steps         []func(*signflow.Contract) ([]string, error)
		status        string
		buyer, seller string
		events        []string
		code          string // of the last step
		version       int64
	}{
		{"buyer signs", nil, signflow.StatusCreated, signflow.PartyAccepted, signflow.PartyPending, []string{signflow.EventSigned}, "", 2},
		{"both sign", []func(*signflow.Contract) ([]string, error){sign(seller)}, signflow.StatusActive, signflow.PartyAccepted,
			signflow.PartyAccepted, []string{signflow.EventSigned, signflow.EventActive}, "", 3},
		{"signs twice", []func(*signflow.Contract) ([]string, error){sign(buyer)}, signflow.StatusCreated, signflow.PartyAccepted,
			signflow.PartyPending, nil, signflow.EINVALID, 2},
		{"stranger signs", []func(*signflow.Contract) ([]string, error){sign("39999999999999")}, signflow.StatusCreated,
			signflow.PartyPending, signflow.PartyPending, nil, signflow.EINVALID, 1},
		{"counterparty rejects", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) { return c.Reject(buyer, now) }},
			signflow.StatusRejected, signflow.PartyRejected, signflow.PartyPending, []string{signflow.EventRejected}, "", 2},
		{"creator's party rejects", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) { return c.Reject(seller, now) }},
			signflow.StatusCancelled, signflow.PartyPending, signflow.PartyCancelled, []string{signflow.EventCancelled}, "", 2},
		{"creator cancels", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) { return c.Cancel(seller, now) }},
			signflow.StatusCancelled, signflow.PartyPending, signflow.PartyCancelled, []string{signflow.EventCancelled}, "", 2},
		{"non-creator cancels", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) { return c.Cancel(buyer, now) }},
			signflow.StatusCreated, signflow.PartyPending, signflow.PartyPending, nil, signflow.EFORBIDDEN, 1},
		{"complete before active", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) { return c.Complete(seller, now) }},
			signflow.StatusCreated, signflow.PartyPending, signflow.PartyPending, nil, signflow.EINVALID, 1},
		{"complete when active", []func(*signflow.Contract) ([]string, error){sign(buyer), sign(seller),
			func(c *signflow.Contract) ([]string, error) { return c.Complete(seller, now) }},
			signflow.StatusCompleted, signflow.PartyAccepted, signflow.PartyAccepted, []string{signflow.AuditCompleted}, "", 4},
		{"sign after reject", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) { return c.Reject(buyer, now) },
			sign(seller)}, signflow.StatusRejected, signflow.PartyRejected, signflow.PartyPending, nil, signflow.EINVALID, 2},
		{"sign at the deadline", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) {
			c.SignBy = &now
			return c.Sign(buyer, signflow.Signature{}, now)
		}}, signflow.StatusCreated, signflow.PartyPending, signflow.PartyPending, nil, signflow.EINVALID, 1},
		{"sign before the deadline", []func(*signflow.Contract) ([]string, error){func(c *signflow.Contract) ([]string, error) {
			later := now.Add(time.Second)
			c.SignBy = &later
			return c.Sign(buyer, signflow.Signature{}, now)
		}}, signflow.StatusCreated, signflow.PartyAccepted, signflow.PartyPending, []string{signflow.EventSigned}, "", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fresh()
			steps := tc.steps
			if steps == nil {
				steps = []func(*signflow.Contract) ([]string, error){sign(buyer)}
			} else if tc.name == "signs twice" || tc.name == "both sign" {
				steps = append([]func(*signflow.Contract) ([]string, error){sign(buyer)}, steps...)
			}
			var events []string
			var err error
			for _, step := range steps {
				events, err = step(c)
			}
			if signflow.ErrorCode(err) != tc.code {
				t.Fatalf("error %v, want code %q", err, tc.code)
			}
			if tc.code == "" && !equal(events, tc.events) {
				t.Fatalf("events %v, want %v", events, tc.events)
			}
			if c.Status != tc.status || c.BuyerStatus != tc.buyer || c.SellerStatus != tc.seller || c.Version != tc.version {
				t.Fatalf("got %s buyer %s seller %s v%d", c.Status, c.BuyerStatus, c.SellerStatus, c.Version)
			}
			if c.Status == signflow.StatusSignedByBuyer || c.Status == signflow.StatusSignedBySeller {
				t.Fatalf("legacy status %s produced", c.Status)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
