package signpage_test

import (
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// MyID's web face check in real Chromium: Sign opens a MyID session bound
// to the signer's PINFL and the popup goes to MyID's page; MyID sends it
// back with auth_code. Another person's face: refused, nothing signed. A
// reason_code: the page says why, in its language. The signer's face:
// signed. One client-credentials token serves the three sessions.
func TestBrowserMyIDWebFlow(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true, myidWeb: true})
	ctx := browsertest.Start(t)
	c := e.contractOf(t, e.myidT)
	sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "ru"})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	myid := func(face string, reason int, button string) {
		t.Helper()
		e.myidWeb.Face(face, reason)
		browsertest.Click(t, ctx, "button", button)
	}

	myid(fixture.UnknownIN, 0, "Подписать")
	browsertest.WaitText(t, ctx, "Проверка подтвердила другого человека, а не подписанта этого договора.")
	onlyTab(t, ctx)
	if got := e.StoredContract(t, c.ID); got.BuyerStatus != signflow.PartyPending {
		t.Fatalf("after another face: buyer %s", got.BuyerStatus)
	}

	myid("", 3, "Открыть окно MyID снова")
	browsertest.WaitText(t, ctx, "MyID не подтвердил вашу личность (код причины 3)")
	onlyTab(t, ctx)
	browsertest.Screenshot(t, ctx, "ru-myid-web-reason", 820)

	myid(fixture.CustomerIN, 0, "Открыть окно MyID снова")
	browsertest.WaitText(t, ctx, "Договор подписан")
	got := e.StoredContract(t, c.ID)
	if got.BuyerStatus != signflow.PartyAccepted || got.Signatures[fixture.CustomerIN].Method != signflow.MethodMyID || e.StoredSession(t, sess.ID).Status != signflow.SessionSigned {
		t.Fatalf("after signing: buyer %s", got.BuyerStatus)
	}

	e.myidWeb.Lock()
	defer e.myidWeb.Unlock()
	if e.myidWeb.ClientTokens != 1 || e.myidWeb.SessionsOpened != 3 {
		t.Fatalf("%d client tokens for %d sessions, want 1 for 3", e.myidWeb.ClientTokens, e.myidWeb.SessionsOpened)
	}
	s, q := e.myidWeb.LastSession, e.myidWeb.LastPage
	if s["external_id"] != sess.ID || s["ip_address"] != "127.0.0.1" || s["max_retries"] != float64(3) {
		t.Fatalf("web/sessions body %v", s)
	}
	if q.Get("pinfl") != fixture.CustomerIN || q.Get("lang") != "ru" || q.Get("session_id") == "" {
		t.Fatalf("MyID page opened with %v", q)
	}
}
