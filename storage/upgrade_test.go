package storage_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/secretbox"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// v1Manifest is testdata/schema-v1.json: what testdata/schema-v1.db, written
// by the schema-version-1 code (testdata/schema-v1/gen.go), holds.
type v1Manifest struct {
	MasterKey   string `json:"masterKey"`
	TokenSecret string `json:"tokenSecret"`
	OwnerIN     string `json:"ownerIn"`
	CustomerIN  string `json:"customerIn"`
	TemplateID  string `json:"templateId"`
	AppID       string `json:"appId"`
	AppSecret   string `json:"appSecret"`
	AppWebhook  string `json:"appWebhookSecret"`
	KeyID       string `json:"keyId"`
	APIKey      string `json:"apiKey"`
	Contracts   []struct {
		ID, Number, Status, BuyerStatus, SellerStatus string
		AuditEvents                                   int
	} `json:"contracts"`
	Sessions []struct {
		ID, ContractID, Token, Status string
	} `json:"sessions"`
	Deliveries []struct {
		ID, Event, ContractID, Target, Status string
		Attempts                              int
	} `json:"deliveries"`
	PendingDeliveries int `json:"pendingDeliveries"`
}

// TestUpgradeFromSchemaV1 opens a copy of a database written by the
// version-1 code with the current code: the schema is migrated to
// CurrentSchema(), the old file is kept as .pre-vN.bak, and every record
// (credentials, contracts, indexes, audit events, sessions, the outbox)
// reads back as it was written and can be written on.
func TestUpgradeFromSchemaV1(t *testing.T) {
	var m v1Manifest
	data, err := os.ReadFile(filepath.Join("testdata", "schema-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "contracts.db")
	copyFile(t, filepath.Join("testdata", "schema-v1.db"), path)
	if v := schemaOf(t, path); v != 1 {
		t.Fatalf("the fixture has schema version %d, want 1", v)
	}

	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatalf("the current code does not open a version-1 file: %v", err)
	}
	defer db.Close()
	if v, err := db.SchemaVersion(); err != nil || v != storage.CurrentSchema() {
		t.Fatalf("schema version after the upgrade: %d (%v), want %d", v, err, storage.CurrentSchema())
	}
	bak := fmt.Sprintf("%s.pre-v%d.bak", path, storage.CurrentSchema())
	if storage.CurrentSchema() == 1 {
		if _, err := os.Stat(bak); err == nil {
			t.Fatal("a snapshot was written although nothing was migrated")
		}
	} else {
		if v := schemaOf(t, bak); v != 1 {
			t.Fatalf("the snapshot %s has schema version %d, want the old file's 1", filepath.Base(bak), v)
		}
		checkV1Contracts(t, bak, &m)
		t.Logf("schema 1 -> %d; the old file kept as %s", storage.CurrentSchema(), filepath.Base(bak))
	}

	box, err := secretbox.New([]byte(m.MasterKey))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{Now: func() time.Time { return now }, Secret: []byte(m.TokenSecret), Box: box}))

	// Credentials: the app's secret and tokens, the key, the encrypted webhook secret.
	token, err := svc.IssueToken(m.AppID, m.AppSecret)
	if err != nil {
		t.Fatalf("the app secret of the old file: %v", err)
	}
	app, err := svc.AuthenticateToken(token)
	if err != nil {
		t.Fatal(err)
	}
	if secret, err := box.Decrypt(app.WebhookSecretEnc); err != nil || string(secret) != m.AppWebhook {
		t.Fatalf("the app's webhook secret does not open: %q %v", secret, err)
	}
	key, err := svc.AuthenticateKey(m.APIKey)
	if err != nil || key.ID != m.KeyID {
		t.Fatalf("the API key of the old file: %v", err)
	}

	// Contracts, their audit trails and their indexes.
	views, total, err := svc.ListContracts(key.Access(), signflow.ContractQuery{Size: 20})
	if err != nil || total != len(m.Contracts) {
		t.Fatalf("the key lists %d contracts (%v), want %d", total, err, len(m.Contracts))
	}
	for i, c := range m.Contracts {
		v := views[len(views)-1-i] // newest first
		if v.ID != c.ID || v.Number != c.Number || v.Status != c.Status || v.BuyerStatus != c.BuyerStatus || v.SellerStatus != c.SellerStatus {
			t.Fatalf("contract %d: %s %s %s %s/%s, want %+v", i, v.ID, v.Number, v.Status, v.BuyerStatus, v.SellerStatus, c)
		}
		audit, err := svc.AuditTrail(c.ID)
		if err != nil || len(audit) != c.AuditEvents {
			t.Fatalf("contract %s: %d audit events (%v), want %d", c.Number, len(audit), err, c.AuditEvents)
		}
		found, n, err := svc.ListContracts(key.Access(), signflow.ContractQuery{Search: c.Number, Size: 5})
		if err != nil || n != 1 || found[0].ID != c.ID {
			t.Fatalf("search by number %s: %d found (%v)", c.Number, n, err)
		}
	}

	// Sessions by their token, and the outbox in its order.
	err = db.View(func(tx signflow.Tx) error {
		for _, s := range m.Sessions {
			got, err := tx.SessionByToken(signflow.HashSecret(s.Token))
			if err != nil || got.ID != s.ID || got.Status != s.Status || got.ContractID != s.ContractID {
				return fmt.Errorf("session %s by its token: %+v %v", s.ID, got, err)
			}
		}
		pending, err := tx.PendingDeliveries(0, 1000)
		if err != nil || len(pending) != m.PendingDeliveries {
			return fmt.Errorf("%d pending deliveries (%v), want %d", len(pending), err, m.PendingDeliveries)
		}
		if !slices.IsSortedFunc(pending, func(a, b *signflow.Delivery) int { return int(a.Seq) - int(b.Seq) }) {
			return fmt.Errorf("the outbox is out of order")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	deliveries, err := svc.Deliveries(signflow.DeliveryFilter{})
	if err != nil || len(deliveries) != len(m.Deliveries) {
		t.Fatalf("%d deliveries (%v), want %d", len(deliveries), err, len(m.Deliveries))
	}
	byID := map[string]*signflow.Delivery{}
	for _, d := range deliveries {
		byID[d.ID] = d
	}
	for _, want := range m.Deliveries {
		d := byID[want.ID]
		if d == nil || d.Event != want.Event || d.ContractID != want.ContractID || d.Target != want.Target ||
			d.Status != want.Status || len(d.Attempts) != want.Attempts {
			t.Fatalf("delivery %s: %+v, want %+v", want.ID, d, want)
		}
	}

	// The upgraded file takes new writes: the contract sequence goes on.
	c, err := svc.CreateContract(app.Access(), &signflow.ContractInput{TemplateID: m.TemplateID, BuyerIN: m.CustomerIN,
		Price: 100, Currency: "UZS"}, signflow.Actor{IP: "127.0.0.1"})
	if err != nil {
		t.Fatalf("a contract on the upgraded file: %v", err)
	}
	if want := fmt.Sprintf("2026-%06d", len(m.Contracts)+1); c.Number != want {
		t.Fatalf("new contract number %s, want %s", c.Number, want)
	}

	// Opening again migrates nothing and writes no second snapshot.
	db.Close()
	before, _ := filepath.Glob(path + ".pre-v*.bak")
	again, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
	if after, _ := filepath.Glob(path + ".pre-v*.bak"); len(after) != len(before) {
		t.Fatalf("reopening wrote a snapshot: %v", after)
	}
}

// checkV1Contracts opens a file read-only and checks it holds the
// manifest's contracts with their audit events.
func checkV1Contracts(t *testing.T, path string, m *v1Manifest) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("%s does not open: %v", filepath.Base(path), err)
	}
	defer db.Close()
	err = db.View(func(tx signflow.Tx) error {
		for _, c := range m.Contracts {
			got, err := tx.Contract(c.ID)
			if err != nil || got.Number != c.Number || got.Status != c.Status {
				return fmt.Errorf("contract %s: %v", c.Number, err)
			}
			if events, err := tx.AuditEvents(c.ID); err != nil || len(events) != c.AuditEvents {
				return fmt.Errorf("contract %s: %d audit events (%v)", c.Number, len(events), err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
}

// rollBack closes db, undoes in its file what a later schema added and marks
// the file as of schema version, then opens it again, which upgrades it to
// the current schema.
func rollBack(t *testing.T, db *storage.DB, version uint64, undo func(*bolt.Tx) error) *storage.DB {
	t.Helper()
	path := db.Path()
	db.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(btx *bolt.Tx) error {
		if err := undo(btx); err != nil {
			return err
		}
		return btx.Bucket([]byte("meta")).Put([]byte("schema"), binary.BigEndian.AppendUint64(nil, version))
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	upgraded, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { upgraded.Close() })
	if v, err := upgraded.SchemaVersion(); err != nil || v != storage.CurrentSchema() {
		t.Fatalf("schema %d (%v) after the upgrade, want %d", v, err, storage.CurrentSchema())
	}
	return upgraded
}

// schemaOf reads a file's schema version without migrating it.
func schemaOf(t *testing.T, path string) uint64 {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	defer db.Close()
	v, err := db.SchemaVersion()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
