package e2e

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"contracts/internal/testtools"
)

// docBlock is a fenced block of a document. skip is why it is not run,
// from an HTML comment "<!-- not run: why -->" on the line before it.
type docBlock struct {
	lang, text, skip string
}

var fence = regexp.MustCompile("(?ms)^(?:<!-- not run: ([^\n]*?) -->\n)?```(\\w*)[^\n]*\n(.*?)^```[ \t]*$")

func docBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(testtools.RepoPath(t, path))
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	for _, m := range fence.FindAllStringSubmatch(string(data), -1) {
		out = append(out, docBlock{lang: m[2], text: m[3], skip: m[1]})
	}
	return out
}

// Documents whose shell blocks TestReadmeRuns runs, as a whole.
var readmeRun = map[string]bool{"README.md": true, "docs/integrating.md": true}

// TestDocsRun runs the shell blocks of the documents besides the README
// and docs/integrating.md in bash against "serve --demo", each block in
// the directory that holds a contract's sealed PDF as contract.pdf, and
// compiles the Go receiver of docs/webhooks.md. A block that cannot run
// here is marked "<!-- not run: why -->"; the test lists what it ran and
// skipped, and fails on any other shell block in the docs.
func TestDocsRun(t *testing.T) {
	tools := testtools.Need(t, "bash", "curl", "jq", "openssl", "pdfsig", "pdfdetach")
	bin, dir, ports, ePort, kPort, demo := serveDemo(t)
	if err := os.Symlink(bin, filepath.Join(dir, "contracts")); err != nil {
		t.Fatal(err)
	}
	secret := field(t, demo, "webhookSecret")
	env := append(cleanEnv(), "PATH="+dir+":"+os.Getenv("PATH"), "CONTRACTS_ADMIN__LISTEN="+ports["admin"],
		"API_KEY="+field(t, demo, "apiKey"), "WEBHOOK_SECRET="+secret)
	addresses := strings.NewReplacer("https://contracts.example.uz", "http://localhost:"+ePort,
		"http://127.0.0.1:8082", "http://"+ports["admin"])
	bash := func(name, script string) (string, error) {
		cmd := exec.Command(tools[0], "-euo", "pipefail", "-c", addresses.Replace(script))
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	mustBash := func(name, script string) string {
		t.Helper()
		out, err := bash(name, script)
		if err != nil {
			t.Fatalf("%s: %v\n%s\n---\n%s", name, err, script, out)
		}
		return out
	}

	// What the blocks start from: a contract's PDF, the owner of
	// docs/administration.md and a webhook body.
	mustBash("setup", `K=http://localhost:`+kPort+`
ID=$(curl -sf -XPOST $K/v1/contracts -H "X-API-Key: $API_KEY" -d "{\"templateId\":\"`+field(t, demo, "templateId")+`\",
  \"buyerIn\":\"31234567890123\",\"price\":150050,\"currency\":\"UZS\",\"values\":[
  {\"keyName\":\"deliveryAddress\",\"value\":\"Toshkent, Chilonzor 7\"},{\"keyName\":\"warrantyMonths\",\"value\":\"12\"}]}" | jq -r .id)
curl -sf -o contract.pdf "$K/v1/contracts/$ID/pdf?lang=en" -H "X-API-Key: $API_KEY"
contracts admin owner create --in 302345678 --type COMPANY --legal-name "Alpha Savdo MChJ"
printf '{"event":"CONTRACT_ACTIVE"}' > body.json
`)

	// What a block must print, by a line it holds.
	mac := func(parts ...string) string {
		m := hmac.New(sha256.New, []byte(secret))
		for _, p := range parts {
			io.WriteString(m, p)
		}
		return hex.EncodeToString(m.Sum(nil))
	}
	body := `{"event":"CONTRACT_ACTIVE"}`
	wants := map[string][]string{
		"pdfsig contract.pdf\n":               {"Signature Field Name: Seal", "Signature Type: ETSI.CAdES.detached", "Total document signed", "Signature Validation: Signature is Valid."},
		"pdfsig -dump contract.pdf":           {"sha256 Fingerprint="},
		"pdfdetach -list contract.pdf":        {"audit.json"},
		"-F file=@contract.pdf":               {`"sealed":true`, `"intact":true`, `"status":"CREATED"`},
		"openssl req -new":                    {},
		"/admin/v1/owners/302345678/payments": {`"payme":{"merchantId":"5e730e8e0b852a417aa49ceb"}`},
		"X-Contracts-Signature\n":             {"sha256=" + mac(body) + "\n", "t=1795338000,v1=" + mac("1795338000", ".", body) + "\n"},
	}

	docs, err := filepath.Glob(testtools.RepoPath(t, "docs") + "/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var ran, skipped []string
	for _, path := range docs {
		name := "docs/" + filepath.Base(path)
		for i, b := range docBlocks(t, name) {
			where := name + " block " + strconv.Itoa(i+1)
			switch {
			case b.lang == "go":
				vetProgram(t, where, b.text)
				ran = append(ran, where+" (go vet)")
			case b.lang != "sh" || readmeRun[name] || name == "docs/administration.md" && i == 0:
			case b.skip != "":
				skipped = append(skipped, where+": "+b.skip)
			default:
				out, err := bash(where, b.text)
				if err != nil {
					t.Errorf("%s is not marked <!-- not run: why --> and fails: %v\n%s\n---\n%s", where, err, b.text, out)
					continue
				}
				ran = append(ran, where)
				matched := false
				for marker, ws := range wants {
					if !strings.Contains(b.text, marker) {
						continue
					}
					matched = true
					for _, w := range ws {
						if !strings.Contains(out, w) {
							t.Errorf("%s printed no %q:\n%s", where, w, out)
						}
					}
				}
				if !matched {
					t.Errorf("%s ran, but the test checks nothing of what it prints:\n%s", where, out)
				}
			}
		}
	}
	t.Logf("ran %d blocks: %s", len(ran), strings.Join(ran, ", "))
	t.Logf("skipped %d blocks:\n%s", len(skipped), strings.Join(skipped, "\n"))
	if csr, _ := os.ReadFile(filepath.Join(dir, "seal.csr")); !strings.HasPrefix(string(csr), "-----BEGIN CERTIFICATE REQUEST-----") {
		t.Errorf("docs/sealed-documents.md made no seal.csr: %.40q", csr)
	}
	if audit, _ := os.ReadFile(filepath.Join(dir, "attachments", "audit.json")); !strings.Contains(string(audit), "CONTRACT_CREATED") {
		t.Errorf("docs/sealed-documents.md saved no audit.json: %.80q", audit)
	}
	if _, err := http.Get("http://" + ports["admin"] + "/healthz"); err != nil {
		t.Fatalf("the appliance stopped during the blocks: %v", err)
	}
}

// vetProgram runs go vet on a Go block as the main package of a module
// of its own: a complete program compiles with the standard library alone.
func vetProgram(t *testing.T, where, src string) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/receiver\n\ngo 1.22\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o600)
	cmd := exec.Command(goTool(), "vet", ".")
	cmd.Dir, cmd.Env = dir, cleanEnv("GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s does not compile: %v\n%s", where, err, out)
	}
}
