package e2e

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// TestBackupUnderWriteLoad takes online backups while 20 clients create
// contracts: each backup opens, holds every contract
// acknowledged before it started, and every contract in it has its audit
// events, its index entries and its outbox rows. restore refuses the
// running instance's file, and puts the backup in place once it is stopped.
func TestBackupUnderWriteLoad(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	recv := newReceiver(t, 1<<30)
	in := startInstance(t, dir, data, "CONTRACTS_RATELIMIT__TOKENPERMINUTE=0", "CONTRACTS_RATELIMIT__APPPERSECOND=0")
	p := provision(t, in, recv.URL+"/hook")
	w := startWriters(t, in, p, 20, 1000*loadScale())
	var backups []string
	var ackedBefore [][]string
	for i := 0; i < 3; i++ {
		w.waitAcked(t, (i+1)*100*loadScale(), 60*time.Second)
		out := filepath.Join(dir, "backup-"+strconv.Itoa(i)+".db")
		ackedBefore = append(ackedBefore, w.ids())
		if msg := mustRun(t, dir, "backup", "--out", out, "--url", in.admin, "--token", in.adminToken); !strings.Contains(msg, "backup: wrote") {
			t.Fatalf("backup printed %q", msg)
		}
		backups = append(backups, out)
	}
	if w.count() <= len(ackedBefore[2]) {
		w.waitAcked(t, len(ackedBefore[2])+1, 30*time.Second) // writes went on during the last backup
	}
	w.finish(t)
	if w.fivexx.Load() > 0 || w.refused.Load() > 0 {
		t.Fatalf("under backup: %d answers 5xx, %d other refusals", w.fivexx.Load(), w.refused.Load())
	}
	counts := make([]int, len(backups))
	for i, b := range backups {
		counts[i] = checkConsistent(t, b, ackedBefore[i])
	}
	t.Logf("3 backups under write load hold %v contracts, each consistent", counts)

	last := backups[len(backups)-1]
	_, errOut, code := runCommand(t, dir, nil, "restore", "--from", last, "--data-dir", data)
	if code == 0 || !strings.Contains(errOut, "another process is using") {
		t.Fatalf("restore over the running instance: exit %d\n%s", code, errOut)
	}
	in.stop(t)
	mustRun(t, dir, "restore", "--from", last, "--data-dir", data)
	in = startInstance(t, dir, data)
	var page struct{ TotalElements int }
	mustCall(t, "GET", in.key+"/v1/contracts?size=1", nil, &page, "X-API-Key", p.apiKey)
	if page.TotalElements != counts[len(counts)-1] {
		t.Fatalf("after restore the key interface lists %d contracts, the backup holds %d", page.TotalElements, counts[len(counts)-1])
	}
	in.stop(t)
}

// checkConsistent opens a backup and checks it: schema version, every
// contract acknowledged before the backup began, and for every contract in
// it the audit trail, the number and party indexes and its outbox rows.
// It returns the number of contracts.
func checkConsistent(t *testing.T, path string, acked []string) int {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("backup %s does not open: %v", path, err)
	}
	defer db.Close()
	if v, err := db.SchemaVersion(); err != nil || v != storage.CurrentSchema() {
		t.Fatalf("backup schema version %d (%v)", v, err)
	}
	var ids []string
	err = db.Bolt().View(func(btx *bolt.Tx) error {
		return btx.Bucket([]byte("contracts")).ForEach(func(k, _ []byte) error { ids = append(ids, string(k)); return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	for _, id := range acked {
		if !in[id] {
			t.Fatalf("%s: contract %s was acknowledged before the backup started but is not in it", filepath.Base(path), id)
		}
	}
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{}))
	err = db.View(func(tx signflow.Tx) error {
		for _, party := range []string{loadOwnerIN, loadCustomerIN} {
			page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: party, AllTemplates: true, Size: 1})
			if err != nil || page.Total != len(ids) {
				return fmt.Errorf("party index of %s lists %d contracts, the file holds %d (%v)", party, page.Total, len(ids), err)
			}
		}
		for _, id := range ids {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			events, err := tx.AuditEvents(id)
			if err != nil || len(events) == 0 || events[0].Type != signflow.EventCreated {
				return fmt.Errorf("contract %s: no creation audit event (%v)", id, err)
			}
			page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: loadOwnerIN, AllTemplates: true, Search: c.Number, Size: 5})
			if err != nil || page.Total != 1 || page.Contracts[0].ID != id {
				return fmt.Errorf("contract %s: number %s not found through its index (%v)", id, c.Number, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	for _, id := range ids {
		if ds, err := svc.Deliveries(signflow.DeliveryFilter{ContractID: id}); err != nil || len(ds) != 2 {
			t.Fatalf("%s: contract %s has %d outbox rows (%v), want 2", filepath.Base(path), id, len(ds), err)
		}
	}
	return len(ids)
}
