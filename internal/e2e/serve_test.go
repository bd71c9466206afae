package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/internal/appliance"
	"contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/signflow"
	"contracts/storage"
)

func TestServeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	env := []string{"CONTRACTS_ADMIN__LISTEN=127.0.0.1:0", "CONTRACTS_DATA__DIR=" + data}
	p := run(t, dir, env, "serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0")
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
	tplPath := testtools.RepoPath(t, "assets", "demo", "template.yaml")
	tplYAML, err := os.ReadFile(tplPath)
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
	cliTemplate := field(t, mustRun(t, dir, "admin", "--url", admin, "--data-dir", data, "template", "create", "--file", tplPath), "id")
	for _, verb := range []string{"unpublish", "publish"} {
		if out := mustRun(t, dir, "admin", "--url", admin, "--data-dir", data, "template", verb, cliTemplate); strings.TrimSpace(out) != "ok" {
			t.Fatalf("template %s printed: %s", verb, out)
		}
	}
	out = mustRun(t, dir, "admin", "--url", admin, "--data-dir", data, "template", "update", cliTemplate, "--file", tplPath)
	if field(t, out, "id") != cliTemplate || field(t, out, "version") != "2" {
		t.Fatalf("template update printed:\n%s", out)
	}
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
	if out := mustRun(t, dir, "admin", "--url", admin, "--token", token, "delivery", "list"); strings.TrimSpace(out) != "none" {
		t.Fatalf("delivery list: %s", out)
	}
	if _, errOut, code := runCommand(t, dir, nil, "admin", "--url", admin, "--token", "wrong", "app", "cancel", cliApp); code == 0 || !strings.Contains(errOut, "401") {
		t.Fatalf("admin with a wrong token: exit %d, %s", code, errOut)
	}

	// An online backup, with the data directory's keys beside it.
	backup := filepath.Join(dir, "backup.db")
	if out := mustRun(t, dir, "backup", "--out", backup, "--url", admin, "--token", token); !strings.Contains(out, "backup: wrote") ||
		!strings.Contains(out, "backup: copied master.key, admin.token, seal.crt, seal.key from "+data) {
		t.Fatalf("backup printed: %s", out)
	}
	for _, name := range []string{"master.key", "admin.token"} {
		if got, want := secretFile(t, filepath.Join(backup+".files", name)), secretFile(t, filepath.Join(data, name)); got != want {
			t.Fatalf("the backup's %s differs from the data directory's", name)
		}
	}

	// A second appliance on the same data refuses to start.
	_, errOut, code := runCommand(t, dir, env, "serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0")
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
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{}))
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

func TestServeRefusesBusyPort(t *testing.T) {
	busy := busyPort(t)
	dir := t.TempDir()
	_, errOut, code := runCommand(t, dir, nil, "serve", "--data-dir", filepath.Join(dir, "data"),
		"--embedded-listen", "127.0.0.1:0", "--key-listen", busy, "--admin-listen", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errOut, "key listener: cannot listen on "+busy) {
		t.Fatalf("start on a busy port: exit %d\n%s", code, errOut)
	}
	assertReleased(t, filepath.Join(dir, "data", "contracts.db"))
}

// busyPort is a loopback address another listener holds until the test ends.
func busyPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}

// assertReleased checks that a failed start released the database.
func assertReleased(t *testing.T, path string) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{Timeout: time.Second})
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
	p := run(t, dir, env, args...)
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
	_, errOut, code := runCommand(t, dir, nil, "restore", "--from", backup, "--data-dir", data)
	if code == 0 || !strings.Contains(errOut, "another process is using") {
		t.Fatalf("restore while running: exit %d\n%s", code, errOut)
	}
	if aside, _ := filepath.Glob(filepath.Join(data, "contracts.db.before-restore-*")); len(aside) != 0 {
		t.Fatalf("a refused restore moved the database: %v", aside)
	}
	p.stop(t)

	// The second start seeds nothing and prints no credentials.
	p = run(t, dir, nil, args...)
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
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{}))
	if _, err := svc.IssueToken(appID, appSecret); err != nil {
		t.Fatalf("the printed demo app secret does not work: %v", err)
	}
	if _, err := svc.AuthenticateKey(apiKey); err != nil {
		t.Fatalf("the printed demo API key does not work: %v", err)
	}
}
