package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"contracts/internal/testtools"
)

// The tests here build the real binary once and drive it as an operator
// would, where a process of its own is the point: its exit codes, the load
// generator that starts it, and kill -9 (crash_test.go).

const testVersion = "v0.0.0-e2e"

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// contractsBinary builds the binary once per test run, as the Dockerfile
// does (go build . at the top of the repository), with the race detector
// when the tests themselves run with it.
func contractsBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "contracts-e2e-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "contracts")
		args := []string{"build", "-o", binPath, "-ldflags", "-X main.version=" + testVersion}
		if raceEnabled() {
			args = append(args, "-race")
		}
		cmd := exec.Command(goTool(), append(args, ".")...)
		cmd.Dir = testtools.RepoPath(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func raceEnabled() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// cleanEnv is the test's environment without CONTRACTS_ variables (and
// without what TestMain set for the in-process runs).
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "CONTRACTS_") && !setByTestMain[name] {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// startBinary starts the binary in dir; the test's clean-up kills it if
// the test did not stop it.
func startBinary(t *testing.T, dir string, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(contractsBinary(t), args...)
	p := &proc{done: make(chan struct{})}
	cmd.Dir, cmd.Env = dir, cleanEnv(env...)
	cmd.Stdout, cmd.Stderr = &p.stdout, &p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.signal = func() {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Error(err)
		}
	}
	p.kill = cmd.Process.Kill
	go func() {
		err := cmd.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			p.exitCode = ee.ExitCode()
		} else if err != nil {
			p.exitCode = -1
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// runBinary runs a short command of the binary and returns its output and
// exit code.
func runBinary(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, contractsBinary(t), args...)
	cmd.Dir, cmd.Env = dir, cleanEnv(env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("contracts %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// TestCommandLine: the binary's version, usage and exit codes, and that
// commands failing on their arguments leave no files behind.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	if out, errOut, code := runBinary(t, dir, nil, "version"); code != 0 || strings.TrimSpace(out) != "contracts "+testVersion {
		t.Fatalf("version printed %q (exit %d, %s)", out, code, errOut)
	}
	if _, errOut, code := runBinary(t, dir, nil); code != 1 || !strings.Contains(errOut, "usage: contracts") {
		t.Fatalf("no command: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runBinary(t, dir, nil, "frobnicate"); code != 1 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runBinary(t, dir, nil, "serve", "--log-level", "loud"); code != 1 || !strings.Contains(errOut, "log.level") {
		t.Fatalf("bad config: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runBinary(t, dir, nil, "backup"); code != 1 || !strings.Contains(errOut, "--out") {
		t.Fatalf("backup without --out: exit %d\n%s", code, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("commands that failed on their arguments left files behind: %v", entries)
	}
}

// TestBenchCommand runs "contracts bench" in a tiny form: every route and
// both baselines are measured, the report has its ratios, memory and
// durability lines, and no request failed. (The real run and its figures
// are in docs/operations.md.)
func TestBenchCommand(t *testing.T) {
	out, errOut, code := runBinary(t, t.TempDir(), nil, "bench", "--clients", "4", "--duration", "150ms", "--warmup", "0", "--max-requests", "300")
	if code != 0 {
		t.Fatalf("contracts bench: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
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

// TestBenchFillAndLatency fills a file with "contracts bench --fill" and
// times every list and search shape on it with "--latency": each shape
// answers, with the totals the fill implies.
func TestBenchFillAndLatency(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data", "contracts.db")
	if err := os.MkdirAll(filepath.Dir(data), 0o700); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runBinary(t, dir, nil, "bench", "--fill", "230", "--fill-workers", "8", "--data", data); code != 0 || !strings.Contains(out, "fill: 230 contracts") {
		t.Fatalf("contracts bench --fill: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	out, errOut, code := runBinary(t, dir, nil, "bench", "--latency", "--data", data, "--duration", "100ms", "--max-requests", "30")
	if code != 0 {
		t.Fatalf("contracts bench --latency: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	for shape, matches := range map[string]int{"size=20 (first page)": 230, "status CREATED": 230, "middle page": 230,
		"status ACTIVE (no match)": 0, "search: contract number": 1, "search: no match": 0, "search: customer's name": 230,
		"search: customer's number": 230, "search: number prefix": 230, "search: customer's name, middle page": 230} {
		re := regexp.MustCompile(`(?m)^ *` + regexp.QuoteMeta(shape) + ` +` + fmt.Sprint(matches) + ` +\d+ +\d+\.\d\d ms +\d+\.\d\d ms`)
		if !re.MatchString(out) {
			t.Fatalf("no line for %q with %d matches in the latency output:\n%s", shape, matches, out)
		}
	}
}
