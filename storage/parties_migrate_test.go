package storage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// The upgrade of a schema-3 file gives each of its contracts, last changed
// before changes kept their parties' details, the details its creator's
// tenant holds: the owner's record, or the tenant's claim.
func TestUpgradeRecordsPartiesOfOldContracts(t *testing.T) {
	var m v3Manifest
	data, err := os.ReadFile(filepath.Join("testdata", "schema-v3.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "contracts.db")
	copyFile(t, filepath.Join("testdata", "schema-v3.db"), path)
	for n, id := range m.Contracts {
		if raw := rawContract(t, path, id); raw["parties"] != nil {
			t.Fatalf("contract %s of the fixture has parties already", n)
		}
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := map[string][2]string{ // buyer, seller: a person's last name or a company's name
		"1": {"Karimov", "Alpha"}, "2": {"Karimov", "Kappa"}, "3": {"Aliyev", "Alpha"},
		"4": {"Beta", "Alpha"}, "5": {"Alpha", "Beta"},
	}
	err = db.View(func(tx signflow.Tx) error {
		for n, id := range m.Contracts {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			if c.Parties == nil || c.Parties.Buyer == nil || c.Parties.Seller == nil {
				t.Errorf("contract %s: parties %+v after the upgrade", n, c.Parties)
				continue
			}
			for i, p := range []*signflow.Client{c.Parties.Buyer, c.Parties.Seller} {
				held, err := tenantRecord(tx, c.CreatorIN, []string{c.BuyerIN, c.SellerIN}[i])
				if err != nil {
					return err
				}
				if p.IN != held.IN || p.LastName != held.LastName || p.LegalName != held.LegalName || p.Passport != held.Passport || p.Phone != "" {
					t.Errorf("contract %s party %d: %+v, the tenant holds %+v", n, i, p, held)
				}
				if name := p.LastName + p.LegalName; len(name) < len(want[n][i]) || name[:len(want[n][i])] != want[n][i] {
					t.Errorf("contract %s party %d is %q, want %q", n, i, name, want[n][i])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tenantRecord is the record of in that the tenant holds: the owner's, or
// its claim.
func tenantRecord(tx signflow.Tx, tenant, in string) (*signflow.Client, error) {
	if c, err := tx.Owner(in); signflow.ErrorCode(err) != signflow.ENOTFOUND {
		return c, err
	}
	return tx.Claim(tenant, in)
}

// The upgrade fills every contract without details, across its batches,
// from the records held at the upgrade, and leaves a contract that has
// them as it is.
func TestUpgradeRecordsPartiesLeavesKeptOnes(t *testing.T) {
	w := fixture.NewStandard(t)
	var ids []string
	for range 300 {
		ids = append(ids, w.Contract(t).ID)
	}
	fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov", MidName: "Saidovich", Phone: "+998 90 123-45-67"})
	db := rollBack(t, w.DB, 6, func(btx *bolt.Tx) error {
		contracts := btx.Bucket([]byte("contracts"))
		for i, id := range ids {
			var raw map[string]any
			if err := json.Unmarshal(contracts.Get([]byte(id)), &raw); err != nil {
				return err
			}
			if i == 0 {
				raw["parties"].(map[string]any)["buyer"].(map[string]any)["lastName"] = "As Kept"
			} else {
				delete(raw, "parties")
			}
			data, err := json.Marshal(raw)
			if err != nil {
				return err
			}
			if err := contracts.Put([]byte(id), data); err != nil {
				return err
			}
		}
		return nil
	})
	err := db.View(func(tx signflow.Tx) error {
		for i, id := range ids {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			want := [2]string{"Karimov", "Saidovich"} // the claim at the upgrade
			if i == 0 {
				want = [2]string{"As Kept", ""}
			}
			if c.Parties == nil || c.Parties.Buyer == nil || [2]string{c.Parties.Buyer.LastName, c.Parties.Buyer.MidName} != want ||
				c.Parties.Seller == nil || c.Parties.Seller.LegalName != "Alpha Savdo MChJ" {
				t.Fatalf("contract %d: parties %+v, want buyer %q", i, c.Parties.Buyer, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rawContract is the stored JSON of a contract, read from the file as it is.
func rawContract(t *testing.T, path, id string) map[string]any {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var raw map[string]any
	err = b.View(func(btx *bolt.Tx) error { return json.Unmarshal(btx.Bucket([]byte("contracts")).Get([]byte(id)), &raw) })
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
