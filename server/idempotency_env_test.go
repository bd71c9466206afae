package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/embedded"
	"contracts/server/keyapi"
	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/postgres/pgtest"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// node is one appliance process: both interfaces over a store.
type node struct {
	w             *fixture.World
	embedded, key *httptest.Server
}

func startNode(t *testing.T, w *fixture.World) *node {
	t.Helper()
	emb := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	embedded.Register(emb, embedded.Deps{Service: w.Service, BaseURL: "http://embedded.test", Now: w.Clock.Now})
	key := server.NewEcho("key", zerolog.Nop(), nil, true)
	keyapi.Register(key, keyapi.Deps{Service: w.Service, BaseURL: "http://key.test/", VerifyBaseURL: "http://embedded.test", Now: w.Clock.Now})
	n := &node{w: w, embedded: httptest.NewServer(emb), key: httptest.NewServer(key)}
	t.Cleanup(n.embedded.Close)
	t.Cleanup(n.key.Close)
	return n
}

type answer struct {
	status int
	header http.Header
	body   string
}

// post sends a JSON body with the credential header and, when key is not
// empty, an Idempotency-Key.
func post(t *testing.T, url, auth, key string, body any) answer {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	name, value, _ := strings.Cut(auth, ": ")
	req.Header.Set(name, value)
	if key != "" {
		req.Header.Set(server.HeaderIdempotencyKey, key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, res.Header, string(data)}
}

func bearer(t *testing.T, n *node, cred *signflow.NewCredential) string {
	t.Helper()
	a := post(t, n.embedded.URL+"/v1/auth/token", "X-None: x", "", map[string]string{"appId": cred.ID, "appSecret": cred.Secret})
	var tok struct{ AccessToken string }
	if err := json.Unmarshal([]byte(a.body), &tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("token: %d %s", a.status, a.body)
	}
	return "Authorization: Bearer " + tok.AccessToken
}

func apiKeyAuth(cred *signflow.NewCredential) string { return "X-API-Key: " + cred.Secret }

func contractCount(t *testing.T, s signflow.Store) int {
	t.Helper()
	var n int
	fixture.Must(t, func() error {
		return s.View(func(tx signflow.Tx) error {
			page, err := tx.ListContracts(signflow.ContractQuery{AllOwners: true, AllTemplates: true, Page: 0, Size: 100})
			if page != nil {
				n = page.Total
			}
			return err
		})
	})
	return n
}

func createBody(w *fixture.Standard) map[string]any {
	return map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500, "currency": "UZS"}
}

// TestIdempotencyKeyReplays: a repeat is the first answer, marked; another
// caller's same key is its own; another request under a used key, and bad
// keys, are 400 and create nothing; a 4xx answer is kept too.
func TestIdempotencyKeyReplays(t *testing.T) {
	w := fixture.NewStandard(t)
	n := startNode(t, w.World)
	appA, appB, keyA := bearer(t, n, w.AppA), bearer(t, n, w.AppB), apiKeyAuth(w.KeyA)
	create := n.embedded.URL + "/v1/contracts"

	first := post(t, create, appA, "order-1", createBody(w))
	again := post(t, create, appA, "order-1", createBody(w))
	if first.status != 200 || again.status != 200 || again.body != first.body ||
		again.header.Get(server.HeaderReplayed) != "true" || first.header.Get(server.HeaderReplayed) != "" ||
		again.header.Get("Content-Type") != first.header.Get("Content-Type") {
		t.Fatalf("first %+v\nrepeat %+v", first, again)
	}
	if got := contractCount(t, w.Store); got != 1 {
		t.Fatalf("%d contracts after a repeat, want 1", got)
	}
	other := post(t, create, appB, "order-1", createBody(w))
	byKey := post(t, n.key.URL+"/v1/contracts", keyA, "order-1", createBody(w))
	for _, a := range []answer{other, byKey} {
		if a.status != 200 || a.body == first.body || a.header.Get(server.HeaderReplayed) != "" {
			t.Fatalf("another caller's same key: %+v", a)
		}
	}
	if got := contractCount(t, w.Store); got != 3 {
		t.Fatalf("%d contracts, want 3 (one per caller)", got)
	}

	changed := createBody(w)
	changed["price"] = 1600
	for name, a := range map[string]answer{
		"another body":      post(t, create, appA, "order-1", changed),
		"another path":      post(t, n.embedded.URL+"/v1/clients", appA, "order-1", createBody(w)),
		"a key too long":    post(t, create, appA, strings.Repeat("k", 256), createBody(w)),
		"a control in keys": post(t, create, appA, "order\t2", createBody(w)),
	} {
		if a.status != 400 || !strings.Contains(a.body, "Idempotency-Key") {
			t.Errorf("%s: %d %s", name, a.status, a.body)
		}
	}
	if a := post(t, create, appA, strings.Repeat("k", 255), createBody(w)); a.status != 200 {
		t.Errorf("a key of 255 characters: %d %s", a.status, a.body)
	}
	if got := contractCount(t, w.Store); got != 4 {
		t.Fatalf("%d contracts, want 4", got)
	}

	bad := createBody(w)
	bad["buyerIn"] = ""
	refused := post(t, create, appA, "order-3", bad)
	if again := post(t, create, appA, "order-3", bad); refused.status != 400 || again.status != 400 ||
		again.body != refused.body || again.header.Get(server.HeaderReplayed) != "true" {
		t.Fatalf("a refusal and its repeat: %+v %+v", refused, again)
	}
}

