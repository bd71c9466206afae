package postgres_test

import (
	"errors"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"
)

// readTemplate reads template id in a read-only transaction of s.
func readTemplate(t *testing.T, s signflow.Store, id string) *signflow.Template {
	t.Helper()
	var out *signflow.Template
	fixture.Must(t, func() error {
		return s.View(func(tx signflow.Tx) (err error) { out, err = tx.Template(id); return err })
	})
	return out
}

// renameTemplate changes the template's English name in s.
func renameTemplate(t *testing.T, s signflow.Store, id, name string) {
	t.Helper()
	fixture.Must(t, func() error {
		return s.Update(func(tx signflow.Tx) error {
			tpl, err := tx.Template(id)
			if err != nil {
				return err
			}
			tpl.Name.EN = name
			return tx.PutTemplate(tpl)
		})
	})
}

// TestTemplateCacheSeesOtherNodes holds a store's kept templates to what
// the database holds: a change committed by another node is read at once,
// by a read and by a create, which refuses a template unpublished there.
func TestTemplateCacheSeesOtherNodes(t *testing.T) {
	store := pgtest.Open(t)
	w, app := newBenchWorld(t, store)
	other := pgtest.Peer(t, store)
	id := w.Template.ID
	readTemplate(t, store, id)
	readTemplate(t, store, id)
	renameTemplate(t, other, id, "Renamed elsewhere")
	if got := readTemplate(t, store, id).Name.EN; got != "Renamed elsewhere" {
		t.Fatalf("name %q after another node renamed the template", got)
	}
	fixture.Must(t, func() error { return signflow.NewService(other, w.Options).UnpublishTemplate(id) })
	_, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: id, BuyerIN: fixture.CustomerIN,
		Price: 150000, Currency: "UZS"}, signflow.Actor{})
	if signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("create with a template another node unpublished: %v; want EINVALID", err)
	}
}

// TestTemplateCacheAfterRollback holds the cache to committed rows: a
// transaction that wrote and read a template, then rolled back, leaves
// the version it took, and the next writer (here on another node) takes
// that version again with other data, which must be what is read.
func TestTemplateCacheAfterRollback(t *testing.T) {
	store := pgtest.Open(t)
	w := fixture.NewStandardOn(t, store)
	other := pgtest.Peer(t, store)
	id := w.Template.ID
	readTemplate(t, store, id)
	errUndo := errors.New("undo")
	err := store.Update(func(tx signflow.Tx) error {
		tpl, err := tx.Template(id)
		if err != nil {
			return err
		}
		tpl.Name.EN = "Rolled back"
		if err := tx.PutTemplate(tpl); err != nil {
			return err
		}
		if tpl, err = tx.Template(id); err != nil || tpl.Name.EN != "Rolled back" {
			t.Errorf("read of its own write: %v, %v", tpl, err)
		}
		return errUndo
	})
	if !errors.Is(err, errUndo) {
		t.Fatal(err)
	}
	renameTemplate(t, other, id, "Committed")
	if got := readTemplate(t, store, id).Name.EN; got != "Committed" {
		t.Fatalf("name %q; want the committed one", got)
	}
}

// TestTemplateCacheCopies holds each reader's template apart from the
// kept one: a field assigned by one reader is not seen by the next.
func TestTemplateCacheCopies(t *testing.T) {
	store := pgtest.Open(t)
	w := fixture.NewStandardOn(t, store)
	id := w.Template.ID
	first := readTemplate(t, store, id)
	want := first.Name.EN
	first.Name.EN, first.Status = "Changed in place", signflow.TemplateDraft
	first.Fields = append(first.Fields, signflow.Field{KeyName: "appended"})
	again := readTemplate(t, store, id)
	if again.Name.EN != want || again.Status != signflow.TemplatePublished || again.FieldByKey("appended") != nil {
		t.Fatalf("a reader's change was kept: %+v", again)
	}
}

// A template read with a contract comes from the node's cache of decoded
// templates while its row is unchanged: a change committed through another
// node shows on the next read, and what a reader changes in its copy does
// not leak to the next.
func TestTemplateCacheFollowsOtherNodes(t *testing.T) {
	a := pgtest.Open(t)
	w := fixture.NewStandardOn(t, a)
	peer := pgtest.Peer(t, a)
	c := w.Contract(t)
	read := func() *signflow.Template {
		t.Helper()
		var tpl *signflow.Template
		fixture.Must(t, func() error {
			return a.View(func(tx signflow.Tx) error {
				if _, err := tx.Contract(c.ID); err != nil {
					return err
				}
				var err error
				tpl, err = tx.Template(c.TemplateID)
				return err
			})
		})
		return tpl
	}
	first := read()
	name, fields := first.Name.EN, len(first.Fields)
	first.Name.EN = "changed by a reader"
	first.Fields = append(first.Fields, signflow.Field{ID: "x"})
	again := read()
	if again.Name.EN != name || len(again.Fields) != fields {
		t.Fatalf("a reader's change leaked: %q, %d fields", again.Name.EN, len(again.Fields))
	}
	again.Fields = append(again.Fields, signflow.Field{ID: "y"})
	third := read()
	if len(third.Fields) != fields {
		t.Fatalf("an append leaked: %d fields", len(third.Fields))
	}
	third.Fields = append(third.Fields, signflow.Field{ID: "z"})
	if again.Fields[fields].ID != "y" {
		t.Fatalf("appends of two readers share memory: %q", again.Fields[fields].ID)
	}
	fixture.Must(t, func() error {
		return peer.Update(func(tx signflow.Tx) error {
			tpl, err := tx.Template(c.TemplateID)
			if err != nil {
				return err
			}
			tpl.Name.EN = "Renamed on the other node"
			return tx.PutTemplate(tpl)
		})
	})
	if got := read(); got.Name.EN != "Renamed on the other node" {
		t.Fatalf("after the other node renamed the template: %q", got.Name.EN)
	}
}
