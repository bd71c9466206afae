package signpage_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server/signpage"
	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"

	"github.com/chromedp/chromedp"
	"golang.org/x/net/websocket"
)

// E_IMZO in real Chromium, the page in a cross-origin iframe, the local
// client stood in for by window.ContractsEIMZO: the signer's key is listed
// first; another company's key is refused by the (fake) E-IMZO server and
// nothing changes; the signer's key signs and SIGNED reaches the parent.
// The stand-in refuses to sign anything but the document hash.
func TestBrowserEIMZOSigns(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c, sess, page := e.openCompany(t, signflow.SessionRequest{Lang: "en", ParentOrigin: p.origin()})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(page))); err != nil {
		t.Fatal(err)
	}
	if m := waitMessage(t, ctx, "READY"); m.Data["method"] != signflow.MethodEIMZO {
		t.Fatalf("READY %+v", m)
	}
	f := browsertest.Frame(t, ctx, page)
	keys, _ := json.Marshal([]map[string]string{
		{"id": "beta", "name": "BETA TRADE LLC", "tin": fixture.OtherIN, "validTo": "01.01.2028"},
		{"id": "alpha", "name": "ALPHA SAVDO MCHJ", "tin": fixture.OwnerIN, "validTo": "01.01.2028"},
	})
	sigs, _ := json.Marshal(map[string]string{
		"beta":  eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OtherIN, CN: "BETA TRADE LLC"}),
		"alpha": eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OwnerIN, CN: "ALPHA SAVDO MCHJ"}),
	})
	fake := fmt.Sprintf(`window.ContractsEIMZO = {
	  calls: [],
	  listKeys: function () { return Promise.resolve(%s); },
	  sign: function (id, data64) {
	    this.calls.push(id);
	    if (data64 !== %s) return Promise.reject(new Error('asked to sign ' + data64));
	    return Promise.resolve(%s[id]);
	  }
	}; true`, keys, jsString(base64.StdEncoding.EncodeToString([]byte(c.Hash))), sigs)
	if _, err := chromedp.Run(f, chromedp.Evaluate[bool](fake)); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitText(t, f, "You will sign it with your E-IMZO electronic signature key")

	browsertest.Click(t, f, "button", "Sign")
	browsertest.WaitText(t, f, "Choose your key.")
	options, err := chromedp.Run(f, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#eimzo-key option')).map(function (o) { return o.value + ': ' + o.textContent; })`))
	if err != nil || len(options) != 2 || options[0] != "alpha: ALPHA SAVDO MCHJ · TIN 301234567 · valid until 01.01.2028" || !strings.HasPrefix(options[1], "beta: BETA TRADE LLC") {
		t.Fatalf("keys offered %q (%v): the signer's first", options, err)
	}
	browsertest.Screenshot(t, ctx, "en-eimzo-keys-in-parent", 1100)

	before := e.snap(t, c.ID, sess.ID, fixture.OwnerIN)
	choose(t, f, "Signature key", "beta")
	browsertest.Click(t, f, "button", "Confirm")
	browsertest.WaitText(t, f, "The signature was not accepted: sign this contract with the key of TIN 301234567. Nothing was signed.")
	browsertest.WaitText(t, f, fixture.OtherIN) // the E-IMZO server's own words below
	browsertest.Screenshot(t, ctx, "en-eimzo-refused-in-parent", 1100)
	if now := e.snap(t, c.ID, sess.ID, fixture.OwnerIN); now != before {
		t.Fatalf("a foreign key changed %+v into %+v", before, now)
	}

	choose(t, f, "Signature key", "alpha")
	browsertest.Click(t, f, "button", "Confirm")
	signed := waitMessage(t, ctx, "SIGNED")
	if signed.Origin != e.base || signed.Data["source"] != "contracts-sdk" || signed.Data["sessionId"] != sess.ID || signed.Data["contractId"] != c.ID {
		t.Fatalf("SIGNED %+v", signed)
	}
	browsertest.WaitText(t, f, "Contract signed")
	browsertest.Screenshot(t, ctx, "en-eimzo-signed-in-parent", 1100)
	if calls, err := chromedp.Run(f, chromedp.Evaluate[[]string](`window.ContractsEIMZO.calls`)); err != nil || strings.Join(calls, ",") != "beta,alpha" {
		t.Fatalf("keys used %v (%v)", calls, err)
	}
	after := e.snap(t, c.ID, sess.ID, fixture.OwnerIN)
	if after.party != signflow.PartyAccepted || !after.verified || after.sess != signflow.SessionSigned {
		t.Fatalf("after signing %+v", after)
	}
}

