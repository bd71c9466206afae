package webhooks

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"contracts/signflow"
)

// Signature is the spec's X-<Name>-Signature value: "sha256=" and the
// lowercase hex HMAC-SHA256 of the raw body under the webhook secret.
func Signature(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// SignatureV2 is the X-<Name>-Signature-V2 value: the unix time t and the
// hex HMAC-SHA256 of "<t>.<raw body>", which lets receivers refuse replays.
func SignatureV2(secret, body []byte, t int64) string {
	ts := strconv.FormatInt(t, 10)
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts + "."))
	m.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(m.Sum(nil))
}

// signatures are Signature and SignatureV2 of body at t, made with one
// keyed HMAC: a send makes both.
func signatures(secret, body []byte, t int64) (v1, v2 string) {
	return signWith(hmac.New(sha256.New, secret), body, t)
}

// signWith is signatures with m, an HMAC-SHA256 keyed with the secret.
// Both values are cut from one string: a send makes them for every row.
func signWith(m hash.Hash, body []byte, t int64) (v1, v2 string) {
	var sum [sha256.Size]byte
	b := make([]byte, 0, 2*(len("sha256=")+2*sha256.Size)+24)
	m.Reset()
	m.Write(body)
	b = hex.AppendEncode(append(b, "sha256="...), m.Sum(sum[:0]))
	n1 := len(b)
	b = strconv.AppendInt(append(b, "t="...), t, 10)
	m.Reset()
	m.Write(append(b[n1+2:], '.')) // "<t>.", in the room after b
	m.Write(body)
	b = hex.AppendEncode(append(b, ",v1="...), m.Sum(sum[:0]))
	all := string(b)
	return all[:n1], all[n1:]
}

// signer is one worker's last opened secret, as an HMAC keyed with it, and
// the sealed bytes it was opened from: the rows of one target are signed
// without opening the secret and keying an HMAC for each. Sealed bytes
// open to one secret only, so a secret changed since is sealed bytes
// unlike these, and is opened.
type signer struct {
	sealed []byte
	mac    hash.Hash
}

// sign is signatures of body at t under the secret sealed.
func (s *signer) sign(box signflow.SecretBox, sealed, body []byte, t int64) (v1, v2 string, err error) {
	if s.mac == nil || !bytes.Equal(sealed, s.sealed) {
		secret, err := box.Decrypt(sealed)
		if err != nil {
			s.sealed, s.mac = nil, nil
			return "", "", err
		}
		s.sealed, s.mac = bytes.Clone(sealed), hmac.New(sha256.New, secret)
	}
	v1, v2 = signWith(s.mac, body, t)
	return v1, v2, nil
}

// headerNames are the X-<Name>-* header names, canonical.
type headerNames struct{ event, delivery, signature, timestamp, signatureV2 string }

func newHeaderNames(name string) headerNames {
	h := func(s string) string { return http.CanonicalHeaderKey("X-" + name + "-" + s) }
	return headerNames{h("Event"), h("Delivery"), h("Signature"), h("Timestamp"), h("Signature-V2")}
}

// newClient is net/http's client for receivers behind a proxy: it times
// out each attempt, does not follow redirects (only a 2xx from the
// configured address counts) and connects only to addresses that
// signflow.WebhookAddrRefused allows, judged after the name resolves.
func newClient(opt Options, proxy func(*http.Request) (*url.URL, error)) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = proxy
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: refuseTarget}).DialContext
	t.MaxIdleConnsPerHost = opt.Workers
	return &http.Client{Transport: t, Timeout: opt.AttemptTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// refuseTarget runs before each connection, on the resolved address.
func refuseTarget(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("refused: cannot check the address %q", address)
	}
	if why := signflow.WebhookAddrRefused(ap.Addr()); why != "" {
		return fmt.Errorf("refused: %s; webhooks are not sent there", why)
	}
	return nil
}

// result is one attempt at one row, on its way to the delivery log.
type result struct {
	d        *signflow.Delivery
	attempt  signflow.Attempt
	ok       bool
	finished time.Time // by the pool's clock; retries count from here
}

