package e2e

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"contracts/internal/testtools"
	"contracts/storage/postgres/pgtest"
)

// TestDocsPostgresBackup runs docs/operations.md's pg_dump and pg_restore
// block, which TestDocsRun skips for want of an appliance on PostgreSQL:
// the dump is taken while a node serves, restored into another database,
// and a node started on that one serves the contract made before.
func TestDocsPostgresBackup(t *testing.T) {
	tools := testtools.Need(t, "bash", "pg_dump", "pg_restore")
	var block string
	for _, b := range docBlocks(t, "docs/operations.md") {
		if b.lang == "sh" && strings.HasPrefix(b.text, "pg_dump ") {
			block = b.text
		}
	}
	if block == "" {
		t.Fatal("docs/operations.md has no pg_dump block")
	}
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer hooks.Close()
	c := newCluster(t)
	in := c.node(t)
	p := provision(t, in, hooks.URL+"/hook")
	id := createContract(t, in, p)
	var before struct{ Number string }
	mustCall(t, "GET", in.key+"/v1/contracts/"+id, nil, &before, "X-API-Key", p.apiKey)

	restore := pgtest.NewDatabase(t)
	cmd := exec.Command(tools[0], "-euo", "pipefail", "-c", block)
	cmd.Dir, cmd.Env = t.TempDir(), cleanEnv("DATABASE_URL="+c.url, "RESTORE_URL="+restore)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("docs/operations.md's pg_dump block: %v\n%s\n---\n%s", err, block, out)
	}
	in.stop(t)

	r := &cluster{url: restore, adminToken: c.adminToken, masterKey: c.masterKey}
	for _, kv := range c.env {
		r.env = append(r.env, strings.Replace(kv, c.url, restore, 1))
	}
	back := r.node(t)
	var after struct{ Number string }
	mustCall(t, "GET", back.key+"/v1/contracts/"+id, nil, &after, "X-API-Key", p.apiKey)
	if after.Number == "" || after.Number != before.Number {
		t.Fatalf("the restored contract is number %q, was %q", after.Number, before.Number)
	}
}

// TestDocsBackupRestore runs docs/administration.md's backup and restore
// block, which TestDocsRun skips: "contracts backup" while the appliance
// serves, "contracts restore" once it is stopped; started again, it has
// the contract made before the backup and not the one made after.
func TestDocsBackupRestore(t *testing.T) {
	tools := testtools.Need(t, "bash")
	var block string
	for _, b := range docBlocks(t, "docs/administration.md") {
		if b.lang == "sh" && strings.HasPrefix(b.text, "contracts backup ") {
			block = b.text
		}
	}
	online, offline, ok := strings.Cut(block, "contracts restore ")
	if !ok {
		t.Fatalf("docs/administration.md has no backup and restore block: %q", block)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	admin := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	if err := os.Symlink(contractsBinary(t), filepath.Join(dir, "contracts")); err != nil {
		t.Fatal(err)
	}
	bash := func(script string) {
		t.Helper()
		cmd := exec.Command(tools[0], "-euo", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = dir, cleanEnv("PATH="+dir+":"+os.Getenv("PATH"), "CONTRACTS_ADMIN__LISTEN="+admin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("docs/administration.md: %v\n%s\n---\n%s", err, script, out)
		}
	}
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer hooks.Close()
	data := filepath.Join(dir, "data")
	in := startInstance(t, dir, data, "CONTRACTS_ADMIN__LISTEN="+admin)
	p := provision(t, in, hooks.URL+"/hook")
	kept := createContract(t, in, p)
	bash(online)
	lost := createContract(t, in, p)
	in.stop(t)
	bash("contracts restore " + offline)

	in = startInstance(t, dir, data, "CONTRACTS_ADMIN__LISTEN="+admin)
	if code := status(t, "GET", in.key+"/v1/contracts/"+kept, "X-API-Key", p.apiKey); code != http.StatusOK {
		t.Errorf("the contract made before the backup: %d after the restore", code)
	}
	if code := status(t, "GET", in.key+"/v1/contracts/"+lost, "X-API-Key", p.apiKey); code != http.StatusNotFound {
		t.Errorf("the contract made after the backup: %d after the restore, want 404", code)
	}
}
