package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// Cancel contract asks first, then cancels as the administrator: the
// audit trail names the admin's act, the webhooks tell of it, and a
// second cancel is refused on the page.
func TestConsoleCancelContract(t *testing.T) {
	e := newEnv(t)
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			a, err := tx.App(e.AppA.ID)
			if err != nil {
				return err
			}
			a.WebhookURL = "https://shop.example/hook"
			return tx.PutApp(a)
		})
	})
	c := e.contract(t)
	b := e.loggedIn(t)
	page := "/console/contracts/" + c.ID
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "confirmation", Path: page + "?confirm=cancel", Status: 200, Want: []string{"Cancel this contract?", ">Confirm</button>", ">Back</a>"},
			Check: func(t *testing.T, _ apitest.Reply) {
				if got, _ := e.Service.AdminContract(c.ID); got.Status != signflow.StatusCreated {
					t.Fatal("asking cancelled")
				}
			}},
		{Name: "cancel", Method: "POST", Path: page + "/cancel", As: pageToken, Body: url.Values{}, Status: http.StatusSeeOther,
			WantHeader: map[string]string{"Location": page + "?cancelled=1"}},
		{Name: "cancelled", Path: page + "?cancelled=1", Status: 200, Want: []string{"The contract was cancelled.", "Cancelled", "Administrator · Admin token"}},
		{Name: "no Cancel contract on a cancelled contract", Path: page, Status: 200, Not: []string{">Cancel contract</button>"}},
	})
	audit, _ := e.Service.AuditTrail(c.ID)
	last := audit[len(audit)-1]
	if last.Type != signflow.EventCancelled || last.Method != signflow.ConfirmAdmin || last.ActorIN != "" || last.IP != "127.0.0.1" {
		t.Errorf("the audit event: %+v", last)
	}
	ds, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
	told := false
	for _, d := range ds {
		told = told || d.Event == signflow.EventCancelled
	}
	if !told {
		t.Error("no webhook tells of the cancellation")
	}
	apitest.Run(t, b.api, []apitest.Scenario{{Name: "second cancel", Method: "POST", Path: page + "/cancel", As: pageToken, Body: url.Values{},
		Status: http.StatusBadRequest, Want: []string{"Only a contract awaiting signatures can be cancelled. This one’s status: Cancelled."}}})
}

// The contract list is paged, 25 to a page, newest first, its filter kept
// in the links between pages.
func TestConsoleContractsPaging(t *testing.T) {
	e := newEnv(t)
	var numbers []string // oldest first
	for i := 0; i < 26; i++ {
		numbers = append(numbers, e.contract(t).Number)
	}
	b := e.loggedIn(t)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the newest", Path: "/console/contracts?status=CREATED", Status: 200, Want: []string{"Found: 26", "Page 1 of 2", ">" + numbers[25] + "</a>",
			`href="/console/contracts?page=1&amp;status=CREATED">Older →`}, Not: []string{">" + numbers[0] + "</a>", "Newer"}},
		{Name: "the oldest", Path: "/console/contracts?status=CREATED&page=1", Status: 200, Want: []string{"Page 2 of 2", ">" + numbers[0] + "</a>",
			`href="/console/contracts?page=0&amp;status=CREATED">← Newer`}, Not: []string{">" + numbers[1] + "</a>", "Older"}},
	})
}

// The list's search is bounded as the key interface's is: a text over
// MaxSearch characters is refused on the page, the filter kept, nothing
// listed; one of MaxSearch characters is searched.
func TestConsoleContractsSearchIsBounded(t *testing.T) {
	e := newEnv(t)
	e.contract(t)
	b := e.loggedIn(t)
	long := strings.Repeat("я", signflow.MaxSearch)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "over the bound", Path: "/console/contracts?search=" + url.QueryEscape(long+"я"), Status: http.StatusBadRequest,
			Want: []string{`role="alert">Refused: search: at most 200 characters</p>`, `value="` + long + `я"`, "Found: 0"}, Not: []string{"<table"}},
		{Name: "at the bound", Path: "/console/contracts?search=" + url.QueryEscape(long), Status: 200,
			Want: []string{"Found: 0"}, Not: []string{`role="alert"`}},
		{Name: "no search", Path: "/console/contracts", Status: 200, Want: []string{"Found: 1", "<table"}},
	})
}

// The contract page shows each witness with its role, number and status.
func TestConsoleContractShowsWitnesses(t *testing.T) {
	e := newEnv(t)
	tpl := fixture.MustTemplate(t, e.Service, fixture.TemplateYAML+"witnessEnabled: true\nwitnessCount: 2\n")
	var ids []string
	for i, last := range []string{"Saidova", "Aliyev"} {
		ids = append(ids, fixture.MustClaim(t, e.Service, fixture.OwnerIN, &signflow.Client{IN: "4111111111115" + string(rune('1'+i)),
			FirstName: "W", LastName: last, Phone: "99890700005" + string(rune('1'+i))}).ID)
	}
	c, err := e.Service.CreateContract(e.Access(t, e.AppA), &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: fixture.CustomerIN,
		Price: 100000, Currency: "UZS", WitnessIDs: ids}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	b := e.loggedIn(t)
	apitest.Run(t, b.api, []apitest.Scenario{{Name: "witnesses", Path: "/console/contracts/" + c.ID, Status: 200,
		Want: []string{"Witnesses", ">Witness<", "Saidova W", "Aliyev W", "PINFL 41111111111151", "PINFL 41111111111152", "Not signed yet"}}})
}
