// Package eimzotest is a fake E-IMZO-SERVER over real HTTP, for tests of
// E_IMZO signing. It answers /frontend/timestamp/pkcs7 and
// /backend/pkcs7/verify/attached in the shapes of the real server's
// integration guide, for test signatures made by Sign: a real PKCS#7
// ContentInfo header (signedData OID, indefinite lengths, as E-IMZO writes
// it) around a test payload that says who signed what.
package eimzotest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Key is a test signing key: whose certificate it is and how the fake
// server will judge that certificate.
type Key struct {
	TIN       string // 1.2.860.3.16.1.1, for a legal entity's certificate
	PINFL     string // 1.2.860.3.16.1.2
	CN        string
	Revoked   bool
	Expired   bool // not valid at signing time
	Untrusted bool // chain not verified
}

type payload struct {
	Content                     []byte
	TIN, PINFL, CN              string `asn1:"utf8"`
	Revoked, Expired, Untrusted bool
	Stamped                     bool
	Sig                         []byte
}

var (
	header        = []byte{0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02, 0xa0, 0x80}
	trailer       = []byte{0, 0, 0, 0}
	signingSecret = []byte("eimzotest signing key")
)

func (p *payload) mac() []byte {
	m := hmac.New(sha256.New, signingSecret)
	m.Write(p.Content)
	m.Write([]byte{0})
	m.Write([]byte(p.TIN + "\x00" + p.PINFL + "\x00" + p.CN))
	return m.Sum(nil)
}

func (p *payload) encode() string {
	der, err := asn1.Marshal(*p)
	if err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(append(append(append([]byte{}, header...), der...), trailer...))
}

func decode(p7 string) (*payload, bool) {
	raw, err := base64.StdEncoding.DecodeString(p7)
	if err != nil || !bytes.HasPrefix(raw, header) || !bytes.HasSuffix(raw, trailer) {
		return nil, false
	}
	var p payload
	rest, err := asn1.Unmarshal(raw[len(header):len(raw)-len(trailer)], &p)
	return &p, err == nil && len(rest) == 0
}

// Sign makes the attached test PKCS#7 (base64) of content with the key.
func Sign(content string, k Key) string {
	p := payload{Content: []byte(content), TIN: k.TIN, PINFL: k.PINFL, CN: k.CN, Revoked: k.Revoked, Expired: k.Expired, Untrusted: k.Untrusted}
	p.Sig = p.mac()
	return p.encode()
}

// Tamper returns the signature with a broken signature value.
func Tamper(p7 string) string {
	p, ok := decode(p7)
	if !ok {
		panic("eimzotest: Tamper of a foreign signature")
	}
	p.Sig[0] ^= 0xff
	return p.encode()
}

// Request is one call the server received.
type Request struct{ Path, Host, RealIP, ForwardedHost, RealHost, ContentType, Body string }

// Server is a running fake E-IMZO-SERVER.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	status   int
	delay    time.Duration
	answer   map[string]any // the verify method's answer, when set
	requests []Request
}

// New starts a server; it stops with the test.
func New(tb testing.TB) *Server {
	s := &Server{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /frontend/timestamp/pkcs7", s.handle(s.timestamp))
	mux.HandleFunc("POST /backend/pkcs7/verify/attached", s.handle(s.verify))
	s.Server = httptest.NewServer(mux)
	tb.Cleanup(s.Close)
	return s
}

// Fail makes every method answer the HTTP status (0: answer normally).
func (s *Server) Fail(status int) { s.mu.Lock(); s.status = status; s.mu.Unlock() }

// Answer makes the verify method answer {"status": status, "message":
// message}, as E-IMZO-SERVER does when it judges a signature invalid
// (−10…−12) or cannot check it (−1, −20…−23); 0 answers normally again.
func (s *Server) Answer(status int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answer = nil
	if status != 0 {
		s.answer = map[string]any{"status": status, "message": message}
	}
}

// Slow holds every answer back by d.
func (s *Server) Slow(d time.Duration) { s.mu.Lock(); s.delay = d; s.mu.Unlock() }

// Requests returns the calls received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) handle(fn func(p7 string) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, Request{Path: r.URL.Path, Host: r.Host, RealIP: r.Header.Get("X-Real-IP"),
			ForwardedHost: r.Header.Get("X-Forwarded-Host"), RealHost: r.Header.Get("X-Real-Host"),
			ContentType: r.Header.Get("Content-Type"), Body: string(body)})
		status, delay, answer := s.status, s.delay, s.answer
		s.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		if status != 0 {
			http.Error(w, "java.lang.RuntimeException: VPN connection lost", status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if answer != nil && r.URL.Path == "/backend/pkcs7/verify/attached" {
			json.NewEncoder(w).Encode(answer)
			return
		}
		json.NewEncoder(w).Encode(fn(string(body)))
	}
}

