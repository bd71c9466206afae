package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// Minor units print as one major-unit number, whether as a json.Number or
// appended to JSON written by hand, and appending allocates nothing.
func TestMajorNumberAndAppendMajorAgree(t *testing.T) {
	for minor, want := range map[int64]string{0: "0", 1: "0.01", 10: "0.1", 12345: "123.45", 150000: "1500",
		signflow.MaxMoney: "10000000000000", signflow.MaxMoney - 1: "9999999999999.99"} {
		if got := string(signflow.MajorNumber(minor)); got != want {
			t.Errorf("MajorNumber(%d) = %s, want %s", minor, got, want)
		}
		if got := string(signflow.AppendMajor([]byte(`"x":`), minor)); got != `"x":`+want {
			t.Errorf("AppendMajor(%d) = %s, want %s", minor, got, `"x":`+want)
		}
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = signflow.AppendMajor(buf[:0], 99999999) }); n != 0 {
		t.Errorf("AppendMajor allocates %v times", n)
	}
}
