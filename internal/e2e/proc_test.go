package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/internal/cli"
	"contracts/internal/testtools"
)

// TestMain leaves the test process's GC as it is: the appliance run
// in-process tunes the runtime unless GOGC and GOMEMLIMIT are set.
func TestMain(m *testing.M) {
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		if os.Getenv(name) == "" {
			os.Setenv(name, map[string]string{"GOGC": "100", "GOMEMLIMIT": "off"}[name])
			setByTestMain[name] = true
		}
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// setByTestMain are the variables TestMain set, which the built binary
// must not inherit.
var setByTestMain = map[string]bool{}

// proc is a running contracts command: Run in this process, or the built
// binary (binary_test.go).
type proc struct {
	stdout, stderr testtools.Buffer
	done           chan struct{}
	exitCode       int          // set before done is closed
	signal         func()       // asks it to stop: SIGTERM, or the end of Run's context
	kill           func() error // SIGKILL; nil in-process
}

// run runs "contracts args..." in this process as main would, with dir
// standing for its working directory (the default data directory is
// dir/data) and env as its CONTRACTS_ variables. The test's clean-up
// stops it if the test did not.
func run(t *testing.T, dir string, env []string, args ...string) *proc {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := &proc{done: make(chan struct{}), signal: cancel}
	environ := append([]string{"CONTRACTS_DATA__DIR=" + filepath.Join(dir, "data")}, env...)
	go func() {
		defer close(p.done)
		err := cli.Run(ctx, args, cli.Env{Stdout: &p.stdout, Stderr: &p.stderr, Environ: environ, Version: testVersion})
		if err != nil {
			fmt.Fprintln(&p.stderr, "contracts:", err)
			p.exitCode = 1
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-p.done
	})
	return p
}

// runCommand runs a short command in this process and returns its output
// and exit code.
func runCommand(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	p := run(t, dir, env, args...)
	code = p.wait(t, time.Minute)
	return p.stdout.String(), p.stderr.String(), code
}

// mustRun runs a short command in this process that must succeed.
func mustRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, errOut, code := runCommand(t, dir, nil, args...)
	if code != 0 {
		t.Fatalf("contracts %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// wait waits up to d for the command to end and returns its exit code.
func (p *proc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.exitCode
	case <-time.After(d):
		t.Fatalf("contracts still running after %v\nstderr:\n%s", d, p.stderr.String())
		return 0
	}
}

// stop asks the appliance to stop as SIGTERM does: it must drain, log
// "stopped" and end without error within a few seconds.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	start := time.Now()
	p.signal()
	if code := p.wait(t, 10*time.Second); code != 0 {
		t.Fatalf("exit code %d after SIGTERM\nstderr:\n%s", code, p.stderr.String())
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("stopping took %v", took)
	}
	if len(logLines(p.stderr.String(), "stopped")) != 1 {
		t.Fatalf("no \"stopped\" log line\nstderr:\n%s", p.stderr.String())
	}
}

// logLines decodes the JSON log lines whose message is msg.
func logLines(out, msg string) []map[string]any {
	var lines []map[string]any
	for _, line := range strings.Split(out, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["message"] == msg {
			lines = append(lines, m)
		}
	}
	return lines
}

// listening waits for the three "listening" log lines and returns the
// bound address of each listener.
func (p *proc) listening(t *testing.T) map[string]string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		addrs := map[string]string{}
		for _, l := range logLines(p.stderr.String(), "listening") {
			name, _ := l["listener"].(string)
			addrs[name], _ = l["addr"].(string)
		}
		if len(addrs) == 3 && addrs["embedded"] != "" && addrs["key"] != "" && addrs["admin"] != "" {
			return addrs
		}
		select {
		case <-p.done:
			t.Fatalf("contracts exited (%d) before listening\nstderr:\n%s", p.exitCode, p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no listening lines after 30s\nstderr:\n%s", p.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitStdout waits for text on the command's standard output and returns
// all of it.
func (p *proc) waitStdout(t *testing.T, text string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.stdout.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q on stdout:\n%s", text, p.stdout.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return p.stdout.String()
}
