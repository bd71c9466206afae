package signpage_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The CSP's frame-ancestors is rebuilt from the session's parsed origin: a
// session stored with text that is no origin (as sessions could be before
// origins were checked) lets no page frame the signing page.
func TestFrameAncestorsFromParsedOrigin(t *testing.T) {
	e := newEnv(t, 0, "Acme")
	c := e.contract(t)
	sess, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: "https://Shop.Example:8443"})
	if csp := e.do(t, "GET", url, "").Header.Values("Content-Security-Policy"); len(csp) != 2 || csp[0] != "frame-ancestors https://shop.example:8443" {
		t.Fatalf("CSP %q", csp)
	}
	for _, stored := range []string{"https://*", "https://a.example;sandbox", "https://a.example,https:", "https://'none'"} {
		err := e.Store.Update(func(tx signflow.Tx) error {
			s, err := tx.Session(sess.ID)
			if err != nil {
				return err
			}
			s.ParentOrigin = stored
			return tx.PutSession(s)
		})
		if err != nil {
			t.Fatal(err)
		}
		if csp := e.do(t, "GET", url, "").Header.Values("Content-Security-Policy"); len(csp) != 2 || csp[0] != "frame-ancestors 'none'" {
			t.Fatalf("stored %q: CSP %q", stored, csp)
		}
	}
}
