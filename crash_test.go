package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contracts/assets"
	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// The crash and backup tests drive the real binary under concurrent writes:
// kill -9 in the middle, then restart on the same file; and online backups
// taken while writers go on. The short form runs in CI; CONTRACTS_CRASH_LONG=1
// makes the runs ten times longer.

// loadScale is 1 in CI and 10 with CONTRACTS_CRASH_LONG=1.
func loadScale() int {
	if os.Getenv("CONTRACTS_CRASH_LONG") == "1" {
		return 10
	}
	return 1
}

// instance is a started appliance with its addresses and admin token.
type instance struct {
	*proc
	embedded, key, admin string
	adminToken           string
}

// startInstance starts "contracts serve" on loopback ports over dataDir.
func startInstance(t *testing.T, dir, dataDir string, env ...string) *instance {
	t.Helper()
	env = append([]string{"CONTRACTS_DATA__DIR=" + dataDir, "CONTRACTS_ADMIN__LISTEN=127.0.0.1:0"}, env...)
	p := startContracts(t, dir, env, "serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0")
	addrs := p.listening(t)
	return &instance{proc: p, embedded: "http://" + addrs["embedded"], key: "http://" + addrs["key"],
		admin: "http://" + addrs["admin"], adminToken: secretFile(t, filepath.Join(dataDir, "admin.token"))}
}

// call makes one request and decodes a JSON answer into out when it is 200.
// header holds name, value pairs.
func call(t testing.TB, client *http.Client, method, url string, body []byte, out any, header ...string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK && out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, url, err, data)
		}
	}
	return resp.StatusCode
}

func mustCall(t testing.TB, method, url string, body []byte, out any, header ...string) {
	t.Helper()
	if status := call(t, http.DefaultClient, method, url, body, out, header...); status != http.StatusOK {
		t.Fatalf("%s %s: status %d", method, url, status)
	}
}

func jsonBody(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// Parties of the provisioned world.
const (
	loadOwnerIN    = "301234567"
	loadCustomerIN = "31234567890123"
)

// provisioned is an owner, the demo template, an app and a key (both with
// the webhook address when one is given), a bearer token of the app and a
// registered customer.
type provisioned struct {
	templateID, appID, appSecret, apiKey, token string
}

func provision(t *testing.T, in *instance, webhookURL string) *provisioned {
	t.Helper()
	auth := []string{"Authorization", "Bearer " + in.adminToken}
	mustCall(t, "POST", in.admin+"/admin/v1/owners", jsonBody(map[string]string{"in": loadOwnerIN, "type": "COMPANY",
		"legalName": "Alpha Savdo MChJ", "phone": "+998 71 200-00-00"}), nil, auth...)
	var tpl struct{ ID string }
	mustCall(t, "POST", in.admin+"/admin/v1/templates", assets.DemoTemplate, &tpl, append(auth, "Content-Type", "application/yaml")...)
	var app struct{ AppID, AppSecret string }
	mustCall(t, "POST", in.admin+"/admin/v1/apps", jsonBody(map[string]any{"name": "Shop", "ownerIn": loadOwnerIN,
		"scopes": signflow.AppScopes, "allTemplates": true, "webhookUrl": webhookURL}), &app, auth...)
	var key struct{ Key string }
	mustCall(t, "POST", in.admin+"/admin/v1/keys", jsonBody(map[string]any{"name": "ERP", "ownerIn": loadOwnerIN,
		"scopes": signflow.KeyScopes, "allTemplates": true, "webhookUrl": webhookURL}), &key, auth...)
	p := &provisioned{templateID: tpl.ID, appID: app.AppID, appSecret: app.AppSecret, apiKey: key.Key}
	p.token = issueToken(t, in, p)
	mustCall(t, "POST", in.embedded+"/v1/clients", jsonBody(map[string]string{"in": loadCustomerIN, "firstName": "Aziz",
		"lastName": "Karimov", "phone": "+998 90 123-45-67"}), nil, "Authorization", "Bearer "+p.token)
	return p
}

func issueToken(t *testing.T, in *instance, p *provisioned) string {
	t.Helper()
	var tok struct{ AccessToken string }
	mustCall(t, "POST", in.embedded+"/v1/auth/token", jsonBody(map[string]string{"appId": p.appID, "appSecret": p.appSecret}), &tok)
	return tok.AccessToken
}

func (p *provisioned) contractBody() []byte {
	return jsonBody(map[string]any{"templateId": p.templateID, "buyerIn": loadCustomerIN, "price": 1500.25, "currency": "UZS",
		"values":   []map[string]string{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7"}, {"keyName": "warrantyMonths", "value": "12"}},
		"products": []map[string]any{{"name": "TV", "quantity": 1, "price": 1500.25, "values": map[string]string{"color": "black"}}}})
}

// writers creates contracts from n goroutines until stop is closed, each
// making at most max requests; the ids answered 200 are acked. A request
// that fails on the network (the process was killed) ends its writer.
type writers struct {
	mu      sync.Mutex
	acked   []string
	refused atomic.Int64 // answers other than 200
	fivexx  atomic.Int64
	wg      sync.WaitGroup
	stop    chan struct{}
}

func startWriters(t *testing.T, in *instance, p *provisioned, n, max int) *writers {
	w := &writers{stop: make(chan struct{})}
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	body := p.contractBody()
	for i := 0; i < n; i++ {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for j := 0; j < max; j++ {
				select {
				case <-w.stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", in.embedded+"/v1/contracts", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+p.token)
				resp, err := client.Do(req)
				if err != nil {
					return
				}
				data, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				var out struct{ ID string }
				switch {
				case err != nil:
					return // cut mid-answer: not acknowledged
				case resp.StatusCode >= 500:
					w.fivexx.Add(1)
				case resp.StatusCode != 200 || json.Unmarshal(data, &out) != nil || out.ID == "":
					w.refused.Add(1)
				default:
					w.mu.Lock()
					w.acked = append(w.acked, out.ID)
					w.mu.Unlock()
				}
			}
		}()
	}
	return w
}

func (w *writers) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.acked)
}

