package storage

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// A contract written with a number its transaction took looks for no index
// entry of its own (isFresh): the file it leaves is the one the plain way,
// which looks, leaves, over creates and later changes in one batch and apart.
func TestFreshContractIndexesAreThePlainOnes(t *testing.T) {
	const owner, tpl = "301234567", "01a20000-0000-7000-8000-000000000000"
	buyers := []string{"31234567890123", "41234567890123", "51234567890123"}
	contract := func(seq uint64, status string) *signflow.Contract {
		return &signflow.Contract{ID: fmt.Sprintf("01a20000-0000-7000-8000-%012d", seq), Number: fmt.Sprintf("2026-%06d", seq), Seq: seq,
			BuyerIN: buyers[seq%3], SellerIN: owner, Status: status, TemplateID: tpl, BuyerStatus: signflow.PartyPending,
			SellerStatus: signflow.PartyPending, Version: 1}
	}
	fresh, plain := openBatchDB(t, 0), openBatchDB(t, 0)
	write := func(seq uint64, status string) {
		t.Helper()
		err := fresh.Update(func(st signflow.Tx) error {
			if status == signflow.StatusCreated {
				n, err := st.NextContractSeq()
				if err != nil || n != seq {
					return fmt.Errorf("took %d, %v; want %d", n, err, seq)
				}
				if !st.(*tx).hasFresh(seq) {
					return fmt.Errorf("number %d not fresh", seq)
				}
			}
			if err := st.PutContract(contract(seq, status)); err != nil {
				return err
			}
			if st.(*tx).hasFresh(seq) {
				return fmt.Errorf("number %d still fresh after its write", seq)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The plain way: the number set, not taken, so every entry is looked for.
		err = plain.Update(func(st signflow.Tx) error {
			if status == signflow.StatusCreated {
				if err := st.(*tx).bucket(bucketContracts).SetSequence(seq); err != nil {
					return err
				}
			}
			return st.PutContract(contract(seq, status))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for seq := uint64(1); seq <= 6; seq++ {
		write(seq, signflow.StatusCreated)
	}
	write(2, signflow.StatusActive)
	write(3, signflow.StatusCancelled)
	write(2, signflow.StatusCompleted)
	write(7, signflow.StatusCreated)
	// A contract written twice in the transaction that numbered it: the
	// second write finds the first's entries.
	for _, db := range []*DB{fresh, plain} {
		err := db.Update(func(st signflow.Tx) error {
			n, err := st.NextContractSeq()
			if err != nil {
				return err
			}
			if err := st.PutContract(contract(n, signflow.StatusCreated)); err != nil {
				return err
			}
			return st.PutContract(contract(n, signflow.StatusActive))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range [][]byte{bucketContracts, bucketContractNumbers, bucketContractParty, bucketContractPair,
		bucketContractAll, bucketContractCounts, bucketContractStats} {
		if a, b := dumpBucket(t, fresh, name), dumpBucket(t, plain, name); a != b {
			t.Errorf("bucket %s differs:\nfresh %s\nplain %s", name, a, b)
		}
	}
}

func (t *tx) hasFresh(seq uint64) bool { return slices.Contains(t.fresh, seq) }

// dumpBucket is the keys and values of a top-level bucket, and its sequence.
func dumpBucket(t *testing.T, db *DB, name []byte) string {
	t.Helper()
	var out bytes.Buffer
	err := db.Bolt().View(func(btx *bolt.Tx) error {
		b := btx.Bucket(name)
		fmt.Fprintf(&out, "seq %d\n", b.Sequence())
		return b.ForEach(func(k, v []byte) error {
			fmt.Fprintf(&out, "%q=%q\n", k, v)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// summary writes an index entry's fields as they were joined by string
// concatenation before: status, template, counterparty (both parties in
// contract_all), number and id, split by sep.
func TestSummaryIsTheJoinedFields(t *testing.T) {
	c := &signflow.Contract{Status: signflow.StatusActive, TemplateID: "01a20000-0000-7000-8000-000000000000",
		Number: "2026-000042", ID: "01a20000-0000-7000-8000-000000000042", BuyerIN: "31234567890123", SellerIN: "301234567"}
	s := string(rune(sep))
	if got, want := string(summary(c, c.BuyerIN)), c.Status+s+c.TemplateID+s+c.BuyerIN+s+c.Number+s+c.ID; got != want {
		t.Errorf("party entry %q, want %q", got, want)
	}
	if got, want := string(allSummary(c)), c.Status+s+c.TemplateID+s+c.SellerIN+" "+c.BuyerIN+s+c.Number+s+c.ID; got != want {
		t.Errorf("contract_all entry %q, want %q", got, want)
	}
}
