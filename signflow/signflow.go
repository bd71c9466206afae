// Package signflow is the domain of the contracts appliance: its types, their
// validation, the contract state machine and the small interfaces it needs from
// the outside (a transactional store, an SMS sender, a clock). It imports none
// of the project's other packages.
package signflow

import (
	"crypto/rand"
	"encoding/base64"
	"time"
)

// Scopes granted to apps and keys.
const (
	ScopeClientsWrite   = "CLIENTS_WRITE"
	ScopeClientsRead    = "CLIENTS_READ"
	ScopeTemplatesRead  = "TEMPLATES_READ"
	ScopeContractsWrite = "CONTRACTS_WRITE"
	ScopeContractsRead  = "CONTRACTS_READ"
	ScopeContractsSign  = "CONTRACTS_SIGN"
)

// AppScopes and KeyScopes are the scopes each kind of credential may hold.
var (
	AppScopes = []string{ScopeClientsWrite, ScopeClientsRead, ScopeTemplatesRead, ScopeContractsWrite, ScopeContractsRead, ScopeContractsSign}
	KeyScopes = []string{ScopeTemplatesRead, ScopeContractsRead, ScopeContractsWrite, ScopeClientsRead}
)

// Currencies the service knows.
var Currencies = []string{"UZS", "USD", "RUB"}

// NewID returns a random (version 4) UUID as uuid.NewString writes it, in
// one allocation instead of two (a create takes two or three).
func NewID() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	return uuidText(&u)
}

// uuidText is uuid.UUID.String's form: lower-case hex, dashes after the
// 4th, 6th, 8th and 10th bytes.
func uuidText(u *[16]byte) string {
	var b [36]byte
	j := 0
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b[j] = '-'
			j++
		}
		b[j], b[j+1] = hexDigits[c>>4], hexDigits[c&0xF]
		j += 2
	}
	return string(b[:])
}

// RandomToken returns n random bytes as unpadded base64url text.
func RandomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// UTC truncates t to whole seconds in UTC, the precision of the wire format.
func UTC(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }
