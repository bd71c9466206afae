package webhooks

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"
)

// A worker sends over connections of its own, kept to the receivers it
// last sent to: it writes each request with one write and reads the answer
// itself. net/http's client hands every request to a writing and a
// reading goroutine of the connection, wake-ups that cost a delivery as
// much CPU as its request. What the client did is kept: the attempt's
// time-out, no redirect followed, the address checked after the name
// resolves, TLS verified against the host, credentials in the URL sent as
// Basic authorization. A receiver behind a proxy of the environment
// (HTTP_PROXY and kin) is sent to with net/http's client, which knows how.

const (
	keptConns = 4                // receivers a worker keeps a connection to
	idleFor   = 90 * time.Second // a connection idle longer is closed, as net/http's client does
	drainMax  = 64 << 10         // bytes of an answer's body read so that its connection is reused
	// A receiver is a tenant's address: an answer is read up to answerMax
	// bytes (its header lines at most 1 MiB, net/http's client allows 10)
	// and interimMax interim answers, then the attempt fails, so that a
	// receiver that sends without end costs a worker neither memory nor
	// more than the attempt's time.
	answerMax  = 1<<20 + drainMax + 4<<10
	interimMax = 5
)

// sender is one worker's connections and the URL it last parsed.
type sender struct {
	p       *Pool
	kept    []*keptConn // the most recently used last
	rawURL  string
	u       *url.URL
	err     error  // of parsing rawURL
	proxied bool   // rawURL goes through a proxy
	shown   string // rawURL as errors name it: its password, if any, redacted
	key     string // rawURL's scheme "://" host, its connections' key
	lead    []byte // rawURL's request line, Host and authorization lines
	head    []byte
	buf     []byte
}

// keptConn is one connection to a receiver.
type keptConn struct {
	key  string // scheme "://" host
	c    net.Conn
	r    *bufio.Reader
	lim  *io.LimitedReader // under r: the bytes the answer being read may still take
	used time.Time         // by the wall clock: an idle time-out is the receiver's
	stop func() bool
}

func (k *keptConn) close() {
	k.stop()
	k.c.Close()
}

// answer is what a receiver said: its status code and line.
type answer struct {
	code   int
	status string
}

// direct says whether raw is sent over the worker's own connections, that
// is not through a proxy. A URL that does not parse is, and fails there.
func (s *sender) direct(raw string) bool {
	if raw != s.rawURL {
		s.rawURL, s.shown = raw, raw
		s.u, s.err = url.Parse(raw)
		if s.err == nil {
			s.shown = s.u.Redacted()
			if s.u.Scheme != "http" && s.u.Scheme != "https" {
				s.err = fmt.Errorf("unsupported protocol scheme %q", s.u.Scheme)
			}
		}
		s.proxied = false
		if s.err == nil {
			proxy, err := s.p.proxy(&http.Request{URL: s.u})
			s.proxied = err != nil || proxy != nil
			s.key, s.lead = s.u.Scheme+"://"+s.u.Host, lead(s.u)
		}
	}
	return !s.proxied
}

// lead is the request line, Host and, for credentials in the URL, the
// Basic authorization line of a POST to u.
func lead(u *url.URL) []byte {
	b := append(append([]byte("POST "), u.RequestURI()...), " HTTP/1.1\r\nHost: "...)
	b = append(append(b, u.Host...), "\r\n"...)
	if u.User != nil {
		pass, _ := u.User.Password()
		b = append(b, "Authorization: Basic "...)
		b = base64.StdEncoding.AppendEncode(b, []byte(u.User.Username()+":"+pass))
		b = append(b, "\r\n"...)
	}
	return b
}

// post sends a request of the header lines head (each ending in CRLF;
// Host and Content-Length are added) and body to the URL direct last
// accepted, within the deadline.
func (s *sender) post(head, body []byte, deadline time.Time) (answer, error) {
	if s.err != nil {
		return answer{}, s.failed(s.err)
	}
	s.buf = s.request(s.buf[:0], head, body)
	kc, reused := s.take(s.key)
	for {
		if kc == nil {
			var err error
			if kc, err = s.dial(s.key, deadline); err != nil {
				return answer{}, s.failed(err)
			}
		}
		a, keep, heard, err := s.exchange(kc, deadline)
		if err != nil && reused && !heard && !errors.Is(err, os.ErrDeadlineExceeded) {
			// The receiver closed the kept connection before it answered
			// (an idle time-out of its own): send again on a new one,
			// once, as net/http's client does.
			kc.close()
			kc, reused = nil, false
			continue
		}
		if err != nil || !keep {
			kc.close()
		} else {
			kc.used = time.Now()
			s.put(kc)
		}
		if err != nil {
			return a, s.failed(err)
		}
		return a, nil
	}
}

