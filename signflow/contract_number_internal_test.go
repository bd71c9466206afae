package signflow

import (
	"fmt"
	"math"
	"testing"
)

// contractNumber is fmt.Sprintf("%d-%06d", year, seq), which it replaces
// in the create's batched write.
func TestContractNumberIsSprintf(t *testing.T) {
	for _, year := range []int{0, 1, 999, 2026, 9999, 10000, -1, -2026, math.MaxInt, math.MinInt} {
		for _, seq := range []uint64{0, 1, 9, 10, 12345, 99999, 100000, 999999, 1000000, 1234567, math.MaxUint32, math.MaxUint64} {
			if got, want := contractNumber(year, seq), fmt.Sprintf("%d-%06d", year, seq); got != want {
				t.Errorf("contractNumber(%d, %d) = %q, want %q", year, seq, got, want)
			}
		}
	}
}
