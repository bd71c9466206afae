package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandHelp: --help of each command exits 0 and lists that
// command's own flags, each with its description, and no other's.
func TestCommandHelp(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args      []string
		want, not []string
	}{
		{[]string{"serve", "--help"}, []string{"usage: contracts serve", "--demo", "seed demo data once", "--config"}, []string{"--out"}},
		{[]string{"backup", "-h"}, []string{"usage: contracts backup", "--out", "file to write the snapshot to"}, []string{"--demo"}},
		{[]string{"admin", "--help"}, []string{"usage: contracts admin", "owner create", "owner payments", "delivery redeliver", "--token", "admin.token"}, nil},
		{[]string{"admin", "owner", "create", "--help"}, []string{"usage: contracts admin owner create", "--legal-name", "a company's name",
			"--phone", "cabinet"}, []string{"--webhook-url", "--file", "--scopes"}},
		{[]string{"admin", "owner", "payments", "--help"}, []string{"usage: contracts admin owner payments", "--payme-merchant-id", "--payme-key",
			"--click-service-id", "--click-merchant-id", "--click-secret-key", "secret key"}, []string{"--legal-name", "--scopes"}},
		{[]string{"admin", "template", "create", "--help"}, []string{"--file", "docs/templates.md"}, []string{"--in ", "--scopes"}},
		{[]string{"admin", "app", "create", "--help"}, []string{"--scopes", "--webhook-events", "--all-templates"}, []string{"--legal-name", "--file"}},
		{[]string{"admin", "key", "create", "--help"}, []string{"--scopes", "--webhook-url"}, []string{"--webhook-events", "--legal-name"}},
		{[]string{"admin", "delivery", "list", "--help"}, []string{"--status", "PENDING, DELIVERED or FAILED"}, []string{"--scopes"}},
	} {
		out, errOut, code := runCommand(t, dir, nil, c.args...)
		if code != 0 || strings.Contains(out+errOut, "pflag") {
			t.Errorf("%s: exit %d\n%s%s", strings.Join(c.args, " "), code, out, errOut)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", strings.Join(c.args, " "), w, out)
			}
		}
		for _, n := range c.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: another command's %q in\n%s", strings.Join(c.args, " "), n, out)
			}
		}
	}
}

// TestCommandRefusals: what a newcomer gets wrong is refused in the
// command line's words — flags, not API fields; where the token was read.
func TestCommandRefusals(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	in := startInstance(t, dir, data)
	// An owner created again says so, and what changed.
	owner := []string{"admin", "--url", in.admin, "--data-dir", data, "owner", "create", "--in", "305555555", "--type", "COMPANY", "--legal-name", "Epsilon LLC"}
	if out := mustRun(t, dir, owner...); !strings.HasPrefix(out, "created owner 305555555\n") {
		t.Fatalf("first create printed:\n%s", out)
	}
	if out := mustRun(t, dir, append(owner, "--phone", "+998 71 200-00-09")...); !strings.HasPrefix(out, "updated owner 305555555: changed phone\n") ||
		field(t, out, "result") != "updated" {
		t.Fatalf("second create printed:\n%s", out)
	}
	elsewhere := t.TempDir()
	for _, c := range []struct {
		name string
		dir  string
		env  []string
		args []string
		want string
	}{
		{"template without --file", dir, nil, []string{"admin", "template", "create"}, "admin template create: --file is required"},
		{"unknown flag", dir, nil, []string{"admin", "owner", "create", "--legal", "X"}, `unknown flag: --legal (run "contracts admin owner create --help")`},
		{"bad number names the flag", dir, nil, []string{"admin", "--url", in.admin, "--data-dir", data, "owner", "create", "--in", "12345",
			"--type", "COMPANY"}, "--in: must be"},
		{"bad scope names the flag", dir, nil, []string{"admin", "--url", in.admin, "--data-dir", data, "key", "create", "--name", "K",
			"--owner", "305555555", "--scopes", "EVERYTHING", "--all-templates"}, "--scopes: unknown scope"},
		{"token looked for outside the data directory", elsewhere, []string{"CONTRACTS_DATA__DIR=" + filepath.Join(elsewhere, "data")},
			[]string{"admin", "--url", in.admin, "template", "publish", "x"}, "(no token: " + filepath.Join(elsewhere, "data", "admin.token") + " does not exist, and neither $CONTRACTS_ADMIN_TOKEN nor admin.token is set"},
		{"wrong token says where it came from", dir, []string{"CONTRACTS_ADMIN_TOKEN=" + strings.Repeat("w", 40)},
			[]string{"admin", "--url", in.admin, "template", "publish", "x"}, "401 Unauthorized: The admin token is missing or wrong. (the token was read from $CONTRACTS_ADMIN_TOKEN)"},
		{"misspelt variable", dir, []string{"CONTRACTS_EMBEDED__LISTEN=:9000"}, []string{"admin", "delivery", "list"},
			"config: CONTRACTS_EMBEDED__LISTEN: the environment variable names no configuration key"},
		{"bad value", dir, []string{"CONTRACTS_SIGNING__SESSIONTTL=soon"}, []string{"serve"},
			`config: signing.sessionTTL: "soon" is not a duration with a unit (e.g. 30s, 5m) (from CONTRACTS_SIGNING__SESSIONTTL)`},
	} {
		_, errOut, code := runCommand(t, c.dir, c.env, c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "decoding failed") {
			t.Errorf("%s: exit %d, want %q in\n%s", c.name, code, c.want, errOut)
		}
	}
	if !strings.Contains(in.stderr.String(), `"adminToken":"`+filepath.Join(data, "admin.token")+`"`) {
		t.Fatalf("start-up does not say where the admin token is:\n%s", in.stderr.String())
	}
}

// TestListenerIndex: GET / on each listener names what is served there,
// and /demo without --demo says how to turn it on.
func TestListenerIndex(t *testing.T) {
	dir := t.TempDir()
	in := startInstance(t, dir, filepath.Join(dir, "data"))
	for base, want := range map[string][]string{
		in.embedded: {`"listener":"embedded"`, `"/sign/<token>"`, `"/verify/<id>"`},
		in.key:      {`"listener":"key"`, `"/cabinet"`, `"/v1/"`},
		in.admin:    {`"listener":"admin"`, `"/console"`, `"/demo":"the demo (start with --demo)"`},
	} {
		status, body := httpCall(t, "GET", base+"/", "", "", "")
		for _, w := range want {
			if status != 200 || !strings.Contains(body, w) {
				t.Errorf("GET %s/: %d, no %s in %s", base, status, w, body)
			}
		}
	}
	if status, body := httpCall(t, "GET", in.admin+"/demo", "", "", ""); status != 404 || !strings.Contains(body, `contracts serve --demo`) {
		t.Errorf("/demo without --demo: %d %s", status, body)
	}
}
