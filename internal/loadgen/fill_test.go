package loadgen

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"
)

// Fill writes exactly the contracts asked for, each a whole create (its
// record, indexes and audit event), readable through the key it made.
func TestFillWritesContracts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	f, err := Fill(context.Background(), path, "", 300, 16, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.Contracts != 300 {
		t.Fatalf("%d contracts written, want 300", f.Contracts)
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	counts, err := db.ExportCounts()
	if err != nil {
		t.Fatal(err)
	}
	if counts["contracts"] != 300 || counts["audit"] != 300 {
		t.Fatalf("contracts %d, audit events %d, want 300 each", counts["contracts"], counts["audit"])
	}
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{}))
	key, err := svc.AuthenticateKey(f.Key)
	if err != nil {
		t.Fatal(err)
	}
	_, total, err := svc.ListContracts(key.Access(), signflow.ContractQuery{Size: 20})
	if err != nil || total != 300 {
		t.Fatalf("the key lists %d contracts (%v), want 300", total, err)
	}
}

// A fill whose context ends stops: the contracts written so far are whole,
// and it says it stopped.
func TestFillStopsWithItsContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// the first progress line (a tenth written) ends the context
	f, err := Fill(ctx, path, "", 1000, 4, cancelWriter(cancel))
	if err == nil || f.Contracts < 100 || f.Contracts >= 1000 {
		t.Fatalf("a cancelled fill wrote %d contracts, error %v", f.Contracts, err)
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	counts, err := db.ExportCounts()
	if err != nil || counts["contracts"] != f.Contracts || counts["audit"] != f.Contracts {
		t.Fatalf("contracts %d, audit events %d, reported %d (%v)", counts["contracts"], counts["audit"], f.Contracts, err)
	}
}

type cancelWriter func()

func (c cancelWriter) Write(p []byte) (int, error) { c(); return len(p), nil }
