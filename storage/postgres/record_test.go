package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
	"contracts/storage/record/recordtest"
)

// TestStoredRecordsAreEncodingJSON holds what PostgreSQL stores in
// contracts.data and audit.data (written by storage/record's hand
// encoders) to json.Marshal's bytes, for contracts and events filled at
// random (every field, by reflection), and to the same error where
// json.Marshal refuses one. The columns a row is found by are set plainly:
// the records, not the rows' keys, are under test.
func TestStoredRecordsAreEncodingJSON(t *testing.T) {
	s := pgtest.Open(t)
	r := rand.New(rand.NewPCG(5, 6))
	stored := 0
	for i := range 300 {
		c := new(signflow.Contract)
		recordtest.Fill(r, reflect.ValueOf(c).Elem())
		c.ID, c.Number, c.Seq = fmt.Sprintf("rec-%d", i), fmt.Sprintf("R-%d", i), uint64(1e9+i)
		c.Status, c.TemplateID, c.BuyerIN, c.SellerIN = signflow.StatusCreated, "t", "123456789", "987654321"
		for j := range c.Witnesses {
			c.Witnesses[j].IN = fmt.Sprint(100000000 + j)
		}
		e := new(signflow.AuditEvent)
		recordtest.Fill(r, reflect.ValueOf(e).Elem())
		e.ContractID = c.ID
		wantC, errC := json.Marshal(c)
		wantE, errE := json.Marshal(e)
		err := s.Update(func(tx signflow.Tx) error {
			if err := tx.PutContract(c); err != nil {
				return err
			}
			return tx.AddAudit(e)
		})
		if (err != nil) != (errC != nil || errE != nil) {
			t.Fatalf("record %d: stored with error %v; json.Marshal's %v, %v", i, err, errC, errE)
		}
		if err != nil {
			continue
		}
		stored++
		var gotC, gotE []byte
		row := postgres.Pool(s).QueryRow(context.Background(),
			"SELECT c.data::text, a.data::text FROM contracts c, audit a WHERE c.id = $1 AND a.contract_id = $1", c.ID)
		if err := row.Scan(&gotC, &gotE); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gotC, wantC) {
			t.Fatalf("contract %d stored as\n%s\nwant %s", i, gotC, wantC)
		}
		if !bytes.Equal(gotE, wantE) {
			t.Fatalf("audit event %d stored as\n%s\nwant %s", i, gotE, wantE)
		}
	}
	if stored < 100 {
		t.Fatalf("only %d of 300 records stored", stored)
	}
}
