package storagetest

import (
	"slices"
	"strings"
	"testing"

	"contracts/signflow"
)

// testListMatchesBruteForce compares every kind of query (filters,
// search by number, party number, name, paging edges, template limits)
// with the answer computed from the written records.
func testListMatchesBruteForce(t *testing.T, e Engine) {
	w := NewWorld(t, e.Open(t), 1500, 120, 400)
	c := w.Contracts[700]
	if !c.HasParty(BenchOwner) {
		c = w.Contracts[702]
	}
	company := w.Clients[9]
	foreign := w.Contracts[1] // every other-owner contract has i%every == 1
	base := signflow.ContractQuery{OwnerIN: BenchOwner, AllTemplates: true, Size: 20}
	with := func(f func(q *signflow.ContractQuery)) signflow.ContractQuery { q := base; f(&q); return q }
	cases := map[string]signflow.ContractQuery{
		"no filter":         base,
		"second page":       with(func(q *signflow.ContractQuery) { q.Page = 1 }),
		"size 100 page 3":   with(func(q *signflow.ContractQuery) { q.Size, q.Page = 100, 3 }),
		"last partial page": with(func(q *signflow.ContractQuery) { q.Size, q.Page = 100, 14 }),
		"page past the end": with(func(q *signflow.ContractQuery) { q.Page = 10000 }),
		"older half":        with(func(q *signflow.ContractQuery) { q.Size, q.Page = 7, 150 }),
		"oldest page":       with(func(q *signflow.ContractQuery) { q.Size, q.Page = 9, 158 }),
		"older half, status": with(func(q *signflow.ContractQuery) {
			q.Size, q.Page, q.Statuses = 5, 60, []string{signflow.StatusCreated, signflow.StatusActive}
		}),
		"older half, template": with(func(q *signflow.ContractQuery) { q.Size, q.Page, q.TemplateID = 3, 70, w.Templates[1] }),
		"huge page":            with(func(q *signflow.ContractQuery) { q.Page = 1 << 60 }),
		"one status":           with(func(q *signflow.ContractQuery) { q.Statuses = []string{signflow.StatusActive} }),
		"two statuses": with(func(q *signflow.ContractQuery) {
			q.Statuses = []string{signflow.StatusCancelled, signflow.StatusRejected}
		}),
		"unused status": with(func(q *signflow.ContractQuery) { q.Statuses = []string{signflow.StatusSignedByBuyer} }),
		"template":      with(func(q *signflow.ContractQuery) { q.TemplateID = w.Templates[2] }),
		"template and status": with(func(q *signflow.ContractQuery) {
			q.TemplateID, q.Statuses = w.Templates[1], []string{signflow.StatusCreated}
		}),
		"limited key": with(func(q *signflow.ContractQuery) { q.AllTemplates, q.TemplateIDs = false, w.Templates[:2] }),
		"limited, other filter": with(func(q *signflow.ContractQuery) {
			q.AllTemplates, q.TemplateIDs, q.TemplateID = false, w.Templates[:2], w.Templates[3]
		}),
		"other owner":          with(func(q *signflow.ContractQuery) { q.OwnerIN = "309876543" }),
		"unknown owner":        with(func(q *signflow.ContractQuery) { q.OwnerIN = "399999999" }),
		"number":               with(func(q *signflow.ContractQuery) { q.Search = c.Number }),
		"number, other status": with(func(q *signflow.ContractQuery) { q.Search, q.Statuses = c.Number, []string{"NONE"} }),
		"number padded":        with(func(q *signflow.ContractQuery) { q.Search = "  " + c.Number + " " }),
		"party number":         with(func(q *signflow.ContractQuery) { q.Search = c.Counterparty(BenchOwner) }),
		"party number prefix":  with(func(q *signflow.ContractQuery) { q.Search = c.Counterparty(BenchOwner)[:6] }),
		"one digit prefix":     with(func(q *signflow.ContractQuery) { q.Search = "3" }),
		"company number":       with(func(q *signflow.ContractQuery) { q.Search = company.IN }),
		"first name prefix":    with(func(q *signflow.ContractQuery) { q.Search = "azi" }),
		"two words":            with(func(q *signflow.ContractQuery) { q.Search = "Aziz Rahim" }),
		"two words reversed":   with(func(q *signflow.ContractQuery) { q.Search = "rahimov AZIZ" }),
		"company name dashed":  with(func(q *signflow.ContractQuery) { q.Search = strings.Join(words(company.LegalName)[:2], "-") }),
		"other owner's number": with(func(q *signflow.ContractQuery) { q.Search = foreign.Number }),
		"name and template":    with(func(q *signflow.ContractQuery) { q.Search, q.TemplateID = "Karimov", w.Templates[0] }),
		"name, deep page":      with(func(q *signflow.ContractQuery) { q.Search, q.Page, q.Size = "karimov", 2, 7 }),
		"owner's own name":     with(func(q *signflow.ContractQuery) { q.Search = "Alpha" }),
		"no match":             with(func(q *signflow.ContractQuery) { q.Search = "qwerty" }),
		"punctuation only":     with(func(q *signflow.ContractQuery) { q.Search = "--" }),
	}
	// Every setting of the engine (such as how a search chooses between
	// its indexes) must give the same answers.
	for variant, restore := range e.variants() {
		for name, q := range cases {
			t.Run(variant+"/"+name, func(t *testing.T) {
				wantIDs, wantTotal := w.Expected(q)
				gotIDs, gotTotal := w.List(t, q)
				if gotTotal != wantTotal || !slices.Equal(gotIDs, wantIDs) {
					t.Fatalf("total %d, want %d\n got %v\nwant %v", gotTotal, wantTotal, gotIDs, wantIDs)
				}
			})
		}
		restore()
	}
	// The generated data must exercise the cases: guard against a vacuous pass.
	for name, min := range map[string]int{"older half": 150*7 + 1, "oldest page": 158*9 + 1, "older half, status": 60*5 + 1, "older half, template": 70*3 + 1, "number": 1, "party number": 2, "party number prefix": 2, "first name prefix": 20,
		"two words": 2, "company name dashed": 1, "company number": 1, "limited key": 100, "two statuses": 100} {
		if _, total := w.Expected(cases[name]); total < min {
			t.Errorf("%s: only %d contracts match; the data does not exercise the case", name, total)
		}
	}
}

// testListSeesChanges checks that a status change is reflected by
// the status filter (the index summaries are rewritten with the record).
func testListSeesChanges(t *testing.T, e Engine) {
	w := NewWorld(t, e.Open(t), 30, 10, 0)
	c := w.Contracts[4]
	c.Status = signflow.StatusRejected
	must(t, w.Store.Update(func(tx signflow.Tx) error { return tx.PutContract(c) }))
	q := signflow.ContractQuery{OwnerIN: BenchOwner, AllTemplates: true, Size: 100, Statuses: []string{signflow.StatusRejected}}
	ids, total := w.List(t, q)
	if !slices.Contains(ids, c.ID) || len(ids) != total {
		t.Fatalf("rejected contract not listed: %v (total %d)", ids, total)
	}
	wantIDs, wantTotal := w.Expected(q)
	if total != wantTotal || !slices.Equal(ids, wantIDs) {
		t.Fatalf("got %v (%d), want %v (%d)", ids, total, wantIDs, wantTotal)
	}
}
