package webhooks

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"contracts/internal/config"

	"github.com/prometheus/client_golang/prometheus"
)

// configured are the pool's options as the built-in configuration gives
// them to the appliance's pool.
func configured() Options {
	def := config.Default()
	return Options{Name: def.Service.Name, Workers: def.Webhooks.Workers, PerTarget: def.Webhooks.PerTargetConcurrency,
		AttemptTimeout: def.Webhooks.Timeout}
}

// The defaults are the spec's: a 10-second time-out per attempt and the
// X-Contracts-* headers; tests elsewhere shorten the time-out.
func TestDefaults(t *testing.T) {
	reg := prometheus.NewRegistry()
	p, err := New(nil, nil, reg, configured())
	if err != nil {
		t.Fatal(err)
	}
	if p.client.Timeout != 10*time.Second {
		t.Errorf("attempt time-out %v, want 10s", p.client.Timeout)
	}
	if p.client.CheckRedirect(nil, nil) != http.ErrUseLastResponse {
		t.Error("redirects are followed")
	}
	want := headerNames{"X-Contracts-Event", "X-Contracts-Delivery", "X-Contracts-Signature", "X-Contracts-Timestamp", "X-Contracts-Signature-V2"}
	if p.headers != want {
		t.Errorf("headers %+v, want %+v", p.headers, want)
	}
	if p.opt.Workers != 32 || p.opt.Clock == nil {
		t.Errorf("workers %d clock %v", p.opt.Workers, p.opt.Clock)
	}
	// A claimed row waits behind at most four rows per worker, each at most
	// one time-out long: the lease must outlast that and the log write.
	if p.opt.Lease != time.Minute || p.opt.Lease <= inFlightPerWorker*p.opt.AttemptTimeout+p.opt.AttemptTimeout {
		t.Errorf("lease %v, want a minute, more than %d attempts' time", p.opt.Lease, inFlightPerWorker+1)
	}
	if _, err := New(nil, nil, reg, configured()); err == nil {
		t.Error("registering the metrics twice succeeded")
	}
}

// The pool takes its values from the configuration and has none of its
// own: a required one left zero is refused, not quietly defaulted.
func TestZeroOptionsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		zero func(*Options)
	}{
		{"name", func(o *Options) { o.Name = "" }},
		{"workers", func(o *Options) { o.Workers = 0 }},
		{"per target", func(o *Options) { o.PerTarget = 0 }},
		{"attempt time-out", func(o *Options) { o.AttemptTimeout = 0 }},
	} {
		opt := configured()
		c.zero(&opt)
		if _, err := New(nil, nil, nil, opt); err == nil {
			t.Errorf("%s: zero accepted", c.name)
		}
	}
	opt := configured()
	opt.PerTarget = -1 // no bound: documented
	if _, err := New(nil, nil, nil, opt); err != nil {
		t.Errorf("PerTarget -1: %v", err)
	}
}

// signatures makes, with one HMAC, what Signature and SignatureV2 make.
func TestSignaturesAreTheHelpers(t *testing.T) {
	for _, body := range [][]byte{nil, []byte(`{}`), []byte(`{"event":"CONTRACT_CREATED","amount":"12.50"}`)} {
		for _, at := range []int64{0, 1795338000, -5} {
			v1, v2 := signatures([]byte("whsec_s3cret"), body, at)
			if v1 != Signature([]byte("whsec_s3cret"), body) || v2 != SignatureV2([]byte("whsec_s3cret"), body, at) {
				t.Fatalf("%q at %d: %s, %s", body, at, v1, v2)
			}
		}
	}
}

// countingBox opens sealed bytes by a table and counts the openings.
type countingBox struct {
	secrets map[string]string
	opened  int
}

func (b *countingBox) Encrypt(plain []byte) ([]byte, error) { return nil, errors.New("not used") }

func (b *countingBox) Decrypt(enc []byte) ([]byte, error) {
	b.opened++
	s, ok := b.secrets[string(enc)]
	if !ok {
		return nil, errors.New("cannot open")
	}
	return []byte(s), nil
}

// A worker's signer signs as the helpers do under the secret the row's
// sealed bytes hold now: it opens a secret again whenever the sealed
// bytes change (a rotated secret), and only then.
func TestSignerFollowsTheSealedSecret(t *testing.T) {
	box := &countingBox{secrets: map[string]string{"sealed-a": "whsec_a", "sealed-b": "whsec_b", "sealed-a2": "whsec_a"}}
	var sg signer
	body := []byte(`{"event":"CONTRACT_CREATED"}`)
	for i, c := range []struct {
		sealed, secret string
		opened         int
	}{
		{"sealed-a", "whsec_a", 1}, {"sealed-a", "whsec_a", 1}, {"sealed-b", "whsec_b", 2}, {"sealed-b", "whsec_b", 2},
		{"sealed-a", "whsec_a", 3}, {"sealed-a2", "whsec_a", 4},
	} {
		v1, v2, err := sg.sign(box, []byte(c.sealed), body, int64(1795338000+i))
		if err != nil {
			t.Fatal(err)
		}
		if v1 != Signature([]byte(c.secret), body) || v2 != SignatureV2([]byte(c.secret), body, int64(1795338000+i)) {
			t.Fatalf("step %d (%s): signed with the wrong secret", i, c.sealed)
		}
		if box.opened != c.opened {
			t.Fatalf("step %d (%s): %d openings, want %d", i, c.sealed, box.opened, c.opened)
		}
	}
	if _, _, err := sg.sign(box, []byte("sealed-x"), body, 1); err == nil {
		t.Fatal("sealed bytes that do not open signed")
	}
	if _, _, err := sg.sign(box, []byte("sealed-x"), body, 1); err == nil || box.opened != 6 {
		t.Fatalf("a failed opening kept (%v, %d openings)", err, box.opened)
	}
}

// A claim takes a target's rows ahead only as far as the lease leaves time
// to attempt and write back the last of them: with the shortest lease the
// configuration allows, none ahead.
func TestClaimAheadFitsTheLease(t *testing.T) {
	for _, c := range []struct {
		lease time.Duration
		want  int
	}{{0, 4 * inFlightPerWorker}, {20 * time.Second, 4}, {35 * time.Second, 4}, {40 * time.Second, 8}, {time.Hour, 4 * inFlightPerWorker}} {
		opt := configured() // a 10-second time-out, 4 attempts in flight per target
		opt.Lease = c.lease
		p, err := New(nil, nil, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := newDispatcher(p).perTarget; got != c.want {
			t.Errorf("lease %v: %d rows of a target claimed, want %d", p.opt.Lease, got, c.want)
		}
	}
}
