package storage

// SetPairScanLimit changes how many counterparties a search merges, and
// how many matches an administrator's search gathers, before either walks
// the entries instead; it returns a function that restores the old limits.
func SetPairScanLimit(n int) (restore func()) {
	oldScan, oldMerge := pairScanLimit, mergeLimit
	pairScanLimit, mergeLimit = n, n
	return func() { pairScanLimit, mergeLimit = oldScan, oldMerge }
}
