package postgres_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"
)

// TestOwnerAndKeysCacheCopies holds the owners' records and owners' keys
// kept decoded by a node: a reader's change of what it was given is never
// kept, and a change committed through another node is read at once.
func TestOwnerAndKeysCacheCopies(t *testing.T) {
	a := pgtest.Open(t)
	w := fixture.NewStandardOn(t, a)
	peer := signflow.NewService(pgtest.Peer(t, a), w.Options)
	read := func(ownerToo bool) (owner *signflow.Client, keys []*signflow.APIKey) {
		t.Helper()
		fixture.Must(t, func() error {
			return a.Update(func(tx signflow.Tx) (err error) {
				if _, err := tx.(signflow.SharedTx).CredentialsVersion(); err != nil {
					return err
				}
				if !ownerToo {
					keys, err = tx.KeysByOwner(fixture.OwnerIN)
					return err
				}
				if owner, err = tx.Owner(fixture.OwnerIN); err != nil {
					return err
				}
				keys, err = tx.KeysByOwner(fixture.OwnerIN)
				return err
			})
		})
		return owner, keys
	}
	read(true)
	owner, keys := read(true)
	name, n := owner.LegalName, len(keys)
	if n == 0 || name == "" {
		t.Fatalf("owner %+v with %d keys; want the fixture's", owner, n)
	}
	scopes := len(keys[0].Scopes)
	owner.LegalName = "Changed in place"
	keys[0].Name, keys[0].Revoked = "Changed in place", true
	keys[0].Scopes = append(keys[0].Scopes, "appended")
	owner, keys = read(true)
	if owner.LegalName != name || len(keys) != n || keys[0].Name == "Changed in place" || keys[0].Revoked || len(keys[0].Scopes) != scopes {
		t.Fatalf("a reader's change was kept: %+v, %+v", owner, keys[0])
	}

	if _, err := peer.CreateOwner(&signflow.Client{IN: fixture.OwnerIN, Type: owner.Type, LegalName: "Renamed LLC"}); err != nil {
		t.Fatal(err)
	}
	if owner, _ = read(true); owner.LegalName != "Renamed LLC" {
		t.Errorf("owner renamed on the other node read as %q", owner.LegalName)
	}
	if err := peer.RevokeKey(w.KeyA.ID); err != nil {
		t.Fatal(err)
	}
	_, keys = read(false) // the keys first, after the change
	for _, k := range keys {
		if k.ID == w.KeyA.ID && !k.Revoked {
			t.Errorf("key revoked on the other node read as not revoked")
		}
	}
}
