package signflow_test

import (
	"testing"
	"time"

	"contracts/signflow"
)

// The admin's reads and acts are checked through the admin API by
// server/admin's tests and on both engines by storage/storagetest
// (ContractStats, AdminContractsEveryone, AdminLists); here, admin.go's
// rule that the per-day counts key a day in UTC.
func TestStatsDayIsUTC(t *testing.T) {
	for at, want := range map[time.Time]string{
		time.Date(2026, 12, 31, 23, 30, 0, 0, time.FixedZone("x", -3600)): "2027-01-01",
		time.Date(2027, 1, 1, 4, 59, 0, 0, time.FixedZone("UZT", 5*3600)): "2026-12-31",
		time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC):                     "2026-11-22",
	} {
		if got := signflow.Day(at); got != want {
			t.Errorf("Day(%v) = %s, want %s", at, got, want)
		}
	}
}