// The page's own E-IMZO client code against a fake of the local E-IMZO
// client's websocket (CAPIWS): with the client down the page says E-IMZO
// is not running; once it is up, Try again lists the key; Confirm presents
// the API keys, loads the key and makes an attached PKCS#7 of the document
// hash, which the server verifies and signs.
func TestBrowserEIMZOLocalClient(t *testing.T) {
	capi := newCAPIWS(t, "cn=alpha savdo mchj,name=aziz,surname=karimov,o=alpha savdo mchj, llc,l=toshkent,c=uz,uid=512345678,"+
		"1.2.860.3.16.1.1="+fixture.OwnerIN+",1.2.860.3.16.1.2="+fixture.CustomerIN+",serialnumber=218711a92,validfrom=2026.01.01 00:00:00,validto=2028.01.01 00:00:00",
		eimzotest.Key{TIN: fixture.OwnerIN, PINFL: fixture.CustomerIN, CN: "alpha savdo mchj"})
	e := newEnvWith(t, envOptions{outside: true, eimzo: signpage.EIMZOClient{PlainURL: capi.url, APIKeys: map[string]string{"sign.example.uz": "K1"}}})
	ctx := browsertest.Start(t)
	c, sess, page := e.openCompany(t, signflow.SessionRequest{Lang: "en"})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	capi.setDown(true)
	browsertest.Click(t, ctx, "button", "Sign")
	browsertest.WaitText(t, ctx, "E-IMZO is not running on this computer. Start E-IMZO and press Try again.")
	browsertest.Screenshot(t, ctx, "en-eimzo-not-running", 820)

	capi.setDown(false)
	browsertest.Click(t, ctx, "button", "Try again")
	if _, err := chromedp.Run(browsertest.Within(t, ctx, 10*time.Second), chromedp.Poll[bool](`document.querySelectorAll('#eimzo-key option').length === 1`)); err != nil {
		t.Fatalf("no key listed: %v", err)
	}
	option, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#eimzo-key option').textContent`))
	if option != "alpha savdo mchj · TIN 301234567 · valid until 01.01.2028" {
		t.Fatalf("key shown as %q", option)
	}
	browsertest.Click(t, ctx, "button", "Confirm")
	browsertest.WaitText(t, ctx, "Contract signed")
	if got := e.StoredContract(t, c.ID); got.SellerStatus != signflow.PartyAccepted || got.Signatures[fixture.OwnerIN].Method != signflow.MethodEIMZO {
		t.Fatalf("seller %s", got.SellerStatus)
	}
	if e.StoredSession(t, sess.ID).Status != signflow.SessionSigned {
		t.Fatal("session not signed")
	}

	calls := capi.log()
	names := make([]string, len(calls))
	for i, call := range calls {
		names[i] = call.Name
	}
	if strings.Join(names, " ") != "version apikey list_all_certificates list_readers list_tokens load_key create_pkcs7" {
		t.Fatalf("calls %v", names)
	}
	apikey := strings.Join(calls[1].Arguments, " ")
	if !strings.Contains(apikey, "localhost 96D0C149") || !strings.Contains(apikey, "sign.example.uz K1") || calls[1].Origin != e.base {
		t.Fatalf("apikey %q from %s", apikey, calls[1].Origin)
	}
	if l := calls[5]; l.Plugin != "pfx" || len(l.Arguments) != 4 || l.Arguments[0] != `C:\` || l.Arguments[3] != capi.alias {
		t.Fatalf("load_key %+v", l)
	}
	data, _ := base64.StdEncoding.DecodeString(calls[6].Arguments[0])
	if p := calls[6]; p.Plugin != "pkcs7" || string(data) != c.Hash || p.Arguments[1] != "key-1" || p.Arguments[2] != "no" {
		t.Fatalf("create_pkcs7 %+v", p)
	}
}

// choose picks the option with the value in the select with the accessible name.
func choose(t *testing.T, ctx context.Context, name, value string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.SetValue("combobox "+name, value, browsertest.ByName("combobox", name))); err != nil {
		t.Fatalf("choose %q in %q: %v", value, name, err)
	}
}

// capiws is a fake of the local E-IMZO client's websocket: one JSON call
// per connection, answered as E-IMZO does, for one PFX key.
type capiws struct {
	url, alias string
	key        eimzotest.Key
	mu         sync.Mutex
	down       bool
	calls      []capiCall
	// What the client has: its version, PFX files or not, ID card
	// readers, BAIK tokens.
	major, minor string
	noPFX        bool
	readers      []string
	tokens       []string
}

// capiCall is one call the fake received.
type capiCall struct {
	Plugin    string   `json:"plugin"`
	Name      string   `json:"name"`
	Arguments []string `json:"arguments"`
	Origin    string   `json:"-"`
}

func newCAPIWS(t *testing.T, alias string, key eimzotest.Key) *capiws {
	t.Helper()
	f := &capiws{alias: alias, key: key, major: "4", minor: "64"}
	ws := websocket.Server{
		Handshake: func(_ *websocket.Config, r *http.Request) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.down {
				return errors.New("E-IMZO is not running")
			}
			return nil
		},
		Handler: func(conn *websocket.Conn) {
			var call capiCall
			if err := websocket.JSON.Receive(conn, &call); err != nil {
				return
			}
			call.Origin = conn.Request().Header.Get("Origin")
			f.mu.Lock()
			f.calls = append(f.calls, call)
			f.mu.Unlock()
			websocket.JSON.Send(conn, f.answer(call))
		},
	}
	mux := http.NewServeMux()
	mux.Handle("/service/cryptapi", ws)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	f.url = "ws" + strings.TrimPrefix(srv.URL, "http") + "/service/cryptapi"
	return f
}

func (f *capiws) answer(call capiCall) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch call.Plugin + "/" + call.Name {
	case "/version":
		return map[string]any{"success": true, "major": f.major, "minor": f.minor}
	case "/apikey":
		return map[string]any{"success": true}
	case "pfx/list_all_certificates":
		if f.noPFX {
			return map[string]any{"success": true, "certificates": []any{}}
		}
		return map[string]any{"success": true, "certificates": []any{
			map[string]any{"disk": `C:\`, "path": "DSKEYS", "name": "DS" + f.key.TIN, "alias": f.alias}}}
	case "idcard/list_readers":
		return map[string]any{"success": true, "readers": f.readers}
	case "baikey/list_tokens":
		if f.tokens == nil {
			return map[string]any{"success": false, "reason": "Plugin not found: baikey"}
		}
		return map[string]any{"success": true, "tokens": f.tokens}
	case "pfx/load_key":
		if len(call.Arguments) == 4 && call.Arguments[3] == f.alias {
			return map[string]any{"success": true, "keyId": "key-1"}
		}
	case "pkcs7/create_pkcs7":
		data, err := base64.StdEncoding.DecodeString(firstArg(call))
		if err == nil && len(call.Arguments) == 3 && (call.Arguments[1] == "key-1" || call.Arguments[1] == "idcard" || call.Arguments[1] == "baikey") {
			return map[string]any{"success": true, "pkcs7_64": eimzotest.Sign(string(data), f.key), "signer_serial_number": "218711a92"}
		}
	}
	return map[string]any{"success": false, "reason": "Неверный запрос"}
}

func firstArg(c capiCall) string {
	if len(c.Arguments) == 0 {
		return ""
	}
	return c.Arguments[0]
}

func (f *capiws) setDown(down bool) { f.mu.Lock(); f.down = down; f.mu.Unlock() }

func (f *capiws) log() []capiCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]capiCall(nil), f.calls...)
}
