package e2e

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"contracts/internal/testtools"
)

// TestReadmeRuns runs every command of the README, and the command-line
// examples of docs/administration.md, in bash against "serve --demo", as a
// newcomer pastes them: the binary built with "go build -o contracts .",
// the demo's credentials in the variables the README names. The quick
// start's "go run . serve --demo" is TestDemoReachesActiveInABrowser;
// "go test ./..." is this very run.
func TestReadmeRuns(t *testing.T) {
	tools := testtools.Need(t, "bash", "curl", "jq")
	bin, dir, ports, ePort, kPort, demo := serveDemo(t)

	// The directory the commands run in: the binary, the demo's data, the repository's assets.
	if err := os.Link(bin, filepath.Join(dir, "contracts")); err != nil {
		data, err := os.ReadFile(bin)
		if err != nil || os.WriteFile(filepath.Join(dir, "contracts"), data, 0o755) != nil {
			t.Fatalf("copy the binary: %v", err)
		}
	}
	if err := os.Symlink(testtools.RepoPath(t, "assets"), filepath.Join(dir, "assets")); err != nil {
		t.Fatal(err)
	}
	env := append(cleanEnv(), "PATH="+dir+":"+os.Getenv("PATH"), "CONTRACTS_ADMIN__LISTEN="+ports["admin"],
		"APP_ID="+field(t, demo, "appId"), "APP_SECRET="+field(t, demo, "appSecret"),
		"API_KEY="+field(t, demo, "apiKey"), "TEMPLATE_ID="+field(t, demo, "templateId"))
	addresses := strings.NewReplacer("http://localhost:8080", "http://localhost:"+ePort, "http://localhost:8081", "http://localhost:"+kPort)
	bash := func(name, script string) string {
		t.Helper()
		cmd := exec.Command(tools[0], "-euo", "pipefail", "-c", addresses.Replace(script))
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s\n---\n%s", name, err, script, out)
		}
		return string(out)
	}

	// One shell for the README, as one terminal: a block's variables serve the next.
	readme := blocks(t, "README.md", "sh")
	skip := map[string]bool{"go run . serve --demo\n": true, "go test ./...\n": true}
	var script []string
	var run []string
	for _, b := range readme {
		if !skip[b] {
			run = append(run, b)
			// built above, as the Dockerfile does
			script = append(script, strings.Replace(b, "go build -o contracts .\n", "", 1))
		}
	}
	if len(run) != 4 || len(readme) != 6 {
		t.Fatalf("README has %d sh blocks, %d to run: a new block needs a check here", len(readme), len(run))
	}
	const sep = "@@@ next block @@@"
	outs := strings.Split(bash("README", strings.Join(script, "echo '"+sep+"'\n")), sep+"\n")
	for i, b := range run {
		for marker, wants := range map[string][]string{
			"./contracts --help":          {"usage: contracts <command>", "usage: contracts admin owner create", "a company's name"},
			"admin owner create --in":     {"created owner 302345678\n", "updated owner 302345678: changed phone\n", "appSecret: ", "none\n"},
			"/v1/auth/token":              {`"url":"http://localhost:` + ePort + `/sign/`, `"method":"OTP_SMS"`},
			`-H "X-API-Key: $API_KEY" -d`: {`"number":`, `"totalElements":`},
		} {
			if !strings.Contains(b, marker) {
				continue
			}
			for _, w := range wants {
				if !strings.Contains(outs[i], w) {
					t.Errorf("README block with %q printed no %q:\n%s", marker, w, outs[i])
				}
			}
		}
	}
	if pdf, err := os.ReadFile(filepath.Join(dir, "contract.pdf")); err != nil || !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Fatalf("the README's contract.pdf: %v %.20q", err, pdf)
	}
	admin := blocks(t, "docs/administration.md", "sh")
	out := bash("docs/administration.md", admin[0])
	for _, w := range []string{"owner 302345678", `payme: {"merchantId":"5e730e8e0b852a417aa49ceb"}`, "appSecret: ", "key: ck_", "ok\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("docs/administration.md's commands printed no %q:\n%s", w, out)
		}
	}

	// docs/integrating.md, step by step in one shell, from the demo's output
	// saved as its first block saves it.
	if err := os.WriteFile(filepath.Join(dir, "demo.txt"), []byte(demo), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"event":"CONTRACT_ACTIVE"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	steps := blocks(t, "docs/integrating.md", "sh")
	if steps[0] != "go run . serve --demo | tee demo.txt\n" {
		t.Fatalf("docs/integrating.md starts with %q", steps[0])
	}
	testtools.Need(t, "openssl")
	out = bash("docs/integrating.md", strings.Join(steps[1:], ""))
	for _, w := range []string{`"type": "CLIENT"`, `"lastName": "Karimov"`, `"keyName": "warrantyMonths"`, `"status": "CREATED"`,
		`"url": "http://localhost:` + ePort + `/sign/`, `"status": "CANCELLED"`, "sha256=", `"totalElements":`, `"code": 404`} {
		if !strings.Contains(out, w) {
			t.Errorf("docs/integrating.md printed no %q:\n%s", w, out)
		}
	}

	// The README's configuration errors are the ones a start prints.
	yaml := filepath.Join(dir, "typo.yaml")
	os.WriteFile(yaml, []byte("embedded:\n  listne: \":9000\"\n"), 0o600)
	inputs := []struct {
		env  []string
		args []string
	}{
		{[]string{"CONTRACTS_EMBEDED__LISTEN=:9000"}, nil},
		{[]string{"CONTRACTS_SIGNING__SESSIONTTL=soon"}, nil},
		{nil, []string{"--config", yaml}},
		{[]string{"CONTRACTS_SIGNING__OTPTTL=5s"}, nil},
	}
	lines := strings.Split(strings.TrimSpace(blocks(t, "README.md", "text")[0]), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("README shows %d config errors, the test makes %d", len(lines), len(inputs))
	}
	for i, in := range inputs {
		_, errOut, code := runCommand(t, t.TempDir(), in.env, append([]string{"serve"}, in.args...)...)
		if code == 0 || strings.TrimSpace(errOut) != "contracts: "+lines[i] {
			t.Errorf("README says %q; the start printed %q", lines[i], errOut)
		}
	}
}

// blocks are the fenced code blocks of a repository file in a language.
func blocks(t *testing.T, path, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(testtools.RepoPath(t, path))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?ms)^```"+lang+"\n(.*?)^```").FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	return out
}

// serveDemo starts "serve --demo" of the built binary on free loopback
// ports, base URLs on localhost, for the docs' commands to run against; it
// returns the binary, the directory it runs in, the listeners' addresses
// and ports, and what it printed up to the demo's webhook secret.
func serveDemo(t *testing.T) (bin, dir string, ports map[string]string, ePort, kPort, demo string) {
	t.Helper()
	bin = contractsBinary(t)
	dir = t.TempDir()
	ports = map[string]string{}
	for _, name := range []string{"embedded", "key", "admin"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports[name] = ln.Addr().String()
		ln.Close()
	}
	_, ePort, _ = net.SplitHostPort(ports["embedded"])
	_, kPort, _ = net.SplitHostPort(ports["key"])
	p := run(t, dir, []string{"CONTRACTS_EMBEDDED__BASEURL=http://localhost:" + ePort, "CONTRACTS_KEY__BASEURL=http://localhost:" + kPort},
		"serve", "--demo", "--embedded-listen", ports["embedded"], "--key-listen", ports["key"], "--admin-listen", ports["admin"])
	p.listening(t)
	return bin, dir, ports, ePort, kPort, p.waitStdout(t, "webhookSecret: ")
}
