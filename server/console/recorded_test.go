package console_test

import (
	"context"
	"html"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The console's contract page shows the parties as the contract's version
// recorded them, as its PDF does: a midName the app added to the buyer
// after the buyer signed is not there.
func TestConsoleContractShowsRecordedParties(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	_, token, err := e.Service.OpenSession(e.Access(t, e.AppA), c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Service.SendCode(context.Background(), token, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Service.ConfirmCode(token, e.SMS.Newest(t, "998901234567").Code(t), signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if got := fixture.MustClaim(t, e.Service, fixture.OwnerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov",
		MidName: "Hacked", Phone: "998901234567"}); got.MidName != "Hacked" {
		t.Fatalf("the claim was not filled: %+v", got)
	}
	b := e.loggedIn(t)
	r := b.get("/console/contracts/" + c.ID + "?lang=en")
	if body := html.UnescapeString(r.Body); r.Status != 200 || !strings.Contains(body, "Karimov") || strings.Contains(body, "Hacked") {
		t.Fatalf("the contract page: %d, shows Hacked: %v", r.Status, strings.Contains(body, "Hacked"))
	}
}