// TestIdempotencyKeyRunningAndFailing: a repeat while the first runs is 409
// with Retry-After; a 5xx answer is not kept, so the repeat runs again.
func TestIdempotencyKeyRunningAndFailing(t *testing.T) {
	w := fixture.NewStandard(t)
	e := echo.New()
	e.HTTPErrorHandler = server.ErrorHandler(zerolog.Nop(), false)
	release, started := make(chan struct{}), make(chan struct{}, 1)
	calls := 0
	var mu sync.Mutex
	mw := server.Idempotent(w.Service, func(echo.Context) string { return "app:test" })
	e.POST("/slow", func(c echo.Context) error {
		started <- struct{}{}
		<-release
		return c.JSON(201, map[string]string{"id": "slow"})
	}, mw)
	e.POST("/flaky", func(c echo.Context) error {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			return signflow.Errorf(signflow.EUNAVAILABLE, "try again")
		}
		return c.JSON(200, map[string]int{"call": n})
	}, mw)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	done := make(chan answer)
	go func() { done <- post(t, srv.URL+"/slow", "X-None: x", "k1", map[string]int{}) }()
	<-started
	busy := post(t, srv.URL+"/slow", "X-None: x", "k1", map[string]int{})
	if busy.status != 409 || busy.header.Get("Retry-After") != "1" {
		t.Fatalf("a repeat while running: %+v", busy)
	}
	close(release)
	if first := <-done; first.status != 201 {
		t.Fatalf("the first: %+v", first)
	}
	if a := post(t, srv.URL+"/slow", "X-None: x", "k1", map[string]int{}); a.status != 201 || a.header.Get(server.HeaderReplayed) != "true" {
		t.Fatalf("a repeat once done: %+v", a)
	}

	if a := post(t, srv.URL+"/flaky", "X-None: x", "k2", map[string]int{}); a.status != 503 {
		t.Fatalf("the first flaky call: %+v", a)
	}
	if a := post(t, srv.URL+"/flaky", "X-None: x", "k2", map[string]int{}); a.status != 200 || a.body != "{\"call\":2}\n" ||
		a.header.Get(server.HeaderReplayed) != "" {
		t.Fatalf("the repeat of a 5xx did not run again: %+v", a)
	}
}

// TestIdempotencyKeyAfterRestart: the kept answer outlives the process.
func TestIdempotencyKeyAfterRestart(t *testing.T) {
	path := t.TempDir() + "/contracts.db"
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := fixture.NewStandardOn(t, db)
	n := startNode(t, w.World)
	first := post(t, n.key.URL+"/v1/contracts", apiKeyAuth(w.KeyA), "order-1", createBody(w))
	n.key.Close()
	n.embedded.Close()
	db.Close()

	db2, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db2.Close() })
	n2 := startNode(t, fixture.NewOn(t, db2, w.Options))
	again := post(t, n2.key.URL+"/v1/contracts", apiKeyAuth(w.KeyA), "order-1", createBody(w))
	if first.status != 200 || again.body != first.body || again.header.Get(server.HeaderReplayed) != "true" {
		t.Fatalf("before %+v\nafter a restart %+v", first, again)
	}
	if got := contractCount(t, db2); got != 1 {
		t.Fatalf("%d contracts, want 1", got)
	}
}

// TestIdempotencyKeyConcurrentDuplicates: many copies of one create at
// once, on two nodes where the engine is shared, make exactly one contract.
func TestIdempotencyKeyConcurrentDuplicates(t *testing.T) {
	engines := map[string]func(t *testing.T) (a, b signflow.Store){
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
	}
	for name, open := range engines {
		t.Run(name, func(t *testing.T) {
			a, b := open(t)
			w := fixture.NewStandardOn(t, a)
			nodes := []*node{startNode(t, w.World), startNode(t, fixture.NewOn(t, b, w.Options))}
			auth := apiKeyAuth(w.KeyA)
			answers := make(chan answer, 16)
			var wg sync.WaitGroup
			for i := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					answers <- post(t, nodes[i%2].key.URL+"/v1/contracts", auth, "same-order", createBody(w))
				}()
			}
			wg.Wait()
			close(answers)
			ids := map[string]bool{}
			for a := range answers {
				switch a.status {
				case 200:
					ids[a.body] = true
				case 409:
				default:
					t.Errorf("a duplicate answered %d %s", a.status, a.body)
				}
			}
			if len(ids) != 1 || contractCount(t, a) != 1 {
				t.Fatalf("%d distinct answers, %d contracts; want 1 and 1", len(ids), contractCount(t, a))
			}
		})
	}
}

// TestIdempotencyKeyKeepsNoSecretInClear: a kept answer that carries a
// session's link is encrypted in the store, and replayed whole.
func TestIdempotencyKeyKeepsNoSecretInClear(t *testing.T) {
	w := fixture.NewStandard(t)
	n := startNode(t, w.World)
	app := bearer(t, n, w.AppA)
	c := w.Contract(t)
	url := n.embedded.URL + "/v1/contracts/" + c.ID + "/sign-sessions"
	first := post(t, url, app, "session-1", map[string]any{"signerIn": fixture.CustomerIN})
	again := post(t, url, app, "session-1", map[string]any{"signerIn": fixture.CustomerIN})
	var s struct{ URL string }
	json.Unmarshal([]byte(first.body), &s)
	token := s.URL[strings.LastIndex(s.URL, "/")+1:]
	if first.status != 200 || len(token) < 20 || again.body != first.body || again.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("first %+v\nrepeat %+v", first, again)
	}
	held, err := w.DB.ClaimRequest(context.Background(), &signflow.IdempotentRequest{Caller: "app:" + w.AppA.ID, Key: "session-1"},
		w.Clock.Now())
	if err != nil || held == nil || !held.Done {
		t.Fatalf("the kept record: %+v, %v", held, err)
	}
	if !held.Encrypted || bytes.Contains(held.Body, []byte(token)) {
		t.Fatalf("the session's token is kept in clear: %s", held.Body)
	}
}