func (w *writers) ids() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.acked...)
}

// waitAcked waits, up to d, until n writes were acknowledged.
func (w *writers) waitAcked(t *testing.T, n int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for w.count() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d writes acknowledged after %v", w.count(), n, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// finish stops the writers and waits for them.
func (w *writers) finish(t *testing.T) {
	t.Helper()
	close(w.stop)
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("writers did not stop")
	}
}

// receiver is a webhook endpoint on loopback that records delivery ids.
// While holding, it answers the first few deliveries and keeps the rest
// waiting, so that the outbox is full of undelivered rows when the
// appliance is killed.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	got      map[string]int // delivery id -> deliveries received
	answered int
	holdFrom int           // answer this many, then hold the rest
	release  chan struct{} // closed: answer everything
}

func newReceiver(t *testing.T, holdFrom int) *receiver {
	r := &receiver{got: map[string]int{}, holdFrom: holdFrom, release: make(chan struct{})}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		id := req.Header.Get("X-Contracts-Delivery")
		r.mu.Lock()
		hold := r.answered >= r.holdFrom
		if !hold {
			r.answered++
		}
		r.mu.Unlock()
		if hold {
			select {
			case <-r.release:
			case <-req.Context().Done():
				return // the sender died: not received
			}
		}
		r.mu.Lock()
		r.got[id]++
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(func() {
		r.releaseAll()
		r.Close()
	})
	return r
}

func (r *receiver) releaseAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.release:
	default:
		close(r.release)
	}
}

func (r *receiver) received() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.got))
	for k, v := range r.got {
		out[k] = v
	}
	return out
}

