package signflow

import "errors"

// Shared is implemented by stores that several processes use at once
// (PostgreSQL): what one process changes, the others must see at once,
// and some work must be done by one process at a time.
type Shared interface {
	// CredentialsVersion is a counter that moves on, in the same
	// transaction, with every change of an app or a key. A cache of such
	// records holds what it read at a version, and is right while the
	// version has not moved.
	CredentialsVersion() (uint64, error)
	// Exclusive runs fn unless another process is running a function
	// under the same name, and reports whether it ran.
	Exclusive(name string, fn func() error) (bool, error)
}

// SharedTx is implemented by the transactions of a Shared store.
type SharedTx interface {
	// CredentialsVersion is the credentials version (Shared) in the
	// transaction's snapshot.
	CredentialsVersion() (uint64, error)
}

// Trusting is implemented by a Shared store that can answer a create's
// reads from its caches without a round trip (its template, and the
// credentials version its caller's app was kept at), and have the write
// that rests on them confirm them first, in that write's first round trip.
type Trusting interface {
	// ViewTrusting runs fn as View does, but a read may answer from the
	// store's cache unconfirmed, and CredentialsVersion answer credVer
	// (-1: none) unread; what was so taken is the trust returned.
	ViewTrusting(credVer int64, fn func(Tx) error) (trust any, err error)
	// UpdateTrusted runs fn as Update does once its transaction has
	// confirmed trust, or returns ErrUntrusted without running it.
	UpdateTrusted(trust any, fn func(Tx) error) error
}

// ErrUntrusted says that what a read took from a cache (Trusting) changed
// before the write that rested on it: nothing was written.
var ErrUntrusted = errors.New("signflow: a record taken from a cache has changed")
