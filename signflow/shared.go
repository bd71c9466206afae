package signflow

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
