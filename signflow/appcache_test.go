package signflow

import "testing"

// That a cancelled app or a rotated secret stops a token at once, on one
// node and across nodes, is checked by tokencache_test.go
// (TestCheckedTokensStillExpireRotateAndCancel), server/embedded's
// TestCancelledAndExpiredApps and internal/e2e's TestNodesShareOneDatabase;
// here, appcache.go's rule: a read that raced with a write is never kept.
func TestAppCacheDropsReadsThatRacedAWrite(t *testing.T) {
	var c appCache
	old := &App{ID: "a1", Name: "before"}
	if e, _ := c.get("a1"); e.app != nil {
		t.Fatal("an empty cache holds a1")
	}
	_, epoch := c.get("a1") // a reader starts
	c.forget("a1")          // a write of a1 commits meanwhile
	c.put(cachedApp{app: old}, epoch)
	if e, _ := c.get("a1"); e.app != nil {
		t.Fatalf("kept %+v, read before the write", e.app)
	}

	_, epoch = c.get("a1")
	fresh := &App{ID: "a1", Name: "after"}
	c.put(cachedApp{app: fresh, version: 3}, epoch)
	if e, _ := c.get("a1"); e.app != fresh || e.version != 3 {
		t.Fatalf("kept %+v, want the fresh read", e)
	}
	c.forget("a1")
	if e, _ := c.get("a1"); e.app != nil {
		t.Fatal("a write leaves the app cached")
	}
}
