package e2e

import (
	"net/http"
	"testing"
)

// TestCreateByCancelledAppOnOtherNode: a node whose create takes the app
// from its cache (the template's read confirms it) refuses the app that
// another node cancelled, also where the answer would come before the
// create: a body refused, and a replay of an earlier Idempotency-Key.
// Each case on a cluster of its own: the first refusal refreshes the cache.
func TestCreateByCancelledAppOnOtherNode(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  func(*provisioned) []byte
		keyed bool
	}{
		{"a create", (*provisioned).contractBody, false},
		{"a malformed body", func(*provisioned) []byte { return []byte(`{"templateId":`) }, false},
		{"a replay", (*provisioned).contractBody, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster(t)
			a, b := c.node(t), c.node(t)
			p := provision(t, a, "")
			auth := []string{"Authorization", "Bearer " + p.token}
			keyed := append([]string{"Idempotency-Key", "create-once-0001"}, auth...)
			mustCall(t, "POST", a.embedded+"/v1/contracts", p.contractBody(), nil, keyed...)
			createContract(t, a, p) // the app now comes from a's cache
			if status := call(t, http.DefaultClient, "POST", b.admin+"/admin/v1/apps/"+p.appID+"/cancel", nil, nil,
				"Authorization", "Bearer "+b.adminToken); status != http.StatusNoContent {
				t.Fatalf("cancel through the other node: status %d", status)
			}
			header := auth
			if tc.keyed {
				header = keyed
			}
			if status := call(t, http.DefaultClient, "POST", a.embedded+"/v1/contracts", tc.body(p), nil, header...); status != http.StatusForbidden {
				t.Errorf("status %d, want 403", status)
			}
		})
	}
}
