package storage

// SetPairScanLimit changes how many search matches are gathered from the
// pair index before a search walks the owner's entries instead; it returns
// a function that restores the old limit.
func SetPairScanLimit(n int) (restore func()) {
	old := pairScanLimit
	pairScanLimit = n
	return func() { pairScanLimit = old }
}