// failed names the URL, without its password (the error is kept in the
// delivery log and logged), and says a time-out is one.
func (s *sender) failed(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("Post %q: Timeout exceeded: %w", s.shown, err)
	}
	return fmt.Errorf("Post %q: %w", s.shown, err)
}

// request appends the lead, Content-Length, head and body.
func (s *sender) request(b, head, body []byte) []byte {
	b = append(append(b, s.lead...), "Content-Length: "...)
	b = append(strconv.AppendInt(b, int64(len(body)), 10), "\r\n"...)
	b = append(append(b, head...), "\r\n"...)
	return append(b, body...)
}

// exchange writes the request on kc and reads the answer. It says whether
// the connection may carry another request, and whether any of the answer
// came: a connection the receiver closed while it was kept fails before.
func (s *sender) exchange(kc *keptConn, deadline time.Time) (a answer, keep, heard bool, err error) {
	kc.c.SetDeadline(deadline)
	if _, err = kc.c.Write(s.buf); err != nil {
		return a, false, false, err
	}
	kc.lim.N = answerMax
	if _, err = kc.r.Peek(1); err != nil {
		return a, false, false, err
	}
	for interim := 0; ; interim++ {
		resp, err := http.ReadResponse(kc.r, nil)
		if err != nil {
			if kc.lim.N <= 0 {
				err = fmt.Errorf("the answer is longer than %d bytes", answerMax)
			}
			return a, false, true, err
		}
		if resp.StatusCode >= 100 && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
			if interim == interimMax {
				return a, false, true, fmt.Errorf("more than %d interim answers", interimMax)
			}
			continue // an interim answer; the final one follows
		}
		n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, drainMax+1))
		resp.Body.Close()
		// Bytes after the answer would be read as the next request's.
		keep = err == nil && n <= drainMax && !resp.Close && resp.StatusCode != http.StatusSwitchingProtocols &&
			kc.r.Buffered() == 0
		return answer{resp.StatusCode, resp.Status}, keep, true, nil
	}
}

// take returns the kept connection to key, unless there is none or it has
// been idle too long.
func (s *sender) take(key string) (*keptConn, bool) {
	for i, kc := range s.kept {
		if kc.key != key {
			continue
		}
		s.kept = append(s.kept[:i], s.kept[i+1:]...)
		if time.Since(kc.used) > idleFor {
			kc.close()
			return nil, false
		}
		return kc, true
	}
	return nil, false
}

// put keeps kc, closing the least recently used when there are too many.
func (s *sender) put(kc *keptConn) {
	if len(s.kept) == keptConns {
		s.kept[0].close()
		s.kept = append(s.kept[:0], s.kept[1:]...)
	}
	s.kept = append(s.kept, kc)
}

// closeAll closes the kept connections: the worker is done.
func (s *sender) closeAll() {
	for _, kc := range s.kept {
		kc.close()
	}
	s.kept = nil
}

// dial connects to the URL's host, to an address refuseTarget allows, and
// shakes hands over TLS for https.
func (s *sender) dial(key string, deadline time.Time) (*keptConn, error) {
	ctx, cancel := context.WithDeadline(s.p.ctx, deadline)
	defer cancel()
	port := s.u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[s.u.Scheme]
	}
	d := net.Dialer{KeepAlive: 30 * time.Second, Control: refuseTarget}
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(s.u.Hostname(), port))
	if err != nil {
		return nil, err
	}
	if s.u.Scheme == "https" {
		tc := tls.Client(c, &tls.Config{ServerName: s.u.Hostname(), RootCAs: s.p.roots, NextProtos: []string{"http/1.1"}})
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, err
		}
		c = tc
	}
	// Shutdown running out of time aborts the attempt in flight.
	stop := context.AfterFunc(s.p.ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
	lim := &io.LimitedReader{R: c}
	return &keptConn{key: key, c: c, r: bufio.NewReader(lim), lim: lim, stop: stop}, nil
}
