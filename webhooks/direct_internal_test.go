package webhooks

import (
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contracts/signflow"
)

// hookServer is a receiver that counts the connections it accepted and
// keeps what it was sent.
type hookServer struct {
	*httptest.Server
	conns atomic.Int32
	mu    sync.Mutex
	got   []*http.Request
	body  []string
}

func newHookServer(t *testing.T, tls bool, h func(w http.ResponseWriter, r *http.Request)) *hookServer {
	s := &hookServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.got, s.body = append(s.got, r), append(s.body, string(b))
		s.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	if tls {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

func (s *hookServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.got)
}

// newSender is one worker's sender of a pool that is not started.
func newSender(t *testing.T) *sender {
	p, err := New(nil, nil, nil, Options{Name: "Contracts", Workers: 1, PerTarget: 1, AttemptTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p.proxy = func(*http.Request) (*url.URL, error) { return nil, nil }
	s := &sender{p: p}
	t.Cleanup(s.closeAll)
	return s
}

// post sends body to raw the way a worker does, with a test's header.
func (s *sender) postTest(t *testing.T, raw, body string, within time.Duration) (answer, error) {
	t.Helper()
	if !s.direct(raw) {
		t.Fatalf("%s: not sent directly", raw)
	}
	return s.post([]byte("Content-Type: application/json\r\nX-Contracts-Delivery: d-1\r\n"), []byte(body), time.Now().Add(within))
}

// Requests go out whole, one connection carries them one after another,
// and each answer is read to its end, whatever its framing.
func TestSenderKeepsOneConnection(t *testing.T) {
	srv := newHookServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("answer") {
		case "chunked":
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, "accepted")
			w.(http.Flusher).Flush()
			io.WriteString(w, strings.Repeat("x", 10000))
		case "interim":
			w.WriteHeader(http.StatusEarlyHints)
			w.WriteHeader(http.StatusAccepted)
		case "redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	s := newSender(t)
	for i, c := range []struct {
		query string
		code  int
	}{{"", 204}, {"?answer=chunked", 200}, {"?answer=interim", 202}, {"?answer=redirect", 302}, {"", 204}} {
		a, err := s.postTest(t, srv.URL+"/hook"+c.query, `{"n":1}`, 5*time.Second)
		if err != nil || a.code != c.code {
			t.Fatalf("request %d (%s): %v %v, want %d", i, c.query, a, err, c.code)
		}
	}
	if n := srv.conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	r := srv.got[0]
	if r.Method != http.MethodPost || r.URL.Path != "/hook" || r.Host != strings.TrimPrefix(srv.URL, "http://") ||
		r.ContentLength != 7 || srv.body[0] != `{"n":1}` || r.Header.Get("X-Contracts-Delivery") != "d-1" ||
		r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("request %s %s host %s length %d body %q header %v", r.Method, r.URL, r.Host, r.ContentLength, srv.body[0], r.Header)
	}
	if len(srv.got) != 5 {
		t.Errorf("%d requests, want 5: a redirect was followed", len(srv.got))
	}
}

// An answer that says the connection closes, or whose body is too long to
// read away, leaves it; the next request opens another.
func TestSenderLeavesSpentConnections(t *testing.T) {
	srv := newHookServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("answer") {
		case "close":
			w.Header().Set("Connection", "close")
		case "long":
			io.WriteString(w, strings.Repeat("x", drainMax+1))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s := newSender(t)
	for i, q := range []string{"?answer=close", "?answer=long", "", ""} {
		if a, err := s.postTest(t, srv.URL+"/hook"+q, "{}", 5*time.Second); err != nil || a.code/100 != 2 {
			t.Fatalf("request %d: %v %v", i, a, err)
		}
	}
	if n := srv.conns.Load(); n != 3 {
		t.Errorf("%d connections, want 3: one per spent connection and one kept", n)
	}
}

// A kept connection the receiver has closed meanwhile is found out by the
// next request, which goes once more on a new connection.
func TestSenderSendsAgainWhenTheKeptConnectionIsGone(t *testing.T) {
	srv := newHookServer(t, false, nil)
	s := newSender(t)
	for i := range 2 {
		if a, err := s.postTest(t, srv.URL+"/hook", "{}", 5*time.Second); err != nil || a.code != 204 {
			t.Fatalf("request %d: %v %v", i, a, err)
		}
		srv.CloseClientConnections()
	}
	if n, r := srv.conns.Load(), srv.requests(); n != 2 || r != 2 {
		t.Errorf("%d connections and %d requests, want 2 and 2", n, r)
	}
}

// A receiver that does not answer in time fails the attempt as a time-out
// and loses its connection; so does one the pool aborts at shutdown.
func TestSenderTimesOutAndAborts(t *testing.T) {
	arrived, release := make(chan struct{}, 2), make(chan struct{})
	srv := newHookServer(t, false, func(w http.ResponseWriter, r *http.Request) { arrived <- struct{}{}; <-release })
	t.Cleanup(func() { close(release) }) // before srv.Close
	s := newSender(t)
	start := time.Now()
	_, err := s.postTest(t, srv.URL+"/hook", "{}", 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "Timeout") || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("after %v: %v, want a time-out", time.Since(start), err)
	}
	if len(s.kept) != 0 {
		t.Error("the timed-out connection was kept")
	}
	done := make(chan error, 1)
	go func() { _, err := s.postTest(t, srv.URL+"/hook", "{}", time.Minute); done <- err }()
	<-arrived
	<-arrived // the second request is with the receiver
	s.p.abort()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("an aborted attempt succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("abort did not end the attempt")
	}
}

// https receivers are verified against the roots; credentials in the URL
// go as Basic authorization.
func TestSenderTLSAndCredentials(t *testing.T) {
	srv := newHookServer(t, true, nil)
	s := newSender(t)
	withUser := strings.Replace(srv.URL, "https://", "https://hook:p%40ss@", 1)
	_, err := s.postTest(t, withUser+"/hook", "{}", 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("an unknown certificate: %v, want refused", err)
	}
	if strings.Contains(err.Error(), "p%40ss") || strings.Contains(err.Error(), "p@ss") {
		t.Errorf("the error, kept in the delivery log, shows the URL's password: %v", err)
	}
	// A URL the sender refuses before any connection is named as redacted too.
	s.direct("ftp://hook:p%40ss@receiver.example/hook")
	if _, err := s.post(nil, nil, time.Now().Add(time.Second)); err == nil || strings.Contains(err.Error(), "p%40ss") {
		t.Errorf("a refused scheme: %v, want an error without the URL's password", err)
	}
	s.p.roots = x509.NewCertPool()
	s.p.roots.AddCert(srv.Certificate())
	if a, err := s.postTest(t, withUser+"/hook", "{}", 5*time.Second); err != nil || a.code != 204 {
		t.Fatalf("%v %v", a, err)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if u, p, ok := srv.got[0].BasicAuth(); !ok || u != "hook" || p != "p@ss" || srv.got[0].TLS == nil {
		t.Errorf("basic auth %q %q %v, TLS %v", u, p, ok, srv.got[0].TLS != nil)
	}
}

// A receiver the environment puts behind a proxy is sent to through it,
// signed as any other.
func TestProxiedReceiverGoesThroughTheProxy(t *testing.T) {
	proxy := newHookServer(t, false, nil)
	proxyURL, _ := url.Parse(proxy.URL)
	p, err := New(nil, nil, nil, Options{Name: "Contracts", Workers: 1, PerTarget: 1, AttemptTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p.proxy = http.ProxyURL(proxyURL)
	p.client = newClient(p.opt, p.proxy)
	s := &sender{p: p}
	const target = "http://receiver.example:8080/hook"
	if s.direct(target) {
		t.Fatal("a proxied receiver is sent to directly")
	}
	d := &signflow.Delivery{ID: "d-1", Event: signflow.EventCreated, URL: target, Body: []byte(`{"n":1}`)}
	a, err := p.sendClient(d, "sha256=ab", "1795338000", "t=1795338000,v1=cd")
	if err != nil || a.code != 204 {
		t.Fatalf("%v %v", a, err)
	}
	proxy.mu.Lock()
	defer proxy.mu.Unlock()
	r := proxy.got[0]
	if r.URL.String() != target || r.Header.Get("X-Contracts-Signature") != "sha256=ab" || proxy.body[0] != `{"n":1}` {
		t.Errorf("the proxy got %s %v %q", r.URL, r.Header, proxy.body[0])
	}
}

// rawReceiver answers every request on its connections with what answer
// writes, whatever it was sent.
func rawReceiver(t *testing.T, answer func(w io.Writer)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Read(make([]byte, 64<<10)) // the request, small enough for one read
				answer(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/hook"
}

// A receiver is a tenant's address: one that sends header lines without
// end, or interim answers without end, fails the attempt when it has sent
// too much, not when the time-out ends, and costs no more memory than that.
func TestSenderStopsReadingAnEndlessAnswer(t *testing.T) {
	endless := rawReceiver(t, func(w io.Writer) {
		io.WriteString(w, "HTTP/1.1 200 OK\r\nX-Endless: ")
		chunk := []byte(strings.Repeat("x", 64<<10))
		for range 1 << 10 { // 64 MiB, far past the bound
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	interims := rawReceiver(t, func(w io.Writer) {
		for range 100 {
			io.WriteString(w, "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n")
		}
		io.WriteString(w, "HTTP/1.1 204 No Content\r\n\r\n")
	})
	for _, c := range []struct{ url, want string }{{endless, "longer than"}, {interims, "interim answers"}} {
		s := newSender(t)
		start := time.Now()
		_, err := s.postTest(t, c.url, "{}", time.Minute)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: %v, want %q", c.url, err, c.want)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s: the attempt took %v", c.url, took)
		}
		if len(s.kept) != 0 {
			t.Errorf("%s: the connection was kept", c.url)
		}
	}
}

// A connection the receiver switched to another protocol is not used for
// the next request; the attempt fails as any answer but a 2xx does.
func TestSenderLeavesAnUpgradedConnection(t *testing.T) {
	url := rawReceiver(t, func(w io.Writer) {
		io.WriteString(w, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	})
	s := newSender(t)
	a, err := s.postTest(t, url, "{}", 5*time.Second)
	if err != nil || a.code != http.StatusSwitchingProtocols {
		t.Fatalf("%v %v, want the 101", a, err)
	}
	if len(s.kept) != 0 {
		t.Error("the upgraded connection was kept")
	}
}

// A connection on which the receiver sent more than its answer is not
// used again: the bytes left over would be read as the answer to the next
// request, which then counts as delivered without being heard.
func TestSenderLeavesAConnectionWithBytesLeftOver(t *testing.T) {
	var heard atomic.Int32
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	url := rawReceiver(t, func(w io.Writer) {
		heard.Add(1)
		io.WriteString(w, "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
		<-done // the connection stays open, as a receiver's would
	})
	s := newSender(t)
	for i := range 2 {
		if a, err := s.postTest(t, url, "{}", 5*time.Second); err != nil || a.code != http.StatusNoContent {
			t.Fatalf("post %d: %v %v", i, a, err)
		}
	}
	if n := heard.Load(); n != 2 {
		t.Errorf("the receiver heard %d requests of 2", n)
	}
}