// waitOutboxEmpty waits until no delivery is PENDING, and checks none FAILED.
func waitOutboxEmpty(t *testing.T, in *instance, d time.Duration) {
	t.Helper()
	auth := []string{"Authorization", "Bearer " + in.adminToken}
	deadline := time.Now().Add(d)
	for {
		var pending []json.RawMessage
		mustCall(t, "GET", in.admin+"/admin/v1/deliveries?status=PENDING", nil, &pending, auth...)
		if len(pending) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries still PENDING after %v", len(pending), d)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var failed []json.RawMessage
	if mustCall(t, "GET", in.admin+"/admin/v1/deliveries?status=FAILED", nil, &failed, auth...); len(failed) > 0 {
		t.Fatalf("%d deliveries FAILED, first: %s", len(failed), failed[0])
	}
}

// TestCrashKill9 kills the appliance with SIGKILL while 50 clients create
// contracts and the webhook outbox is full, restarts it on the same file,
// and checks that every contract answered 200 is there with its audit
// events and that every outbox row is then delivered, under the delivery
// id it had, and nothing that was not committed was ever sent.
func TestCrashKill9(t *testing.T) {
	const clients = 50
	scale := loadScale()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	recv := newReceiver(t, 20)
	env := []string{"CONTRACTS_RATELIMIT__TOKENPERMINUTE=0", "CONTRACTS_RATELIMIT__APPPERSECOND=0"}
	in := startInstance(t, dir, data, env...)
	p := provision(t, in, recv.URL+"/hook")

	w := startWriters(t, in, p, clients, 1000*scale)
	w.waitAcked(t, 300*scale, 60*time.Second)
	if err := in.cmd.Process.Kill(); err != nil { // SIGKILL: no drain, no close
		t.Fatal(err)
	}
	in.wait(t, 10*time.Second)
	w.finish(t)
	acked := w.ids()
	if w.fivexx.Load() > 0 || w.refused.Load() > 0 {
		t.Fatalf("before the kill: %d answers 5xx, %d other refusals", w.fivexx.Load(), w.refused.Load())
	}
	recv.releaseAll()
	beforeRestart := recv.received()

	in = startInstance(t, dir, data, env...)
	p.token = issueToken(t, in, p)
	for _, id := range acked {
		if status := call(t, http.DefaultClient, "GET", in.embedded+"/v1/contracts/"+id, nil, nil, "Authorization", "Bearer "+p.token); status != 200 {
			t.Fatalf("contract %s was answered 200 before the kill; after the restart GET is %d", id, status)
		}
	}
	waitOutboxEmpty(t, in, 120*time.Second)
	in.stop(t)

	received := recv.received()
	db, err := storage.Open(filepath.Join(data, "contracts.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := signflow.NewService(db, signflow.Options{})
	all, err := svc.Deliveries(signflow.DeliveryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]*signflow.Delivery{}
	for _, d := range all {
		known[d.ID] = d
	}
	for id := range received {
		if known[id] == nil {
			t.Fatalf("delivery %s was sent but is not in the outbox: an event of a change that did not commit", id)
		}
	}
	afterRestart := 0
	for _, id := range acked {
		err := db.View(func(tx signflow.Tx) error {
			events, err := tx.AuditEvents(id)
			if err != nil || len(events) == 0 || events[0].Type != signflow.EventCreated {
				return fmt.Errorf("contract %s: audit events %v (%v)", id, events, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ds, err := svc.Deliveries(signflow.DeliveryFilter{ContractID: id})
		if err != nil || len(ds) != 2 { // the app and the key
			t.Fatalf("contract %s: %d deliveries (%v), want 2", id, len(ds), err)
		}
		for _, d := range ds {
			if d.Status != signflow.DeliveryDelivered || received[d.ID] == 0 {
				t.Fatalf("delivery %s of %s: %s, received %d times", d.ID, id, d.Status, received[d.ID])
			}
			if beforeRestart[d.ID] == 0 {
				afterRestart++
			}
		}
	}
	if afterRestart == 0 {
		t.Fatal("every delivery went out before the kill: the restart delivered nothing, the test proved nothing")
	}
	t.Logf("%d clients: %d contracts acknowledged before kill -9, all present with audit events after the restart; "+
		"%d deliveries in the outbox, %d received before the kill, %d first delivered after the restart, all under their ids",
		clients, len(acked), len(all), len(beforeRestart), afterRestart)
}

// TestBackupUnderWriteLoad takes online backups while 20 clients create
// contracts: each backup opens, holds every contract
// acknowledged before it started, and every contract in it has its audit
// events, its index entries and its outbox rows. restore refuses the
// running instance's file, and puts the backup in place once it is stopped.
func TestBackupUnderWriteLoad(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	recv := newReceiver(t, 1<<30)
	in := startInstance(t, dir, data, "CONTRACTS_RATELIMIT__TOKENPERMINUTE=0", "CONTRACTS_RATELIMIT__APPPERSECOND=0")
	p := provision(t, in, recv.URL+"/hook")
	w := startWriters(t, in, p, 20, 1000*loadScale())
	var backups []string
	var ackedBefore [][]string
	for i := 0; i < 3; i++ {
		w.waitAcked(t, (i+1)*100*loadScale(), 60*time.Second)
		out := filepath.Join(dir, "backup-"+strconv.Itoa(i)+".db")
		ackedBefore = append(ackedBefore, w.ids())
		if msg := mustRun(t, dir, "backup", "--out", out, "--url", in.admin, "--token", in.adminToken); !strings.Contains(msg, "backup: wrote") {
			t.Fatalf("backup printed %q", msg)
		}
		backups = append(backups, out)
	}
	if w.count() <= len(ackedBefore[2]) {
		w.waitAcked(t, len(ackedBefore[2])+1, 30*time.Second) // writes went on during the last backup
	}
	w.finish(t)
	if w.fivexx.Load() > 0 || w.refused.Load() > 0 {
		t.Fatalf("under backup: %d answers 5xx, %d other refusals", w.fivexx.Load(), w.refused.Load())
	}
	counts := make([]int, len(backups))
	for i, b := range backups {
		counts[i] = checkConsistent(t, b, ackedBefore[i])
	}
	t.Logf("3 backups under write load hold %v contracts, each consistent", counts)

	last := backups[len(backups)-1]
	_, errOut, code := runContracts(t, dir, nil, "restore", "--from", last, "--data-dir", data)
	if code == 0 || !strings.Contains(errOut, "another process is using") {
		t.Fatalf("restore over the running instance: exit %d\n%s", code, errOut)
	}
	in.stop(t)
	mustRun(t, dir, "restore", "--from", last, "--data-dir", data)
	in = startInstance(t, dir, data)
	var page struct{ TotalElements int }
	mustCall(t, "GET", in.key+"/v1/contracts?size=1", nil, &page, "X-API-Key", p.apiKey)
	if page.TotalElements != counts[len(counts)-1] {
		t.Fatalf("after restore the key interface lists %d contracts, the backup holds %d", page.TotalElements, counts[len(counts)-1])
	}
	in.stop(t)
}

// checkConsistent opens a backup and checks it: schema version, every
// contract acknowledged before the backup began, and for every contract in
// it the audit trail, the number and party indexes and its outbox rows.
// It returns the number of contracts.
func checkConsistent(t *testing.T, path string, acked []string) int {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("backup %s does not open: %v", path, err)
	}
	defer db.Close()
	if v, err := db.SchemaVersion(); err != nil || v != storage.CurrentSchema() {
		t.Fatalf("backup schema version %d (%v)", v, err)
	}
	var ids []string
	err = db.Bolt().View(func(btx *bolt.Tx) error {
		return btx.Bucket([]byte("contracts")).ForEach(func(k, _ []byte) error { ids = append(ids, string(k)); return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	for _, id := range acked {
		if !in[id] {
			t.Fatalf("%s: contract %s was acknowledged before the backup started but is not in it", filepath.Base(path), id)
		}
	}
	svc := signflow.NewService(db, signflow.Options{})
	err = db.View(func(tx signflow.Tx) error {
		for _, party := range []string{loadOwnerIN, loadCustomerIN} {
			page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: party, AllTemplates: true, Size: 1})
			if err != nil || page.Total != len(ids) {
				return fmt.Errorf("party index of %s lists %d contracts, the file holds %d (%v)", party, page.Total, len(ids), err)
			}
		}
		for _, id := range ids {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			events, err := tx.AuditEvents(id)
			if err != nil || len(events) == 0 || events[0].Type != signflow.EventCreated {
				return fmt.Errorf("contract %s: no creation audit event (%v)", id, err)
			}
			page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: loadOwnerIN, AllTemplates: true, Search: c.Number, Size: 5})
			if err != nil || page.Total != 1 || page.Contracts[0].ID != id {
				return fmt.Errorf("contract %s: number %s not found through its index (%v)", id, c.Number, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	for _, id := range ids {
		if ds, err := svc.Deliveries(signflow.DeliveryFilter{ContractID: id}); err != nil || len(ds) != 2 {
			t.Fatalf("%s: contract %s has %d outbox rows (%v), want 2", filepath.Base(path), id, len(ds), err)
		}
	}
	return len(ids)
}
