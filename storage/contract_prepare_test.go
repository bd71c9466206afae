package storage

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"contracts/signflow"
	"contracts/storage/record"
	"contracts/storage/record/recordtest"
)

// TestPreparedRecordIsEncodeContract holds the create's spliced record to
// the plain encoder: contracts filled at random (every field, by
// reflection) are prepared, then given what a create's write sets (number,
// sequence, hash, parties, witnesses) at random, and the record written is
// record.Contract's, byte for byte, whichever way it took.
func TestPreparedRecordIsEncodeContract(t *testing.T) {
	db := &DB{}
	r := rand.New(rand.NewPCG(3, 4))
	spliced := 0
	for i := range 3000 {
		c := new(signflow.Contract)
		recordtest.Fill(r, reflect.ValueOf(c).Elem())
		if r.IntN(4) > 0 { // ids as a create's, else random (some too long for the room)
			c.ID = "01a20000-0000-7000-8000-000000000000"
		}
		db.PrepareContract(c)
		written := new(signflow.Contract)
		recordtest.Fill(r, reflect.ValueOf(written).Elem())
		c.Seq, c.Hash, c.Parties, c.Witnesses = written.Seq, written.Hash, written.Parties, written.Witnesses
		c.Number = written.Number
		if r.IntN(2) == 0 {
			c.Number = "2026-" + strings.Repeat("7", r.IntN(30))
		}
		if _, prepared := db.prepared.m[c]; prepared {
			spliced++
		}
		got, encErr := (&tx{db: db}).encodeRecord(c)
		if _, still := db.prepared.m[c]; still {
			t.Fatalf("contract %d: prepared terms kept after their write", i)
		}
		db.ReleaseContract(c)
		want, wantErr := record.Contract(c)
		if jsonWant, jsonErr := json.Marshal(c); (jsonErr == nil) != (wantErr == nil) || !bytes.Equal(want, jsonWant) {
			t.Fatalf("contract %d: record.Contract is not json.Marshal", i)
		}
		if (encErr != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("contract %d: %v\n got %s\nwant %s", i, encErr, got, want)
		}
	}
	if spliced < 1000 {
		t.Fatalf("only %d of 3000 records prepared", spliced)
	}
}
