package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestBenchCommand runs "contracts bench" in a tiny form: every route and
// both baselines are measured, the report has its ratios, memory and
// durability lines, and no request failed. (The real run and its figures
// are in docs/operations.md.)
func TestBenchCommand(t *testing.T) {
	out := mustRun(t, t.TempDir(), "bench", "--clients", "4", "--duration", "150ms", "--warmup", "0", "--max-requests", "300")
	for _, want := range []string{"POST /v1/auth/token", "POST /v1/clients", "POST /v1/contracts ", "GET /v1/contracts/{id} ",
		"GET /v1/contracts/{id}/pdf", "GET /v1/contracts?size=20 (key)", "POST /v1/contracts/{id}/sign-sessions",
		"baseline: bare echo GET /ping", "baseline: raw bbolt Batch put"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in the bench output:\n%s", want, out)
		}
	}
	for _, re := range []string{`ratio GET /v1/contracts/\{id\} vs bare echo: +\d+\.\d%`, `ratio POST /v1/contracts vs raw bbolt Batch: +\d+\.\d%`,
		`server memory: VmHWM \d+\.\d MiB`, `durability: (\d+) contracts acknowledged, \d+ in the file after a clean stop, 0 acknowledged but missing`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Fatalf("no line matching %s in the bench output:\n%s", re, out)
		}
	}
	if strings.Contains(out, "failed requests") || strings.Contains(out, "answers 5xx") {
		t.Fatalf("requests failed under the bench:\n%s", out)
	}
}
