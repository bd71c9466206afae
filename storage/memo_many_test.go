package storage

import (
	"fmt"
	"strings"
	"testing"

	"contracts/signflow"
)

// The memos of many contracts are kept apart from the record cache: reads
// of more contracts than the record cache holds decoded keep every memo
// while they fit the memos' own budget, and past a budget the memos shrink
// to it, each memo left still the one kept for its contract.
func TestMemosOfManyContracts(t *testing.T) {
	db := openCacheDB(t)
	const n = 2500 // about 5 MB of contracts, past cacheBytes
	ids := make([]string, n)
	err := db.Update(func(tx signflow.Tx) error {
		for i := range ids {
			ids[i] = fmt.Sprintf("01a20000-0000-7000-8000-%012d", i)
			c := &signflow.Contract{ID: ids[i], Number: fmt.Sprintf("2026-%06d", i+1), Seq: uint64(i + 1), Status: signflow.StatusCreated,
				BuyerIN: "31234567890123", SellerIN: "301234567", Purpose: strings.Repeat("p", 2000)}
			if err := tx.PutContract(c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	keepAll := func() {
		t.Helper()
		for _, id := range ids {
			err := db.View(func(tx signflow.Tx) error {
				if _, err := tx.Contract(id); err != nil {
					return err
				}
				tx.(signflow.Memos).KeepMemo(id, "m", "memo of "+id, 100)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	// count is how many contracts have their memo; it fails on a wrong one.
	count := func() int {
		t.Helper()
		kept := 0
		err := db.View(func(tx signflow.Tx) error {
			for _, id := range ids {
				switch m := tx.(signflow.Memos).Memo(id, "m"); m {
				case nil:
				case "memo of " + id:
					kept++
				default:
					t.Fatalf("%s: memo %v", id, m)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return kept
	}
	keepAll()
	if db.cache.size > cacheBytes {
		t.Fatalf("record cache at %d bytes, over its %d", db.cache.size, cacheBytes)
	}
	if kept := count(); kept != n {
		t.Fatalf("%d of %d memos kept, want all", kept, n)
	}

	// The memos weigh their size and the digest of their contract's bytes:
	// 2,500 of them about 420 KB.
	db.memos = newMemoCache(256 << 10)
	keepAll()
	kept := count()
	if db.memos.size > db.memos.max || kept == 0 || kept == n {
		t.Fatalf("a 256 KiB budget: %d bytes kept, %d of %d memos", db.memos.size, kept, n)
	}
}
