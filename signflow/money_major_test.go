package signflow_test

import (
	"strconv"
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
	// The same text as the float64 rendering it replaced, which is exact
	// within MaxMoney.
	for _, minor := range []int64{-12345, -5, 7, 99, 100, 101, 110, 1999, 123456789, signflow.MaxMoney - 10, signflow.MaxMoney - 99} {
		want := strconv.FormatFloat(float64(minor)/100, 'f', -1, 64)
		if got := string(signflow.MajorNumber(minor)); got != want {
			t.Errorf("MajorNumber(%d) = %s, want %s", minor, got, want)
		}
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = signflow.AppendMajor(buf[:0], 99999999) }); n != 0 {
		t.Errorf("AppendMajor allocates %v times", n)
	}
}
