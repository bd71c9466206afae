package cabinet_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/embedded"
	"contracts/server/keyapi"
	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

// Every route that serves a contract's PDF — the embedded interface, the
// key interface and the cabinet — serves it from the one cache: the same
// bytes, rendered once, however often and wherever it is asked for.
func TestOnePDFCacheForEveryRoute(t *testing.T) {
	pdfs := pdf.NewCache(pdf.DefaultCacheBytes)
	e := newEnv(t, options{pdfs: pdfs})
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})

	emb := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	embedded.Register(emb, embedded.Deps{Service: e.svc, BaseURL: embeddedBase, PDF: pdfs, Now: e.Clock.Now})
	embSrv := httptest.NewServer(emb)
	t.Cleanup(embSrv.Close)
	app := fixture.MustCredential(t, e.Service.CreateApp, &signflow.CredentialInput{Name: "Peer shop", OwnerIN: peerIN,
		Scopes: signflow.AppScopes, AllTemplates: true})
	token, err := e.svc.IssueToken(app.ID, app.Secret)
	if err != nil {
		t.Fatal(err)
	}
	get := func(client *http.Client, url string, header ...string) []byte {
		t.Helper()
		r := (&apitest.Caller{HTTP: client}).Do(t, "GET", url, "", nil, header...)
		if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" {
			t.Fatalf("%s: %d %s", url, r.Status, r.Body)
		}
		return []byte(r.Body)
	}
	byKey := get(e.srv.Client(), e.srv.URL+"/v1/contracts/"+id+"/pdf?lang=en", keyapi.HeaderAPIKey, e.key.Secret)
	byApp := get(embSrv.Client(), embSrv.URL+"/v1/contracts/"+id+"/pdf?lang=en", "Authorization", "Bearer "+token)
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	byParty := []byte(b.get("/cabinet/contracts/" + id + "/pdf?lang=en").Body)
	if !bytes.Equal(byKey, byApp) || !bytes.Equal(byKey, byParty) {
		t.Fatalf("the routes served different PDFs: %d, %d and %d bytes", len(byKey), len(byApp), len(byParty))
	}
	if s := pdfs.Stats(); s.Renders != 1 || s.Hits != 2 {
		t.Fatalf("cache %+v: want one render for three routes", s)
	}
}
