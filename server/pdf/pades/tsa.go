package pades

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"sync"
	"time"

	"github.com/digitorus/timestamp"
)

// ErrTimestamp marks a failed time-stamp: the authority is down, refuses,
// or answers something that is not a valid token for our signature. The
// caller serves nothing (503): never a seal without its time-stamp.
var ErrTimestamp = errors.New("time-stamp authority")

// maxReply bounds what is read from a time-stamp authority.
const maxReply = 1 << 20

// TSA is an RFC 3161 time-stamp authority reached over HTTP.
type TSA struct {
	URL    string
	Client *http.Client // nil: a client with a 10 s time-out
}

var defaultTSAClient = &http.Client{Timeout: 10 * time.Second}

// tspResponse is TimeStampResp (RFC 3161 §2.4.2).
type tspResponse struct {
	Status struct {
		Status       int
		StatusString []string       `asn1:"optional"`
		FailInfo     asn1.BitString `asn1:"optional"`
	}
	Token asn1.RawValue `asn1:"optional"`
}

// stamp asks for a token over the SHA-256 of data and checks it before
// returning it.
func (t *TSA) stamp(ctx context.Context, data []byte) ([]byte, error) {
	nonce, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 63))
	if err != nil {
		return nil, err
	}
	req, err := timestamp.CreateRequest(bytes.NewReader(data), &timestamp.RequestOptions{Hash: crypto.SHA256, Certificates: true, Nonce: nonce})
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(req))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTimestamp, err)
	}
	hreq.Header.Set("Content-Type", "application/timestamp-query")
	client := t.Client
	if client == nil {
		client = defaultTSAClient
	}
	resp, err := client.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTimestamp, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		return nil, fmt.Errorf("%w: reading the reply: %v", ErrTimestamp, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: HTTP %d", ErrTimestamp, resp.StatusCode)
	}
	if len(body) > maxReply {
		return nil, fmt.Errorf("%w: reply larger than %d bytes", ErrTimestamp, maxReply)
	}
	var r tspResponse
	if rest, err := asn1.Unmarshal(body, &r); err != nil || len(rest) > 0 {
		return nil, fmt.Errorf("%w: the reply is not a time-stamp response", ErrTimestamp)
	}
	if r.Status.Status > 1 { // 0 granted, 1 granted with modifications
		return nil, fmt.Errorf("%w: refused (status %d %q)", ErrTimestamp, r.Status.Status, r.Status.StatusString)
	}
	info, err := verifyToken(r.Token.FullBytes, data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTimestamp, err)
	}
	if info.Nonce == nil || info.Nonce.Cmp(nonce) != 0 {
		return nil, fmt.Errorf("%w: the token answers another request (nonce)", ErrTimestamp)
	}
	return r.Token.FullBytes, nil
}

// Stamps keeps time-stamp tokens so that sealing the same contract
// version again reuses its token and yields the same bytes. The key is the
// SHA-256 of the signature value the token stamps (its message imprint):
// our signatures are deterministic, so one document has one key. A token
// is a few kilobytes, where the sealed PDF would be tens.
type Stamps interface {
	// Stamp returns the token kept under key, or nil when there is none.
	Stamp(ctx context.Context, key []byte) ([]byte, error)
	// SaveStamp keeps token under key.
	SaveStamp(ctx context.Context, key, token []byte) error
}

// MemoryStamps keeps tokens in memory: for tests, and for a service that
// accepts a new token after each restart.
type MemoryStamps struct {
	mu sync.Mutex
	m  map[string][]byte
}

// Stamp returns the token kept under key, or nil.
func (s *MemoryStamps) Stamp(_ context.Context, key []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[string(key)], nil
}

// SaveStamp keeps token under key.
func (s *MemoryStamps) SaveStamp(_ context.Context, key, token []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[string(key)] = bytes.Clone(token)
	return nil
}

// Len is the number of tokens kept.
func (s *MemoryStamps) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

func sha256Sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}
