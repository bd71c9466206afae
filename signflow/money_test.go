package signflow_test

import (
	"encoding/json"
	"testing"

	"contracts/signflow"
)

// The fast path of MinorFromMajor agrees with the exact one.
func TestMinorFromMajorFastPath(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1": 100, "1500": 150000, "1500.5": 150050, "1500.25": 150025,
		"0.01": 1, "00.10": 10, "9999999999999": 999999999999900, "10000000000000": 1000000000000000, "1500.250": 150025} {
		got, err := signflow.MinorFromMajor(json.Number(in), "price")
		if err != nil || got != want {
			t.Errorf("MinorFromMajor(%s) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"1500.255", "-1", "1..2", "1.2.3", "10000000000001", "1e400", "1e2", "abc"} {
		if _, err := signflow.MinorFromMajor(json.Number(bad), "price"); signflow.ErrorCode(err) != signflow.EINVALID {
			t.Errorf("MinorFromMajor(%s) accepted", bad)
		}
	}
}
