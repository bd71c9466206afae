package e2e

import (
	"regexp"
	"strings"
	"testing"

	"contracts/storage/postgres/pgtest"
)

// TestBenchTable runs "contracts bench --table" in a tiny form with this
// process's client: every row of the performance table, the PostgreSQL ones
// on the test cluster, is measured against its baseline without a failed
// request, and the shared kit's command of each row is printed.
func TestBenchTable(t *testing.T) {
	pg := pgtest.ClusterURL(t)
	var out string
	// three runs, each within runBinary's minute under the race detector
	for _, rows := range []string{"read,reads,mixed", "webhook,create", "pgcreate,pgreads"} {
		o, errOut, code := runBinary(t, t.TempDir(), nil, "bench", "--table", "--rows", rows, "--no-wrk", "--clients", "4",
			"--duration", "100ms", "--warmup", "0", "--max-requests", "200", "--contracts", "60", "--postgres", pg)
		if code != 0 {
			t.Fatalf("contracts bench --table --rows %s: exit %d\nstdout: %s\nstderr: %s", rows, code, o, errOut)
		}
		out += o
	}
	for _, work := range []string{"one hot contract, read again and again", "random reads among 60 contracts", "9 random reads : 1 create",
		"creates, a webhook target answering 204", "plain creates", "PostgreSQL, one node: creates", "PostgreSQL, one node: random reads among 60"} {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(work) + ` +\d+ +\d+ +\d+\.\d\d +≥ 0\.\d\d +\S+ +\S+$`)
		if !re.MatchString(out) {
			t.Fatalf("no measured row %q in the output:\n%s", work, out)
		}
	}
	for _, kit := range []string{".ci/ratio-bench read ", ".ci/ratio-bench reads", ".ci/ratio-bench mixed", ".ci/ratio-bench webhook",
		".ci/ratio-bench write", "RATIO_PG=URL .ci/ratio-bench pgwrite", "RATIO_PG=URL .ci/ratio-bench pgread"} {
		if !strings.Contains(out, kit) {
			t.Fatalf("no kit command %q in the output:\n%s", kit, out)
		}
	}
	if m := regexp.MustCompile(`webhook target: (\d+) deliveries received`).FindStringSubmatch(out); m == nil || m[1] == "0" {
		t.Fatalf("the webhook row's target received no delivery:\n%s", out)
	}
	if strings.Contains(out, "failed requests") || strings.Contains(out, "not measured") {
		t.Fatalf("a row failed or was skipped:\n%s", out)
	}
}
