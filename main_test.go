package main

import (
	"bytes"
	"context"
	"contracts/internal/appliance"
	"contracts/internal/config"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage"
)

// The whole-process tests build the real binary once and drive it as an
// operator would: flags and environment, signals, the CLI, files on disk.

const testVersion = "v0.0.0-e2e"

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// contractsBinary builds the binary once per test run, with the race
// detector when the tests themselves run with it.
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
		out, err := exec.Command(goTool(), append(args, ".")...).CombinedOutput()
		if err != nil {
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

// cleanEnv is the test's environment without CONTRACTS_ variables.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONTRACTS_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// syncBuffer is an output buffer written by the process's copy goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// proc is a running contracts process.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr syncBuffer
	done           chan struct{}
	exitCode       int
}

// startContracts starts the binary in dir; the test's clean-up kills it
// if the test did not stop it.
func startContracts(t *testing.T, dir string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(contractsBinary(t), args...), done: make(chan struct{})}
	p.cmd.Dir, p.cmd.Env = dir, cleanEnv(env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := p.cmd.Wait()
		p.exitCode = 0
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
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits up to d for the process to exit and returns its exit code.
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

// stop sends SIGTERM: the appliance must drain, log "stopped" and exit 0
// within a few seconds.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
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

// waitStdout waits for text on the process's standard output and returns
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

// runContracts runs a short command and returns its output and exit code.
func runContracts(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
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

// mustRun runs a command that must succeed.
func mustRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, errOut, code := runContracts(t, dir, nil, args...)
	if code != 0 {
		t.Fatalf("contracts %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// field returns the value of a "name: value" line.
func field(t *testing.T, out, name string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, name+": "); ok && v != "" {
			return v
		}
	}
	t.Fatalf("no %q line in:\n%s", name, out)
	return ""
}

// httpCall makes one request and returns the status and body.
func httpCall(t *testing.T, method, url, token, ctype, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// secretFile reads a generated secret and checks that only its owner can.
func secretFile(t *testing.T, path string) string {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("%s has mode %v, want 0600", path, st.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if s := strings.TrimSpace(string(data)); len(s) >= 32 {
		return s
	}
	t.Fatalf("%s holds no secret", path)
	return ""
}

func TestServeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	env := []string{"CONTRACTS_ADMIN__LISTEN=127.0.0.1:0", "CONTRACTS_DATA__DIR=" + data}
	p := startContracts(t, dir, env, "serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0")
	addrs := p.listening(t)
	admin := "http://" + addrs["admin"]
	token := secretFile(t, filepath.Join(data, "admin.token"))
	secretFile(t, filepath.Join(data, "master.key"))

	// Health, readiness and metrics on the admin listener.
	if status, body := httpCall(t, "GET", admin+"/healthz", "", "", ""); status != 200 || !strings.Contains(body, `"ok"`) {
		t.Fatalf("/healthz: %d %s", status, body)
	}
	// Without --demo on the console SMS provider: a loud warning at start
	// and in /readyz, which stays 200.
	warned := false
	for _, l := range logLines(p.stderr.String(), consoleSMSWarning(t)) {
		warned = warned || l["level"] == "warn"
	}
	if !warned {
		t.Fatalf("no WARN line saying codes go to the log:\n%s", p.stderr.String())
	}
	var ready struct {
		Status   string
		Warnings []string
	}
	status, body := httpCall(t, "GET", admin+"/readyz", "", "", "")
	if json.Unmarshal([]byte(body), &ready); status != 200 || ready.Status != "ready" || len(ready.Warnings) != 1 ||
		!strings.Contains(ready.Warnings[0], "printed to this log") || !strings.Contains(ready.Warnings[0], "sms.provider: http") {
		t.Fatalf("/readyz: %d %s", status, body)
	}
	status, metrics := httpCall(t, "GET", admin+"/metrics", "", "", "")
	if status != 200 || !strings.Contains(metrics, "go_goroutines") || !strings.Contains(metrics, "contracts_http_requests_total") {
		t.Fatalf("/metrics: %d\n%s", status, metrics)
	}
	if status, _ := httpCall(t, "GET", admin+"/demo", "", "", ""); status != 404 {
		t.Fatalf("/demo without --demo: %d, want 404", status)
	}
	// The public listeners answer in the spec's error body; only the key
	// interface's carries path and description.
	for l, withPath := range map[string]bool{"embedded": false, "key": true} {
		status, body := httpCall(t, "GET", "http://"+addrs[l]+"/no/such/route", "", "", "")
		if status != 404 || !strings.Contains(body, `"code":404`) || strings.Contains(body, `"path":"/no/such/route"`) != withPath {
			t.Fatalf("%s listener: %d %s", l, status, body)
		}
	}

	// Provisioning through the admin API.
	if status, body := httpCall(t, "POST", admin+"/admin/v1/owners", "", "application/json", `{}`); status != 401 {
		t.Fatalf("admin API without a token: %d %s", status, body)
	}
	if status, body := httpCall(t, "POST", admin+"/admin/v1/owners", token, "application/json",
		`{"in": "301234567", "type": "COMPANY", "legalName": "Alpha Savdo MChJ"}`); status != 200 {
		t.Fatalf("owner: %d %s", status, body)
	}
	tplYAML, err := os.ReadFile(filepath.Join("assets", "demo", "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var tpl struct{ ID string }
	status, body = httpCall(t, "POST", admin+"/admin/v1/templates", token, "application/yaml", string(tplYAML))
	if json.Unmarshal([]byte(body), &tpl); status != 200 || tpl.ID == "" {
		t.Fatalf("template: %d %s", status, body)
	}
	var app struct{ AppID, AppSecret string }
	status, body = httpCall(t, "POST", admin+"/admin/v1/apps", token, "application/json",
		`{"name": "API shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ", "CONTRACTS_WRITE"], "allTemplates": true}`)
	if json.Unmarshal([]byte(body), &app); status != 200 || app.AppID == "" || app.AppSecret == "" {
		t.Fatalf("app: %d %s", status, body)
	}

	// Provisioning through the CLI: with --url and --token, with the
	// token found in the data directory, and with the address from config.
	out := mustRun(t, dir, "admin", "--url", admin, "--token", token, "owner", "create", "--in", "309876543",
		"--type", "COMPANY", "--legal-name", "Beta Trade LLC")
	if field(t, out, "in") != "309876543" || field(t, out, "legalName") != "Beta Trade LLC" {
		t.Fatalf("owner create printed:\n%s", out)
	}
	tplPath, _ := filepath.Abs(filepath.Join("assets", "demo", "template.yaml"))
	cliTemplate := field(t, mustRun(t, dir, "admin", "--url", admin, "--data-dir", data, "template", "create", "--file", tplPath), "id")
	out = mustRun(t, dir, "admin", "--url", admin, "--data-dir", data, "app", "create", "--name", "CLI shop",
		"--owner", "309876543", "--scopes", "CONTRACTS_READ,CONTRACTS_WRITE", "--templates", cliTemplate,
		"--webhook-url", "https://shop.example/hook", "--webhook-events", "CONTRACT_CREATED")
	cliApp, cliSecret := field(t, out, "appId"), field(t, out, "appSecret")
	if !strings.HasPrefix(field(t, out, "webhookSecret"), "whsec_") {
		t.Fatalf("app create printed:\n%s", out)
	}
	newSecret := field(t, mustRun(t, dir, "admin", "--admin-listen", addrs["admin"], "--data-dir", data, "app", "rotate-secret", cliApp), "appSecret")
	if newSecret == cliSecret {
		t.Fatal("rotate-secret printed the old secret")
	}
	var key struct{ ID, Key string }
	out = mustRun(t, dir, "admin", "--url", admin, "--token", token, "--json", "key", "create", "--name", "ERP",
		"--owner", "309876543", "--scopes", "CONTRACTS_READ", "--all-templates")
	if json.Unmarshal([]byte(out), &key); key.ID == "" || !strings.HasPrefix(key.Key, "ck_") {
		t.Fatalf("key create --json printed:\n%s", out)
	}
	if out := mustRun(t, dir, "admin", "--url", admin, "--token", token, "delivery", "list"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("delivery list: %s", out)
	}
	if _, errOut, code := runContracts(t, dir, nil, "admin", "--url", admin, "--token", "wrong", "app", "cancel", cliApp); code == 0 || !strings.Contains(errOut, "401") {
		t.Fatalf("admin with a wrong token: exit %d, %s", code, errOut)
	}

	// An online backup.
	backup := filepath.Join(dir, "backup.db")
	if out := mustRun(t, dir, "backup", "--out", backup, "--url", admin, "--token", token); !strings.Contains(out, "backup: wrote") {
		t.Fatalf("backup printed: %s", out)
	}

	// A second appliance on the same data refuses to start.
	_, errOut, code := runContracts(t, dir, env, "serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errOut, "another process is using") {
		t.Fatalf("second start on the same data: exit %d\n%s", code, errOut)
	}

	p.stop(t)

	// Everything acknowledged is in the database, and in the backup.
	db, err := storage.Open(filepath.Join(data, "contracts.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	assertProvisioned(t, db, []string{app.AppID, cliApp}, []string{tpl.ID, cliTemplate}, []string{"301234567", "309876543"})
	svc := signflow.NewService(db, signflow.Options{})
	if _, err := svc.IssueToken(cliApp, newSecret); err != nil {
		t.Fatalf("the rotated secret printed by the CLI does not work: %v", err)
	}
	if _, err := svc.AuthenticateKey(key.Key); err != nil {
		t.Fatalf("the key printed by the CLI does not work: %v", err)
	}
	b, err := storage.Open(backup, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	defer b.Close()
	assertProvisioned(t, b, []string{app.AppID, cliApp}, []string{tpl.ID, cliTemplate}, []string{"301234567", "309876543"})
}

// assertProvisioned checks that the store holds the apps, templates and owners.
func assertProvisioned(t *testing.T, db *storage.DB, apps, templates, clients []string) {
	t.Helper()
	err := db.View(func(tx signflow.Tx) error {
		for _, id := range apps {
			if _, err := tx.App(id); err != nil {
				return fmt.Errorf("app %s: %w", id, err)
			}
		}
		for _, id := range templates {
			if _, err := tx.Template(id); err != nil {
				return fmt.Errorf("template %s: %w", id, err)
			}
		}
		for _, in := range clients {
			if _, err := tx.Owner(in); err != nil {
				return fmt.Errorf("owner %s: %w", in, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(db.Path()), err)
	}
}

func TestServeRefusesBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := ln.Addr().String()
	dir := t.TempDir()
	_, errOut, code := runContracts(t, dir, nil, "serve", "--data-dir", filepath.Join(dir, "data"),
		"--embedded-listen", "127.0.0.1:0", "--key-listen", busy, "--admin-listen", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errOut, "key listener: cannot listen on "+busy) {
		t.Fatalf("start on a busy port: exit %d\n%s", code, errOut)
	}
	// The failed start released the database.
	db, err := storage.Open(filepath.Join(dir, "data", "contracts.db"), storage.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("database still held after a failed start: %v", err)
	}
	db.Close()
}

// consoleSMSWarning is the start-up warning of the console SMS provider.
func consoleSMSWarning(t *testing.T) string {
	t.Helper()
	w := appliance.StartupWarnings(&config.Config{SMS: config.SMSConfig{Provider: "console"}}, false)
	if len(w) != 1 {
		t.Fatalf("start-up warnings of the console provider: %q", w)
	}
	return w[0]
}

func TestServeDemoOnceAndRestore(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	args := []string{"serve", "--demo", "--data-dir", data, "--embedded-listen", "127.0.0.1:0",
		"--key-listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0"}
	env := []string{"CONTRACTS_ADMIN__ALLOWEDHOSTS=console.lan,office-pc"}
	p := startContracts(t, dir, env, args...)
	addrs := p.listening(t)
	admin := "http://" + addrs["admin"]

	// The demo prints codes to the log on purpose: no warning.
	if status, body := httpCall(t, "GET", admin+"/readyz", "", "", ""); status != 200 || body != `{"status":"ready"}`+"\n" {
		t.Fatalf("/readyz with --demo: %d %q", status, body)
	}
	if strings.Contains(p.stderr.String(), consoleSMSWarning(t)) {
		t.Fatalf("--demo warned of the console provider:\n%s", p.stderr.String())
	}
	// A page whose name is re-pointed at 127.0.0.1 cannot read /demo or
	// /metrics; names in admin.allowedHosts can.
	_, port, _ := net.SplitHostPort(addrs["admin"])
	for host, want := range map[string]int{"rebound.example:" + port: 421, "rebound.example": 421, "console.lan.example": 421,
		"console.lan:" + port: 200, "office-pc": 200, "localhost:" + port: 200} {
		for _, path := range []string{"/demo", "/metrics"} {
			req, _ := http.NewRequest("GET", admin+path, nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("GET %s with Host %s: %d, want %d", path, host, resp.StatusCode, want)
			}
		}
	}
	out := p.waitStdout(t, "webhookSecret: ")
	appID, appSecret, apiKey, hookSecret := field(t, out, "appId"), field(t, out, "appSecret"), field(t, out, "apiKey"), field(t, out, "webhookSecret")
	if !strings.HasPrefix(apiKey, "ck_") || !strings.HasPrefix(hookSecret, "whsec_") || len(appSecret) < 40 {
		t.Fatalf("demo credentials:\n%s", out)
	}

	if status, body := httpCall(t, "GET", admin+"/demo", "", "", ""); status != 200 || !strings.Contains(strings.ToLower(body), "<html") {
		t.Fatalf("/demo with --demo: %d %.200s", status, body)
	}

	backup := filepath.Join(dir, "demo-backup.db")
	mustRun(t, dir, "backup", "--out", backup, "--url", admin, "--data-dir", data)
	// A change after the backup, which the restore must undo.
	token := secretFile(t, filepath.Join(data, "admin.token"))
	if status, body := httpCall(t, "POST", admin+"/admin/v1/owners", token, "application/json",
		`{"in": "309876543", "type": "COMPANY", "legalName": "After Backup LLC"}`); status != 200 {
		t.Fatalf("owner: %d %s", status, body)
	}

	// restore refuses while the appliance runs, and changes nothing.
	_, errOut, code := runContracts(t, dir, nil, "restore", "--from", backup, "--data-dir", data)
	if code == 0 || !strings.Contains(errOut, "another process is using") {
		t.Fatalf("restore while running: exit %d\n%s", code, errOut)
	}
	if aside, _ := filepath.Glob(filepath.Join(data, "contracts.db.before-restore-*")); len(aside) != 0 {
		t.Fatalf("a refused restore moved the database: %v", aside)
	}
	p.stop(t)

	// The second start seeds nothing and prints no credentials.
	p = startContracts(t, dir, nil, args...)
	p.listening(t)
	p.stop(t)
	for _, line := range []string{"appId: ", "appSecret: ", "apiKey: ", "webhookSecret: "} {
		if strings.Contains(p.stdout.String(), line) {
			t.Fatalf("second --demo start printed %q:\n%s", line, p.stdout.String())
		}
	}

	out = mustRun(t, dir, "restore", "--from", backup, "--data-dir", data)
	if !strings.Contains(out, "restore: ") {
		t.Fatalf("restore printed: %s", out)
	}
	if aside, _ := filepath.Glob(filepath.Join(data, "contracts.db.before-restore-*")); len(aside) != 1 {
		t.Fatalf("the old database was not kept aside: %v", aside)
	}
	db, err := storage.Open(filepath.Join(data, "contracts.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	assertProvisioned(t, db, []string{appID}, nil, []string{appliance.DemoOwnerIN})
	err = db.View(func(tx signflow.Tx) error {
		if _, err := tx.Claim(appliance.DemoOwnerIN, appliance.DemoCustomerIN); err != nil {
			return fmt.Errorf("the demo customer: %w", err)
		}
		if _, err := tx.Owner("309876543"); signflow.ErrorCode(err) != signflow.ENOTFOUND {
			return fmt.Errorf("the owner created after the backup survived the restore (%v)", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if marker, _ := db.Meta(appliance.DemoMarker); marker != appID {
		t.Fatalf("demo marker %q, want the demo app %s", marker, appID)
	}
	svc := signflow.NewService(db, signflow.Options{})
	if _, err := svc.IssueToken(appID, appSecret); err != nil {
		t.Fatalf("the printed demo app secret does not work: %v", err)
	}
	if _, err := svc.AuthenticateKey(apiKey); err != nil {
		t.Fatalf("the printed demo API key does not work: %v", err)
	}
}

func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	if out := mustRun(t, dir, "version"); strings.TrimSpace(out) != "contracts "+testVersion {
		t.Fatalf("version printed %q", out)
	}
	if _, errOut, code := runContracts(t, dir, nil); code != 1 || !strings.Contains(errOut, "usage: contracts") {
		t.Fatalf("no command: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runContracts(t, dir, nil, "frobnicate"); code != 1 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runContracts(t, dir, nil, "serve", "--log-level", "loud"); code != 1 || !strings.Contains(errOut, "log.level") {
		t.Fatalf("bad config: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := runContracts(t, dir, nil, "backup"); code != 1 || !strings.Contains(errOut, "--out") {
		t.Fatalf("backup without --out: exit %d\n%s", code, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("commands that failed on their arguments left files behind: %v", entries)
	}
}
