package testtools

import (
	"os"
	"path/filepath"
	"testing"
)

// RepoPath is the path of elem inside the repository: from the directory
// of the test, up to the one holding go.mod.
func RepoPath(tb testing.TB, elem ...string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(append([]string{dir}, elem...)...)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
