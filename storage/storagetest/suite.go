// Package storagetest is the conformance suite of signflow.Store: the
// behaviour every storage engine must show, whatever it keeps underneath.
// Each engine's tests run it (storage for bbolt, storage/postgres for
// PostgreSQL) on fresh stores of their own.
package storagetest

import (
	"testing"

	"contracts/signflow"
)

// Engine opens stores of one engine for the suite.
type Engine struct {
	// Open returns a fresh, empty store, closed when the test ends.
	Open func(tb testing.TB) signflow.Store
	// Peer returns another handle on the database of s, as a second
	// process would hold it; nil for an engine one process uses alone.
	Peer func(tb testing.TB, s signflow.Store) signflow.Store
	// Check, when set, checks the engine's own invariants (its indexes)
	// on a store a test has written.
	Check func(tb testing.TB, s signflow.Store)
	// ListVariants are settings of the engine under which every list must
	// give the same answers; each returns a function that restores the default.
	ListVariants map[string]func() (restore func())
}

// peer is another handle on the database of s, or s itself.
func (e Engine) peer(tb testing.TB, s signflow.Store) signflow.Store {
	if e.Peer == nil {
		return s
	}
	return e.Peer(tb, s)
}

func (e Engine) check(tb testing.TB, s signflow.Store) {
	tb.Helper()
	if e.Check != nil {
		e.Check(tb, s)
	}
}

// variants yields the name of the default and of each list variant, with
// the variant put in force and a function that restores the default.
func (e Engine) variants() func(yield func(string, func()) bool) {
	return func(yield func(string, func()) bool) {
		if !yield("default", func() {}) {
			return
		}
		for name, set := range e.ListVariants {
			if !yield(name, set()) {
				return
			}
		}
	}
}

// Run runs the whole suite.
func Run(t *testing.T, e Engine) {
	tests := []struct {
		name string
		fn   func(*testing.T, Engine)
	}{
		{"ListContractsMatchesBruteForce", testListMatchesBruteForce},
		{"ListContractsSeesChanges", testListSeesChanges},
		{"IndexesFollowChanges", testIndexesFollowChanges},
		{"CountsFollowStatusChanges", testCountsFollowStatusChanges},
		{"SessionExpiryFollowsStatus", testSessionExpiryFollowsStatus},
		{"DeliveryQueueFollowsStatus", testDeliveryQueueFollowsStatus},
		{"CabinetPurgeFollowsWrites", testCabinetPurgeFollowsWrites},
		{"ReadsAreCopies", testReadsAreCopies},
		{"RollbackLeavesNothing", testRollbackLeavesNothing},
		{"ViewRefusesWrites", testViewRefusesWrites},
		{"ReadsOwnWrites", testReadsOwnWrites},
		{"NoLostUpdates", testNoLostUpdates},
		{"ContractSequence", testContractSequence},
		{"KeysNoRecordCanHave", testImpossibleKeys},
		{"Meta", testMeta},
		{"ClaimsFollowLanes", testClaimsFollowLanes},
		{"ClaimsLeaseAndRelease", testClaimsLeaseAndRelease},
		{"ClaimsGiveEachRowOnce", testClaimsGiveEachRowOnce},
		{"ClaimsPerTarget", testClaimsPerTarget},
		{"ClaimsPassABusyTarget", testClaimsPassABusyTarget},
		{"ClaimsRedeliveredRowLeads", testClaimsRedeliveredRowLeads},
		{"PendingInOutboxOrder", testPendingInOutboxOrder},
		{"AdminContractsEveryone", testAdminContractsEveryone},
		{"ContractStats", testContractStats},
		{"AdminLists", testAdminLists},
		{"DeliveriesByStatus", testDeliveriesByStatus},
		{"Stamps", testStamps},
		{"TemplateVersions", testTemplateVersions},
		{"IdempotencyKeys", testRequests},
		{"IdempotencyClaimsRace", testRequestsRace},
		{"Timers", testTimers},
		{"Receipts", testReceipts},
		{"ProviderTxs", testProviderTxs},
		{"Merchants", testMerchants},
		{"WitnessLookups", testWitnessLookups},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, e) })
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
