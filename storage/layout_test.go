package storage_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// The bucket tree of docs/ARCHITECTURE.md is the layout's one drawing: a
// new file holds exactly the buckets it draws.
func TestBucketTree(t *testing.T) {
	doc, err := os.ReadFile("../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, tree, ok := strings.Cut(string(doc), "## The bucket tree")
	_, tree, ok2 := strings.Cut(tree, "```\n")
	tree, _, ok3 := strings.Cut(tree, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`docs/ARCHITECTURE.md has no "The bucket tree" drawing`)
	}
	var drawn []string
	for _, line := range strings.Split(strings.TrimSpace(tree), "\n") {
		drawn = append(drawn, strings.Fields(line)[0])
	}
	db, err := storage.Open(t.TempDir()+"/contracts.db", storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var held []string
	err = db.Bolt().View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, _ *bolt.Bucket) error { held = append(held, string(name)); return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(drawn)
	slices.Sort(held)
	if !slices.Equal(drawn, held) {
		t.Fatalf("the bucket tree draws\n%v\nbut a new file holds\n%v", drawn, held)
	}
}
