package postgres

import (
	"contracts/signflow"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ClientByIDSQL exposes the lookup of a record by id to the plan checks.
const ClientByIDSQL = clientByID

// Pool exposes the store's connections to the checks of the tests.
func Pool(s *Store) *pgxpool.Pool { return s.pool }

// ListSQL exposes the statements of a list to the plan checks: those of
// lookups, or of a walk while SetHitsLimit(0) is in force.
func ListSQL(q signflow.ContractQuery) (count string, countArgs []any, page string, pageArgs []any, ok bool) {
	st, ok := listSQL(q, hitsLimit == 0)
	if !ok {
		return "", nil, "", nil, false
	}
	return st.count, st.countArgs, st.page, st.pageArgs, true
}

// SetHitsLimit changes how many matches a search looks up before it walks
// the owner's rows instead; it returns a function that restores the limit.
func SetHitsLimit(n int) (restore func()) {
	old := hitsLimit
	hitsLimit = n
	return func() { hitsLimit = old }
}

// WithTracer returns opt with a tracer of the statements the store sends.
func WithTracer(opt Options, tr pgx.QueryTracer) Options {
	opt.tracer = tr
	return opt
}

// WithRunners returns opt with at most n write transactions in flight
// before writers share them.
func WithRunners(opt Options, n int) Options {
	opt.runners = n
	return opt
}

// Waiting is the number of writers waiting to share a transaction.
func Waiting(s *Store) int {
	s.group.mu.Lock()
	defer s.group.mu.Unlock()
	return len(s.group.waiting)
}

// MemoHoldsSQL exposes the memo's check to the statement benchmark.
const MemoHoldsSQL = memoHolds

// ContractWithPartiesSQL exposes a contract's read to the plan checks.
const ContractWithPartiesSQL = contractWithParties

// TextsArg and Int64sArg expose the array arguments (args.go) to the
// check that PostgreSQL receives them as the plain slices.
func TextsArg(s []string) any { return texts(s) }
func Int64sArg(s []int64) any { return int64s(s) }

// ConfirmTrustSQL exposes the write's first statement to the plan checks.
const ConfirmTrustSQL = confirmTrust
