package signflow_test

import (
	"strings"
	"testing"

	"contracts/signflow"
)

// Keys claimed, replayed, released and purged through both interfaces are
// checked by server/idempotency_env_test.go (TestIdempotencyKeyReplays and
// the tests after it) and storage/storagetest (IdempotencyKeys,
// IdempotencyClaimsRace); here, which keys idempotency.go takes.
func TestIdempotencyKeyShape(t *testing.T) {
	for _, ok := range []string{"a", "order-42/retry 1", strings.Repeat("k", signflow.MaxIdempotencyKey), " ~"} {
		if err := signflow.CheckIdempotencyKey(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", strings.Repeat("k", signflow.MaxIdempotencyKey+1), "tab\there", "new\nline", "del\x7f", "é"} {
		if err := signflow.CheckIdempotencyKey(bad); signflow.ErrorCode(err) != signflow.EINVALID ||
			!strings.HasPrefix(signflow.ErrorMessage(err), "Idempotency-Key: ") {
			t.Errorf("%q: %v, want EINVALID naming Idempotency-Key", bad, err)
		}
	}
}
