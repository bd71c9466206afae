package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/postgres/pgtest"
)

func get(t *testing.T, url, auth string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	name, value, _ := strings.Cut(auth, ": ")
	req.Header.Set(name, value)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	json.NewDecoder(res.Body).Decode(&m)
	return res.StatusCode, m
}

func idOf(t *testing.T, a answer) string {
	t.Helper()
	var m struct{ ID string }
	if a.status != 200 || json.Unmarshal([]byte(a.body), &m) != nil || m.ID == "" {
		t.Fatalf("no id: %d %s", a.status, a.body)
	}
	return m.ID
}

func stamp(at time.Time) string { return at.Format(time.RFC3339) }

// TestSignByDeadline: bad deadlines are refused and make nothing; a
// contract still CREATED at its signBy is cancelled on its creator's
// behalf, with its open session expired, the reason in the audit trail
// and in the webhook body; one whose deadline has not come, or that left
// CREATED before, is left alone; both interfaces read signBy back.
func TestSignByDeadline(t *testing.T) {
	w := fixture.NewStandard(t)
	hooked := fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Hooked", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:9/hook"})
	n := startNode(t, w.World)
	app, key := bearer(t, n, hooked), apiKeyAuth(w.KeyA)
	create := n.embedded.URL + "/v1/contracts"
	start := w.Clock.Now()
	body := func(signBy string) map[string]any {
		b := createBody(w)
		b["signBy"] = signBy
		return b
	}
	for name, signBy := range map[string]string{
		"in the past":       stamp(start.Add(-time.Minute)),
		"now":               stamp(start),
		"over a year ahead": stamp(start.AddDate(1, 0, 1)),
		"not a date-time":   "tomorrow",
	} {
		if a := post(t, create, app, "", body(signBy)); a.status != 400 || !strings.Contains(a.body, "signBy") {
			t.Errorf("signBy %s: %d %s", name, a.status, a.body)
		}
	}
	if a := post(t, n.key.URL+"/v1/contracts", key, "", body(stamp(start.Add(-time.Hour)))); a.status != 400 || !strings.Contains(a.body, "signBy") {
		t.Errorf("signBy in the past on the key interface: %d %s", a.status, a.body)
	}
	if got := contractCount(t, w.Store); got != 0 {
		t.Fatalf("refused deadlines made %d contracts", got)
	}

	due := start.Add(2 * time.Hour)
	expiring := idOf(t, post(t, create, app, "", body(stamp(due))))
	later := idOf(t, post(t, create, app, "", body(stamp(start.AddDate(1, 0, 0)))))
	cancelled := idOf(t, post(t, create, app, "", body(stamp(due))))
	byKey := idOf(t, post(t, n.key.URL+"/v1/contracts", key, "", body(stamp(due.Add(time.Hour)))))
	if a := post(t, create+"/"+cancelled+"/cancel", app, "", map[string]any{}); a.status != 200 {
		t.Fatalf("cancel: %d %s", a.status, a.body)
	}
	for _, url := range []string{n.embedded.URL + "/v1/contracts/" + expiring} {
		if _, m := get(t, url, app); m["signBy"] != stamp(due) {
			t.Fatalf("the embedded read gives signBy %v, want %s", m["signBy"], stamp(due))
		}
	}
	if _, m := get(t, n.key.URL+"/v1/contracts/"+byKey, key); m["signBy"] != stamp(due.Add(time.Hour)) {
		t.Fatalf("the key read gives signBy %v", m["signBy"])
	}

	w.Clock.Advance(time.Hour + 50*time.Minute)
	app = bearer(t, n, hooked) // tokens last an hour
	sess := post(t, create+"/"+expiring+"/sign-sessions", app, "", map[string]any{"signerIn": fixture.CustomerIN})
	var opened struct{ ID, ExpiresAt string }
	json.Unmarshal([]byte(sess.body), &opened)
	if sess.status != 200 || opened.ExpiresAt != stamp(due) {
		t.Fatalf("a session opened 10 minutes before the deadline: %d %s; want it to end at %s", sess.status, sess.body, stamp(due))
	}
	fixture.Must(t, func() error { _, err := w.Service.RunTimers(); return err })
	if _, m := get(t, create+"/"+expiring, app); m["status"] != signflow.StatusCreated {
		t.Fatalf("cancelled before its deadline: %v", m["status"])
	}

	w.Clock.Advance(10 * time.Minute)
	fixture.Must(t, func() error { _, err := w.Service.RunTimers(); return err })
	_, m := get(t, create+"/"+expiring, app)
	if m["status"] != signflow.StatusCancelled || m["sellerStatus"] != signflow.PartyCancelled || m["buyerStatus"] != signflow.PartyPending {
		t.Fatalf("at its deadline the contract reads %v, seller %v, buyer %v", m["status"], m["sellerStatus"], m["buyerStatus"])
	}
	if _, s := get(t, n.embedded.URL+"/v1/sign-sessions/"+opened.ID, app); s["status"] != signflow.SessionExpired {
		t.Fatalf("the open session reads %v", s["status"])
	}
	for _, id := range []string{later, byKey} {
		if _, m := get(t, create+"/"+id, app); m["status"] != signflow.StatusCreated {
			t.Fatalf("a contract whose deadline has not come reads %v", m["status"])
		}
	}
	checkExpired(t, w.World, expiring, 1)
	checkExpired(t, w.World, cancelled, 0)
}

