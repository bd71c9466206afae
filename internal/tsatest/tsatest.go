// Package tsatest is a fake RFC 3161 time-stamp authority over HTTP for
// tests: a real server on a loopback port with its own test CA, that can
// also be down, refuse, or answer nonsense.
package tsatest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/digitorus/timestamp"
)

// Mode is how the authority answers.
type Mode int

// Modes.
const (
	OK           Mode = iota // a valid token
	Down                     // the connection is dropped without an answer
	Unavailable              // HTTP 503
	Garbage                  // HTTP 200 with bytes that are no response
	Refuse                   // a response with status "rejection"
	WrongImprint             // a valid token over other data
	WrongNonce               // a valid token for another request
)

// TSA is the fake authority.
type TSA struct {
	URL  string
	CA   *x509.Certificate // the test CA that issued Cert
	Cert *x509.Certificate // the time-stamping certificate

	key  crypto.Signer
	now  func() time.Time
	mu   sync.Mutex
	mode Mode
	hits int
}

// Policy is the TSA policy the tokens name.
var Policy = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 99999, 1}

// New starts an authority whose tokens carry the time now() gives; it
// stops when the test ends.
func New(tb testing.TB, now func() time.Time) *TSA {
	tb.Helper()
	caKey := mustKey(tb)
	ca := mustCert(tb, &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test TSA Root"},
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}, nil, caKey, caKey)
	key := mustKey(tb)
	// RFC 3161 wants the time-stamping key usage alone and critical.
	eku, err := asn1.Marshal([]asn1.ObjectIdentifier{{1, 3, 6, 1, 5, 5, 7, 3, 8}})
	if err != nil {
		tb.Fatal(err)
	}
	cert := mustCert(tb, &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "Test TSA"},
		KeyUsage:        x509.KeyUsageDigitalSignature,
		ExtraExtensions: []pkix.Extension{{Id: asn1.ObjectIdentifier{2, 5, 29, 37}, Critical: true, Value: eku}}}, ca, key, caKey)
	t := &TSA{CA: ca, Cert: cert, key: key, now: now}
	srv := httptest.NewServer(http.HandlerFunc(t.serve))
	tb.Cleanup(srv.Close)
	t.URL = srv.URL
	return t
}

// SetMode changes how the following requests are answered.
func (t *TSA) SetMode(m Mode) {
	t.mu.Lock()
	t.mode = m
	t.mu.Unlock()
}

// Requests counts the requests served so far.
func (t *TSA) Requests() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hits
}

func (t *TSA) serve(w http.ResponseWriter, r *http.Request) {
	t.mu.Lock()
	mode := t.mode
	t.hits++
	t.mu.Unlock()
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	switch mode {
	case Down:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	case Unavailable:
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	case Garbage:
		w.Write([]byte("<html>not a time-stamp</html>"))
		return
	case Refuse:
		reply, _ := timestamp.CreateErrorResponse(timestamp.Rejection, timestamp.BadAlgorithm)
		t.reply(w, reply)
		return
	}
	req, err := timestamp.ParseRequest(body)
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	ts := timestamp.Timestamp{HashAlgorithm: req.HashAlgorithm, HashedMessage: req.HashedMessage, Time: t.now(),
		Nonce: req.Nonce, Policy: Policy, Certificates: []*x509.Certificate{t.CA}, AddTSACertificate: req.Certificates}
	switch mode {
	case WrongImprint:
		other := sha256.Sum256([]byte("something else"))
		ts.HashedMessage = other[:]
	case WrongNonce:
		ts.Nonce = new(big.Int).Add(req.Nonce, big.NewInt(1))
	}
	reply, err := ts.CreateResponseWithOpts(t.Cert, t.key, crypto.SHA256)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	t.reply(w, reply)
}

func (t *TSA) reply(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/timestamp-reply")
	w.Write(b)
}

func mustKey(tb testing.TB) crypto.Signer {
	tb.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

func mustCert(tb testing.TB, tmpl, parent *x509.Certificate, key, signer crypto.Signer) *x509.Certificate {
	tb.Helper()
	tmpl.NotBefore, tmpl.NotAfter = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)
	if parent == nil {
		parent = tmpl
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), signer)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
