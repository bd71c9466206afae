package signflow

import (
	"context"
	"time"
)

// IdempotentRequest is a request sent with an Idempotency-Key: claimed by
// the first of its kind, then holding that first answer for a while.
type IdempotentRequest struct {
	// Caller is whose key it is (an app, an API key): two callers' keys
	// never meet.
	Caller string `json:"caller"`
	Key    string `json:"key"`
	// Fingerprint is a digest of the request's method, path and body.
	Fingerprint []byte `json:"fingerprint"`
	// Done is set once the answer is kept; until then the request runs.
	Done   bool              `json:"done,omitempty"`
	Status int               `json:"status,omitempty"`
	Header map[string]string `json:"header,omitempty"`
	// Body is the answer's body; in the store it is encrypted (Encrypted)
	// when the service has a Box, for an answer may carry a secret (a
	// session's link). The stored name stays "sealed".
	Body      []byte `json:"body,omitempty"`
	Encrypted bool   `json:"sealed,omitempty"`
	// ExpiresAt is when the record is forgotten: the end of the answer's
	// keeping, or of a running request's claim (a process that died while
	// running it frees the key then).
	ExpiresAt time.Time `json:"expiresAt"`
}

// Requests is implemented by stores that keep idempotency keys; both
// engines do. Every method is one transaction of its own.
type Requests interface {
	// ClaimRequest stores r unless a record for its caller and key that
	// has not expired at now is there, which it returns instead (nil when
	// r was claimed).
	ClaimRequest(ctx context.Context, r *IdempotentRequest, now time.Time) (*IdempotentRequest, error)
	// FinishRequest replaces the record of r's caller and key with r.
	FinishRequest(ctx context.Context, r *IdempotentRequest) error
	// ReleaseRequest deletes the record of the caller's key.
	ReleaseRequest(ctx context.Context, caller, key string) error
	// PurgeRequests deletes up to limit records expired before the time,
	// and says how many.
	PurgeRequests(ctx context.Context, before time.Time, limit int) (int, error)
}

const (
	// IdempotencyKeep is how long a first answer is replayed.
	IdempotencyKeep = 24 * time.Hour
	// IdempotencyClaim bounds how long a running request holds its key
	// against repeats; longer than any request may run.
	IdempotencyClaim = 5 * time.Minute
	// MaxIdempotencyKey is the longest key taken.
	MaxIdempotencyKey = 255
)

// CheckIdempotencyKey refuses a key that is empty, longer than
// MaxIdempotencyKey or not printable ASCII.
func CheckIdempotencyKey(key string) error {
	if key == "" || len(key) > MaxIdempotencyKey {
		return Errorf(EINVALID, "Idempotency-Key: 1 to %d characters", MaxIdempotencyKey)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return Errorf(EINVALID, "Idempotency-Key: printable ASCII characters only")
		}
	}
	return nil
}

// ClaimRequest claims r's caller and key for a request now running, or
// returns the record already there. A store that keeps no keys refuses.
func (s *Service) ClaimRequest(ctx context.Context, r *IdempotentRequest) (*IdempotentRequest, error) {
	st, ok := s.store.(Requests)
	if !ok {
		return nil, Errorf(EUNAVAILABLE, "This store keeps no idempotency keys.")
	}
	now := s.opt.Now()
	r.Done, r.ExpiresAt = false, now.Add(IdempotencyClaim)
	held, err := st.ClaimRequest(ctx, r, now)
	if err != nil || held == nil || !held.Encrypted {
		return held, err
	}
	if s.opt.Box == nil {
		return nil, Errorf(EINTERNAL, "a kept answer is encrypted and the service has no key to open it")
	}
	if held.Body, err = s.opt.Box.Decrypt(held.Body); err != nil {
		return nil, err
	}
	held.Encrypted = false
	return held, nil
}

// FinishRequest keeps r's answer for IdempotencyKeep, its body encrypted.
func (s *Service) FinishRequest(ctx context.Context, r *IdempotentRequest) error {
	kept := *r
	kept.Done, kept.ExpiresAt = true, s.opt.Now().Add(IdempotencyKeep)
	if s.opt.Box != nil {
		enc, err := s.opt.Box.Encrypt(r.Body)
		if err != nil {
			return err
		}
		kept.Body, kept.Encrypted = enc, true
	}
	return s.store.(Requests).FinishRequest(ctx, &kept)
}

// ReleaseRequest frees the caller's key, for an answer not to be kept.
func (s *Service) ReleaseRequest(ctx context.Context, caller, key string) error {
	return s.store.(Requests).ReleaseRequest(ctx, caller, key)
}

// PurgeRequests deletes the expired idempotency records, in batches.
func (s *Service) PurgeRequests() (int, error) {
	st, ok := s.store.(Requests)
	if !ok {
		return 0, nil
	}
	total := 0
	for {
		n, err := st.PurgeRequests(context.Background(), s.opt.Now(), sweepBatch)
		total += n
		if err != nil || n < sweepBatch {
			return total, err
		}
	}
}
