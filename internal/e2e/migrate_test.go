package e2e

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/tsatest"
	"contracts/signflow/eimzo/eimzotest"
	"contracts/storage/postgres/pgtest"
	"contracts/webhooks"
)

// signedReceiver records each delivery's body and spec signature.
type signedReceiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []signedDelivery
	seen map[string]bool
}

type signedDelivery struct {
	event, signature string
	body             []byte
}

func newSignedReceiver(t *testing.T) *signedReceiver {
	r := &signedReceiver{seen: map[string]bool{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, signedDelivery{req.Header.Get("X-Contracts-Event"), req.Header.Get("X-Contracts-Signature"), body})
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *signedReceiver) all() []signedDelivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]signedDelivery(nil), r.got...)
}

// TestMigrateToPostgres fills a bbolt appliance through its interfaces —
// owners, claims, contracts signed with E-IMZO and an SMS code, signing
// sessions, a cabinet session, delivered webhooks, time-stamped seals —
// copies its file with "contracts migrate" into an empty PostgreSQL
// database under another master key, and serves it from there: the old
// app secret, API key, cabinet session and webhook secret work, the
// sealed PDF is the same bytes, and contract numbers continue. A second
// copy into the now filled database is refused.
func TestMigrateToPostgres(t *testing.T) {
	pgtest.ClusterURL(t) // skip before filling the bbolt side
	ez := eimzotest.New(t)
	authority := tsatest.New(t, time.Now)
	recv := newSignedReceiver(t)
	env := []string{"CONTRACTS_EIMZO__VERIFYURL=" + ez.URL, "CONTRACTS_SEAL__TSAURL=" + authority.URL,
		"CONTRACTS_RATELIMIT__OTPPERMINUTE=0", "CONTRACTS_RATELIMIT__TOKENPERMINUTE=0"}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	old := startInstance(t, dir, data, env...)
	p := provision(t, old, recv.URL+"/hook")
	var ids []string
	for range 3 {
		ids = append(ids, createContract(t, old, p))
	}
	signBoth(t, old, p, ids[0])
	// A deadline is a timer, copied with its contract.
	var due struct{ ID string }
	mustCall(t, "POST", old.embedded+"/v1/contracts", jsonBody(map[string]any{"templateId": p.templateID, "buyerIn": loadCustomerIN,
		"price": 10, "signBy": time.Now().Add(300 * 24 * time.Hour).UTC().Format(time.RFC3339)}), &due, "Authorization", "Bearer "+p.token)
	cab := cabinetLogin(t, old)
	sealed := mustPDF(t, old, p, nil, viaEmbedded, ids[0], "en")
	var last struct{ Number string }
	mustCall(t, "GET", old.embedded+"/v1/contracts/"+ids[2], nil, &last, "Authorization", "Bearer "+p.token)
	waitOutboxEmpty(t, old, time.Minute)
	old.stop(t)

	c := newCluster(t, env...)
	cfg := filepath.Join(dir, "postgres.yaml")
	yaml := "data:\n  driver: postgres\n  postgres:\n    url: \"" + c.url + "\"\nadmin:\n  token: " + c.adminToken +
		"\nsecrets:\n  masterKey: " + c.masterKey + "\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"migrate", "--from", filepath.Join(data, "contracts.db"), "--to", "postgres", "--config", cfg}
	out, errOut, code := runCommand(t, dir, nil, args...)
	if code != 0 {
		t.Fatalf("migrate: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("contracts migrate:\n%s%s", errOut, out)
	if !strings.Contains(errOut, "100%") {
		t.Errorf("no progress to 100%% on stderr:\n%s", errOut)
	}
	for _, bucket := range []string{"owners", "claims", "templates", "apps", "keys", "contracts", "sessions", "audit",
		"deliveries", "cabinet_sessions", "stamps", "timers"} {
		m := regexp.MustCompile(`(?m)^` + bucket + ` +(\d+) +(\d+)$`).FindStringSubmatch(out)
		if m == nil || m[1] != m[2] || m[1] == "0" {
			t.Errorf("%s: no equal non-zero counts in:\n%s", bucket, out)
		}
	}
	if out, errOut, code := runCommand(t, dir, nil, args...); code == 0 || !strings.Contains(errOut, "not empty") {
		t.Fatalf("a second migrate into the filled database: exit %d\n%s%s", code, out, errOut)
	}

	in := c.node(t)
	p.token = issueToken(t, in, p) // the old app secret
	if st := status(t, "GET", in.key+"/v1/contracts/"+ids[1], "X-API-Key", p.apiKey); st != 200 {
		t.Fatalf("the old API key: %d", st)
	}
	if st := call(t, cab, "GET", in.key+"/cabinet/api/contracts/"+ids[0], nil, nil); st != 200 {
		t.Fatalf("the cabinet session of the bbolt appliance: %d", st)
	}
	if again := mustPDF(t, in, p, nil, viaEmbedded, ids[0], "en"); !bytes.Equal(again, sealed) {
		t.Fatal("the sealed PDF differs after the move: the seal or its time-stamp token was not carried over")
	}
	before := len(recv.all())
	var next struct{ Number string }
	mustCall(t, "GET", in.embedded+"/v1/contracts/"+createContract(t, in, p), nil, &next, "Authorization", "Bearer "+p.token)
	if next.Number <= last.Number {
		t.Fatalf("new contract %s after the migrated %s: numbers do not continue", next.Number, last.Number)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(recv.all()) == before {
		if time.Now().After(deadline) {
			t.Fatal("no webhook after the move")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The app and the key each sign with the webhook secret they were given.
	signers := map[string]int{}
	for _, d := range recv.all()[before:] {
		switch d.signature {
		case webhooks.Signature([]byte(p.webhookSecret), d.body):
			signers["app"]++
		case webhooks.Signature([]byte(p.keyWebhookSecret), d.body):
			signers["key"]++
		default:
			t.Fatalf("a %s webhook after the move is signed with neither webhook secret", d.event)
		}
	}
	if signers["app"] == 0 && signers["key"] == 0 {
		t.Fatal("no webhook after the move was checked")
	}
}
