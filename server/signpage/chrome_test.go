package signpage_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"contracts/internal/browsertest"

	"github.com/chromedp/chromedp"
)

// parent is the integrator's page on its own origin (127.0.0.1): it mounts
// each signing URL through the service's sdk.js and records every message
// it receives (window.__raw, with its origin and frame) and every event the
// SDK passes on (window.__events).
type parent struct {
	srv  *httptest.Server
	sdk  string
	done string // a page Continue may lead to
}

func newParent(t *testing.T, sdkURL string) *parent {
	t.Helper()
	p := &parent{sdk: sdkURL}
	mux := http.NewServeMux()
	mux.HandleFunc("/parent", func(w http.ResponseWriter, r *http.Request) {
		urls, _ := json.Marshal(r.URL.Query()["u"])
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, parentPage, p.sdk, urls)
	})
	mux.HandleFunc("/done", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Thank you</title><h1>Thank you for your order</h1>")
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	p.done = p.srv.URL + "/done"
	return p
}

// origin is the parent's origin, for parentOrigin.
func (p *parent) origin() string { return p.srv.URL }

// page returns the parent's URL mounting the signing URLs.
func (p *parent) page(urls ...string) string {
	q := make([]string, len(urls))
	for i, u := range urls {
		q[i] = "u=" + strings.ReplaceAll(strings.ReplaceAll(u, "%", "%25"), "&", "%26")
	}
	return p.srv.URL + "/parent?" + strings.Join(q, "&")
}

const parentPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body style="margin:0;background:#ddd">
<h1 style="margin:0;padding:12px;font:16px sans-serif">Shop checkout</h1>
<div id="f0"></div><div id="f1"></div>
<script>
window.__raw = []; window.__events = []; window.__loads = []; window.__frames = [];
addEventListener('message', function (e) {
  __raw.push({origin: e.origin, data: e.data, frame: __frames.findIndex(function (f) { return f.contentWindow === e.source; })});
});
</script>
<script src="%s"></script>
<script>
(%s).forEach(function (u, i) {
  var m = Contracts.mount('#f' + i, u, {onEvent: function (d) { __events.push({frame: i, data: d}); }});
  __frames.push(m.iframe);
  m.iframe.addEventListener('load', function () { __loads.push(i); });
});
</script>
</body></html>`

// message is one postMessage the parent received.
type message struct {
	Origin string         `json:"origin"`
	Frame  int            `json:"frame"`
	Data   map[string]any `json:"data"`
}

// waitMessage waits until the parent has received a message of the type
// (from any frame) and returns it.
func waitMessage(t *testing.T, ctx context.Context, typ string) message {
	t.Helper()
	js := fmt.Sprintf(`__raw.find(function (m) { return m.data && m.data.type === %q; })`, typ)
	m, err := chromedp.Run(browsertest.Within(t, ctx, 20*time.Second), chromedp.Poll[message](js, chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		raw, _ := chromedp.Run(ctx, chromedp.Evaluate[[]message](`__raw`))
		t.Fatalf("no %s message: %v; received %+v", typ, err, raw)
	}
	return m
}

// messages returns every message the parent received.
func messages(t *testing.T, ctx context.Context) []message {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]message](`__raw`))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