func (s *Server) timestamp(p7 string) any {
	p, ok := decode(p7)
	if !ok {
		return map[string]any{"status": -10, "message": "Invalid PKCS#7 document"}
	}
	stamped := []any{}
	if !p.Stamped {
		p.Stamped = true
		stamped = append(stamped, subjectCertificate(p))
	}
	return map[string]any{"pkcs7b64": p.encode(), "timestampedSignerList": stamped, "status": 1, "message": ""}
}

func (s *Server) verify(p7 string) any {
	p, ok := decode(p7)
	if !ok {
		return map[string]any{"status": -10, "message": "Invalid PKCS#7 document"}
	}
	signer := map[string]any{
		"signerId":                      map[string]any{"issuer": "CN=TestCA,O=test.e-imzo.uz", "subjectSerialNumber": "218711a92"},
		"signingTime":                   "2026-11-22 14:00:00",
		"signature":                     base64.StdEncoding.EncodeToString(p.Sig),
		"certificate":                   []any{subjectCertificate(p), caCertificate()},
		"OCSPResponse":                  "MIIGdTCBr6",
		"verified":                      hmac.Equal(p.Sig, p.mac()),
		"certificateVerified":           !p.Untrusted,
		"certificateValidAtSigningTime": !p.Expired,
		"policyIdentifiers":             []string{"1.3.6.1.4.1.46709.1.2.1"},
	}
	if p.Revoked {
		signer["revokedStatusInfo"] = map[string]any{"revocationDate": "2026-01-01 00:00:00", "reason": "KEY_COMPROMISE"}
	}
	if p.Stamped {
		signer["timeStampInfo"] = map[string]any{"verified": true, "digestVerified": true, "certificateVerified": true,
			"time": "2026-11-22 14:00:05", "tsa": "6: http://test.e-imzo.uz/cams/tst"}
	}
	return map[string]any{"pkcs7Info": map[string]any{"signers": []any{signer},
		"documentBase64": base64.StdEncoding.EncodeToString(p.Content)}, "status": 1, "message": ""}
}

func subjectCertificate(p *payload) map[string]any {
	subject := map[string]any{"CN": p.CN}
	if p.TIN != "" {
		subject["1.2.860.3.16.1.1"] = p.TIN
		subject["O"] = p.CN
	}
	if p.PINFL != "" {
		subject["1.2.860.3.16.1.2"] = p.PINFL
	}
	return map[string]any{"subjectInfo": subject, "issuerInfo": map[string]any{"CN": "TestCA", "O": "test.e-imzo.uz"},
		"serialNumber": "218711a92", "subjectName": "CN=" + p.CN, "issuerName": "CN=TestCA,O=test.e-imzo.uz",
		"validFrom": "2026-01-01 00:00:00", "validTo": "2028-01-01 00:00:00"}
}

func caCertificate() map[string]any {
	return map[string]any{"subjectInfo": map[string]any{"CN": "TestCA", "O": "test.e-imzo.uz"}, "issuerInfo": map[string]any{"CN": "TestRoot"},
		"serialNumber": "648484238a3380a7", "subjectName": "CN=TestCA,O=test.e-imzo.uz", "issuerName": "CN=TestRoot",
		"validFrom": "2022-09-15 12:19:13", "validTo": "2027-09-15 12:19:13"}
}