// work makes one attempt per row it is handed.
func (p *Pool) work() {
	var sg signer
	sd := &sender{p: p}
	defer sd.closeAll()
	for d := range p.jobs {
		select {
		case <-p.stop:
			continue // the row stays PENDING for the next start
		default:
		}
		at, start := p.opt.Clock.Now(), time.Now()
		code, err := p.send(&sg, sd, d, at)
		took := time.Since(start)
		select {
		case p.attempted <- d.Target:
		case <-p.stop:
		}
		if p.ctx.Err() != nil {
			continue // aborted by Shutdown: not an answer of the receiver
		}
		p.metrics.duration.Observe(took.Seconds())
		a := signflow.Attempt{At: at, StatusCode: code, DurationMs: took.Milliseconds()}
		if err != nil {
			a.Error = err.Error()
		}
		p.results <- result{d: d, attempt: a, ok: err == nil, finished: p.opt.Clock.Now()}
	}
}

// send signs the row's exact body with its target's webhook secret and
// POSTs it; any 2xx answer is success.
func (p *Pool) send(sg *signer, sd *sender, d *signflow.Delivery, now time.Time) (int, error) {
	sealed, err := p.secret(d.Target, now)
	if err != nil {
		return 0, err
	}
	v1, v2, err := sg.sign(p.box, sealed, d.Body, now.Unix())
	if err != nil {
		return 0, err
	}
	ts := v2[len("t="):strings.IndexByte(v2, ',')] // the time v2 signs
	var a answer
	if sd.direct(d.URL) {
		sd.head = p.head(sd.head[:0], d, v1, ts, v2)
		a, err = sd.post(sd.head, d.Body, time.Now().Add(p.opt.AttemptTimeout))
	} else {
		a, err = p.sendClient(d, v1, ts, v2)
	}
	if err != nil {
		return a.code, err
	}
	if a.code < 200 || a.code > 299 {
		return a.code, fmt.Errorf("answered %s", a.status)
	}
	return a.code, nil
}

// head appends the request's header lines but Host and Content-Length.
func (p *Pool) head(b []byte, d *signflow.Delivery, v1, ts, v2 string) []byte {
	line := func(name, value string) {
		b = append(append(append(append(b, name...), ": "...), value...), "\r\n"...)
	}
	line("Content-Type", "application/json; charset=utf-8")
	line("User-Agent", p.userAgent)
	line(p.headers.event, d.Event)
	line(p.headers.delivery, d.ID)
	line(p.headers.signature, v1)
	line(p.headers.timestamp, ts)
	line(p.headers.signatureV2, v2)
	return b
}

// sendClient POSTs the row with net/http's client, for a receiver behind
// a proxy.
func (p *Pool) sendClient(d *signflow.Delivery, v1, ts, v2 string) (answer, error) {
	req, err := http.NewRequestWithContext(p.ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		return answer{}, err
	}
	// The names are canonical already (newHeaderNames): set without Set's
	// canonicalizing.
	v := []string{"application/json; charset=utf-8", p.userAgent, d.Event, d.ID, v1, ts, v2}
	req.Header = http.Header{"Content-Type": v[0:1:1], "User-Agent": v[1:2:2], p.headers.event: v[2:3:3],
		p.headers.delivery: v[3:4:4], p.headers.signature: v[4:5:5], p.headers.timestamp: v[5:6:6], p.headers.signatureV2: v[6:7:7]}
	resp, err := p.client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, drainMax)) // lets the connection be reused
	return answer{resp.StatusCode, resp.Status}, nil
}

// secret reads the sealed webhook secret of a target that may still
// receive: an app not cancelled or expired, a key not revoked or expired.
func (p *Pool) secret(target string, now time.Time) ([]byte, error) {
	var sealed []byte
	err := p.store.View(func(tx signflow.Tx) error {
		if id, ok := strings.CutPrefix(target, signflow.AppTarget("")); ok {
			app, err := tx.App(id)
			if err != nil {
				return err
			}
			sealed = app.WebhookSecretEnc
			return app.Usable(now)
		}
		if id, ok := strings.CutPrefix(target, signflow.KeyTarget("")); ok {
			k, err := tx.Key(id)
			if err != nil {
				return err
			}
			sealed = k.WebhookSecretEnc
			return k.Usable(now)
		}
		return fmt.Errorf("unknown target %q", target)
	})
	if err != nil {
		return nil, fmt.Errorf("not sent: %w", err)
	}
	return sealed, nil
}
