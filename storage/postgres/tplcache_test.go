package postgres_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"
)

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