// checkExpired counts the contract's cancellations by its deadline, in
// the audit trail and the webhook bodies, and checks what they say.
func checkExpired(t *testing.T, w *fixture.World, id string, want int) {
	t.Helper()
	audits, hooks := 0, 0
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) error {
			events, err := tx.AuditEvents(id)
			for _, e := range events {
				if e.Type == signflow.EventCancelled && strings.Contains(e.Detail, "deadline") {
					audits++
					if e.ActorIN != fixture.OwnerIN {
						t.Errorf("the deadline's audit actor is %q", e.ActorIN)
					}
				}
			}
			if err != nil {
				return err
			}
			ds, err := tx.Deliveries(signflow.DeliveryFilter{ContractID: id})
			for _, d := range ds {
				var b map[string]any
				json.Unmarshal(d.Body, &b)
				if b["reason"] == signflow.ReasonExpired {
					hooks++
					if b["event"] != signflow.EventCancelled || b["actorIn"] != fixture.OwnerIN || b["status"] != signflow.StatusCancelled {
						t.Errorf("the deadline's webhook body: %s", d.Body)
					}
				}
			}
			return err
		})
	})
	if audits != want || hooks != want {
		t.Fatalf("contract %s: %d deadline audit events and %d EXPIRED webhook bodies, want %d", id, audits, hooks, want)
	}
}

// TestSignByDeadlineOnce: processes sharing a store that run the timers
// at once cancel a contract at its deadline once.
func TestSignByDeadlineOnce(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) (a, b signflow.Store){
		"bbolt": func(t *testing.T) (signflow.Store, signflow.Store) {
			db, err := storage.Open(t.TempDir()+"/contracts.db", storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db, db
		},
		"postgres": func(t *testing.T) (signflow.Store, signflow.Store) {
			s := pgtest.Open(t)
			return s, pgtest.Peer(t, s)
		},
	} {
		t.Run(name, func(t *testing.T) {
			a, b := open(t)
			w := fixture.NewStandardOn(t, a)
			hooked := fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Hooked", OwnerIN: fixture.OwnerIN,
				Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:9/hook"})
			other := fixture.NewOn(t, b, w.Options)
			signBy := w.Clock.Now().Add(time.Hour)
			var ids []string
			for range 5 {
				c, err := w.Service.CreateContract(w.Access(t, hooked), &signflow.ContractInput{TemplateID: w.Template.ID,
					BuyerIN: fixture.CustomerIN, Price: 100, Currency: "UZS", SignBy: &signBy}, signflow.Actor{})
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, c.ID)
			}
			w.Clock.Advance(time.Hour)
			other.Clock.Advance(time.Hour)
			var wg sync.WaitGroup
			for _, svc := range []*signflow.Service{w.Service, other.Service, w.Service, other.Service} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := svc.RunTimers(); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			for _, id := range ids {
				checkExpired(t, w.World, id, 1)
			}
		})
	}
}
