// Package signflow is the domain of the contracts appliance: its types, their
// validation, the contract state machine and the small interfaces it needs from
// the outside (a transactional store, an SMS sender, a clock). It imports none
// of the project's other packages.
package signflow

import (
	"crypto/rand"
	"encoding/base64"
	"time"

	"github.com/google/uuid"
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

// NewID returns a random UUID string.
func NewID() string { return uuid.NewString() }

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
