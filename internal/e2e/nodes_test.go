package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"
)

// TestNodesShareOneDatabase runs two nodes on one PostgreSQL database and
// checks that they are one appliance: what is written through one is read
// through the other, both parties signing at once through different nodes
// end in one ACTIVE, a rotated secret or a revoked key fails on the other
// node at once, a cabinet session opened through one node acts through
// the other, both seal a contract into the same bytes with one seal kept
// in the database, every webhook is delivered once, and a backup is
// refused with the way to make one.
func TestNodesShareOneDatabase(t *testing.T) {
	ez := eimzotest.New(t)
	recv := newReceiver(t, 1<<30)
	c := newCluster(t, "CONTRACTS_EIMZO__VERIFYURL="+ez.URL)
	a, b := c.node(t), c.node(t)
	p := provision(t, a, recv.URL+"/hook")
	auth := []string{"Authorization", "Bearer " + p.token}

	// Both parties sign at once, the owner through a, the customer through b.
	const contracts = 6
	var ids []string
	for range contracts {
		id := createContract(t, a, p)
		ownerToken, p7 := ownerSignature(t, a, p, id)
		customerToken, code := customerCode(t, b, p, id)
		var wg sync.WaitGroup
		var ownerStatus, customerStatus int
		var ownerBody, customerBody string
		wg.Go(func() {
			ownerStatus, ownerBody = httpCall(t, "POST", a.embedded+"/sign/"+ownerToken+"/eimzo", "", "application/json", string(jsonBody(map[string]string{"pkcs7": p7})))
		})
		wg.Go(func() {
			customerStatus, customerBody = httpCall(t, "POST", b.embedded+"/sign/"+customerToken+"/confirm", "", "application/json", `{"code":"`+code+`"}`)
		})
		wg.Wait()
		if ownerStatus != 200 || customerStatus != 200 {
			t.Fatalf("signing at once: owner %d %s; customer %d %s", ownerStatus, ownerBody, customerStatus, customerBody)
		}
		var got struct{ Status string }
		mustCall(t, "GET", b.embedded+"/v1/contracts/"+id, nil, &got, auth...)
		if got.Status != signflow.StatusActive {
			t.Fatalf("contract %s is %s after both signatures", id, got.Status)
		}
		ids = append(ids, id)
	}
	db := c.store(t)
	for _, id := range ids {
		view(t, db, func(tx signflow.Tx) error {
			events, err := tx.AuditEvents(id)
			n := 0
			for _, e := range events {
				if e.Type == signflow.EventActive {
					n++
				}
			}
			if n != 1 {
				t.Errorf("contract %s: %d %s events", id, n, signflow.EventActive)
			}
			return err
		})
	}

	// One seal, kept in the database: both nodes serve the same bytes, and
	// neither wrote anything into its data directory.
	for _, lang := range langs {
		if !bytes.Equal(mustPDF(t, a, p, nil, viaEmbedded, ids[0], lang), mustPDF(t, b, p, nil, viaKey, ids[0], lang)) {
			t.Fatalf("%s: the nodes seal the contract into different bytes", lang)
		}
	}
	for _, in := range []*instance{a, b} {
		assertNoFiles(t, in)
	}

	// A cabinet session opened through a acts through b, and ends on both.
	cab := cabinetLogin(t, a)
	if st := call(t, cab, "GET", b.key+"/cabinet/api/contracts/"+ids[0], nil, nil); st != 200 {
		t.Fatalf("cabinet session of node a on node b: %d", st)
	}
	csrf := cabinetCSRF(t, cab, b)
	if st := call(t, cab, "POST", b.key+"/cabinet/api/logout", nil, nil, "X-CSRF-Token", csrf); st != 200 && st != 204 {
		t.Fatalf("log out through b: %d", st)
	}
	if st := call(t, cab, "GET", a.key+"/cabinet/api/contracts/"+ids[0], nil, nil); st == 200 {
		t.Fatal("the session logged out through b still works on a")
	}

	// Credentials change through one node and fail on the other at once.
	admin := []string{"Authorization", "Bearer " + c.adminToken}
	if st := status(t, "GET", b.embedded+"/v1/contracts/"+ids[0], auth...); st != 200 {
		t.Fatalf("the token works on b: %d", st)
	}
	mustCall(t, "POST", b.admin+"/admin/v1/apps/"+p.appID+"/secret", nil, nil, admin...)
	if st := status(t, "GET", a.embedded+"/v1/contracts/"+ids[0], auth...); st != 401 {
		t.Fatalf("a token of the rotated secret on a: %d, want 401", st)
	}
	if st := call(t, http.DefaultClient, "POST", a.embedded+"/v1/auth/token", jsonBody(map[string]string{"appId": p.appID, "appSecret": p.appSecret}), nil); st == 200 {
		t.Fatal("the rotated secret still gets a token on a")
	}
	keyAuth := []string{"X-API-Key", p.apiKey}
	if st := status(t, "GET", b.key+"/v1/contracts/"+ids[0], keyAuth...); st != 200 {
		t.Fatalf("the key works on b: %d", st)
	}
	var keys []struct{ ID, Name string }
	view(t, db, func(tx signflow.Tx) error {
		list, err := tx.Keys()
		for _, k := range list {
			keys = append(keys, struct{ ID, Name string }{k.ID, k.Name})
		}
		return err
	})
	if status, body := httpCall(t, "POST", a.admin+"/admin/v1/keys/"+keys[0].ID+"/revoke", c.adminToken, "", ""); status != 204 {
		t.Fatalf("revoke: %d %s", status, body)
	}
	if st := status(t, "GET", b.key+"/v1/contracts/"+ids[0], keyAuth...); st != 401 {
		t.Fatalf("the revoked key on b: %d, want 401", st)
	}

	// Every webhook is delivered, once.
	waitOutboxEmpty(t, b, time.Minute)
	for id, n := range recv.received() {
		if n != 1 {
			t.Errorf("delivery %s received %d times", id, n)
		}
	}
	if len(recv.received()) < contracts*2*3 { // created, signed, active; app and key
		t.Errorf("%d deliveries received", len(recv.received()))
	}

	// A health check without curl: contracts ready.
	adminAt := "CONTRACTS_ADMIN__LISTEN=" + strings.TrimPrefix(b.admin, "http://")
	if out, errOut, code := runCommand(t, t.TempDir(), append(c.env, adminAt), "ready"); code != 0 || !strings.Contains(out, `"ready"`) {
		t.Fatalf("contracts ready: exit %d\n%s%s", code, out, errOut)
	}

	// A backup of the database is pg_dump's.
	st, body := httpCall(t, "GET", a.admin+"/admin/v1/backup", c.adminToken, "", "")
	var refusal struct{ Code, Message string }
	if json.Unmarshal([]byte(body), &refusal); st != 400 || !strings.Contains(refusal.Message, "pg_dump") {
		t.Fatalf("GET /admin/v1/backup on postgres: %d %s", st, body)
	}
	out, errOut, code := runCommand(t, t.TempDir(), append(c.env, "CONTRACTS_ADMIN__LISTEN="+strings.TrimPrefix(a.admin, "http://")),
		"backup", "--out", filepath.Join(t.TempDir(), "backup.db"))
	if code == 0 || !strings.Contains(errOut, "pg_dump") {
		t.Fatalf("contracts backup on postgres: exit %d\n%s%s", code, out, errOut)
	}
}
