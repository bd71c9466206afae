package postgres_test

import (
	"strings"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// TestContractRowsInline: a contract's record of more than 2 KB, which
// PostgreSQL would compress, is stored as written, and the setting holds
// when the store opens again.
func TestContractRowsInline(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := pgtest.OpenURL(t, url)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	c := &signflow.Contract{ID: "inline", Status: signflow.StatusCreated, TemplateID: "tpl", BuyerIN: rowsBuyer, SellerIN: rowsSeller,
		Purpose: strings.Repeat("Sotuvchi va xaridor kelishib oldilar. ", 80), CreatedAt: now, UpdatedAt: now, Version: 1}
	if err := s.Update(func(tx signflow.Tx) (err error) {
		if c.Seq, err = tx.NextContractSeq(); err != nil {
			return err
		}
		return tx.PutContract(c)
	}); err != nil {
		t.Fatal(err)
	}
	var stored, length int
	if err := postgres.Pool(s).QueryRow(t.Context(),
		"SELECT pg_column_size(data), octet_length(data::text) FROM contracts WHERE id = $1", c.ID).Scan(&stored, &length); err != nil {
		t.Fatal(err)
	}
	if length < 3000 || stored < length {
		t.Fatalf("the record of %d bytes is stored in %d", length, stored)
	}
	s.Close()
	s2 := pgtest.OpenURL(t, url)
	var n int
	if err := postgres.Pool(s2).QueryRow(t.Context(), `SELECT count(*) FROM pg_class
		WHERE relname IN ('contracts', 'deliveries') AND 'toast_tuple_target=8160' = ANY (reloptions)`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("%d of contracts and deliveries keep their rows inline after reopening", n)
	}
}
