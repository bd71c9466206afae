package e2e

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
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
