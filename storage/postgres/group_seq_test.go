package postgres_test

import (
	"slices"
	"strings"
	"testing"

	"contracts/signflow"
)

// TestGroupTakesNumbersAtOnce: writers sharing a transaction get their
// contract numbers from one statement, each its own, in the order they
// run; a lone transaction still takes one number.
func TestGroupTakesNumbersAtOnce(t *testing.T) {
	s, c := groupStore(t)
	var got []uint64 // in the order the writers ran
	var fns []func(signflow.Tx) error
	for range 5 {
		fns = append(fns, func(tx signflow.Tx) error {
			n, err := tx.NextContractSeq()
			got = append(got, n)
			return err
		})
	}
	_, _, sql := c.count(func() {
		for _, err := range grouped(t, s, fns) {
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	if n := strings.Count(sql, "nextval"); n != 1 {
		t.Errorf("%d statements took numbers for a group of %d; want 1:\n%s", n, len(fns), sql)
	}
	rising := len(got) == len(fns) && got[0] > 0
	for i := 1; rising && i < len(got); i++ {
		rising = got[i] > got[i-1]
	}
	if !rising {
		t.Fatalf("numbers %v in the order taken: want %d, each above the last", got, len(fns))
	}
	var alone uint64
	if err := s.Update(func(tx signflow.Tx) (err error) {
		alone, err = tx.NextContractSeq()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if alone <= slices.Max(got) {
		t.Errorf("a later transaction took %d, after the group's %v", alone, got)
	}
}

// TestGroupKeepsClaimsUntilWritten: in a shared transaction a claim read
// by one writer serves the next writers' reads without a statement, and a
// writer that changes it makes the next ones read what it wrote.
func TestGroupKeepsClaimsUntilWritten(t *testing.T) {
	s, c := groupStore(t)
	const tenant, in = "301234567", "31234567890123"
	if err := s.Update(func(tx signflow.Tx) error {
		return tx.PutClaim(tenant, &signflow.Client{IN: in, FirstName: "Aziz"})
	}); err != nil {
		t.Fatal(err)
	}
	// The writers run in the order they came to wait: names holds what
	// each read in the order read, wrote the name "Bobur" was written.
	var names []string
	wrote := -1
	read := func(tx signflow.Tx) error {
		cl, err := tx.Claim(tenant, in)
		if err == nil {
			names = append(names, cl.FirstName)
		}
		return err
	}
	fns := []func(signflow.Tx) error{read, read, func(tx signflow.Tx) error {
		cl, err := tx.Claim(tenant, in)
		if err != nil {
			return err
		}
		cl.FirstName = "Bobur"
		if err := tx.PutClaim(tenant, cl); err != nil {
			return err
		}
		wrote = len(names)
		return read(tx)
	}, read}
	_, _, sql := c.count(func() {
		for _, err := range grouped(t, s, fns) {
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	if wrote < 0 || len(names) != 4 {
		t.Fatalf("the writers read %q", names)
	}
	for i, name := range names {
		if want := map[bool]string{false: "Aziz", true: "Bobur"}[i >= wrote]; name != want {
			t.Errorf("read %d of %q (written before read %d): %q; want %q", i, names, wrote, name, want)
		}
	}
	if n := strings.Count(sql, "FROM claims WHERE"); n != 2 {
		t.Errorf("%d reads of the claim in the group; want 2 (the first, and after the write):\n%s", n, sql)
	}
}
