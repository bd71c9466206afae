package storage_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"contracts/signflow"
	"contracts/storage"
)

// world is a store filled with generated contracts and what was written, so
// that tests can compute the expected answer by brute force.
type world struct {
	db        *storage.DB
	owner     string
	templates []string
	clients   []*signflow.Client
	contracts []*signflow.Contract // in creation order
}

var (
	firstNames = []string{"Aziz", "Bobur", "Dilnoza", "Farrux", "Gulnora", "Jasur", "Kamola", "Laziz", "Madina", "Nodir",
		"Otabek", "Rustam", "Sardor", "Shahzoda", "Timur", "Umid", "Vali", "Yulduz", "Zafar", "Zarina"}
	lastNames = []string{"Karimov", "Rahimov", "Aliyev", "Tursunov", "Yusupov", "Qodirov", "Ismoilov", "Nazarov",
		"Saidov", "Xolmatov", "Ergashev", "Mirzayev", "Sobirov", "Hakimov", "Abdullayev", "Jurayev", "Umarov",
		"Rasulov", "Sultonov", "Fayziyev", "Olimov", "Bakirov", "Ahmedov", "Komilov", "Zokirov"}
	allStatuses = []string{signflow.StatusCreated, signflow.StatusCreated, signflow.StatusCreated, signflow.StatusActive,
		signflow.StatusActive, signflow.StatusCancelled, signflow.StatusRejected, signflow.StatusCompleted}
)

const benchOwner = "301234567"

// newWorld writes n contracts of the owner with counterparties chosen among
// nClients clients (every tenth a company), plus others contracts between
// other owners and the same clients. Writes go in batches of 1000 per
// transaction through the real PutContract, so records and indexes are the
// ones the service writes.
func newWorld(tb testing.TB, n, nClients, others int) *world {
	tb.Helper()
	db, err := storage.Open(tb.TempDir()+"/contracts.db", storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	w := &world{db: db, owner: benchOwner}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	must(tb, db.Update(func(tx signflow.Tx) error {
		for i := 0; i < 5; i++ {
			t := &signflow.Template{ID: signflow.NewID(), Name: signflow.Text{UZ: fmt.Sprint("T", i)}, Status: signflow.TemplatePublished,
				Type: "B2C", Purpose: "CONTRACT", ExchangeMode: "GOODS", CreatedAt: now, UpdatedAt: now}
			w.templates = append(w.templates, t.ID)
			if err := tx.PutTemplate(t); err != nil {
				return err
			}
		}
		owner := &signflow.Client{ID: signflow.NewID(), IN: benchOwner, Type: signflow.ClientCompany, LegalName: "Alpha Savdo MChJ"}
		if err := tx.PutOwner(owner); err != nil {
			return err
		}
		for i := 0; i < nClients; i++ {
			c := &signflow.Client{ID: signflow.NewID(), Type: signflow.ClientIndividual, CreatedAt: now, UpdatedAt: now,
				IN: fmt.Sprintf("3%013d", 1000003*(i+1)), FirstName: firstNames[i%len(firstNames)],
				LastName: lastNames[(i/len(firstNames))%len(lastNames)], Phone: "998901234567"}
			if i%10 == 9 {
				c.Type, c.FirstName, c.LastName = signflow.ClientCompany, "", ""
				c.IN, c.LegalName = fmt.Sprintf("2%08d", 7919*(i+1)), fmt.Sprintf("%s-%s Trade MChJ", lastNames[i%len(lastNames)], firstNames[i%len(firstNames)])
			}
			w.clients = append(w.clients, c)
			if err := tx.PutClaim(benchOwner, c); err != nil {
				return err
			}
		}
		return nil
	}))
	otherOwners := []string{"309876543", "305555555", "307777777"}
	total, every := n+others, 0
	if others > 0 {
		every = (n + others) / others
	}
	for start := 0; start < total; start += 1000 {
		must(tb, db.Update(func(tx signflow.Tx) error {
			for i := start; i < start+1000 && i < total; i++ {
				owner := benchOwner
				if every > 0 && i%every == 1 {
					owner = otherOwners[i%len(otherOwners)]
				}
				c, err := w.contract(tx, i, owner, now)
				if err != nil {
					return err
				}
				if err := tx.PutContract(c); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	return w
}

// contract builds the i-th contract the way CreateContract does.
func (w *world) contract(tx signflow.Tx, i int, owner string, now time.Time) (*signflow.Contract, error) {
	other := w.clients[(i*7)%len(w.clients)].IN
	buyer, seller := other, owner
	if i%3 == 0 {
		buyer, seller = owner, other
	}
	at := now.Add(time.Duration(i) * time.Minute)
	c := &signflow.Contract{ID: signflow.NewID(), Status: allStatuses[i%len(allStatuses)], Purpose: "CONTRACT",
		BuyerStatus: signflow.PartyPending, SellerStatus: signflow.PartyPending, BuyerIN: buyer, SellerIN: seller, CreatorIN: owner,
		Price: int64(100000 + i), Currency: "UZS", TemplateID: w.templates[i%len(w.templates)], CreatedAt: at, UpdatedAt: at, Version: 1,
		Values: []signflow.Value{{ID: signflow.NewID(), Value: "Toshkent, Chilonzor 5", TemplateID: w.templates[i%len(w.templates)],
			TemplateFieldID: signflow.NewID(), KeyName: "deliveryAddress", CreatedAt: at, UpdatedAt: at}},
		Payments: []signflow.Payment{}, WitnessIDs: []string{}, Products: []signflow.Product{}}
	var err error
	if c.Seq, err = tx.NextContractSeq(); err != nil {
		return nil, err
	}
	c.Number = fmt.Sprintf("%d-%06d", at.Year(), c.Seq)
	c.Hash = signflow.DocumentHash(c)
	w.contracts = append(w.contracts, c)
	return c, nil
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// expected answers q by decoding nothing but the generated records: the
// reference the indexes must agree with.
func (w *world) expected(q signflow.ContractQuery) (ids []string, total int) {
	names := map[string]*signflow.Client{}
	for _, c := range w.clients {
		names[c.IN] = c
	}
	s := strings.TrimSpace(q.Search)
	var match []*signflow.Contract
	for _, c := range w.contracts {
		if !c.HasParty(q.OwnerIN) || (q.TemplateID != "" && c.TemplateID != q.TemplateID) ||
			(!q.AllTemplates && !slices.Contains(q.TemplateIDs, c.TemplateID)) ||
			(len(q.Statuses) > 0 && !slices.Contains(q.Statuses, c.Status)) {
			continue
		}
		if s != "" && c.Number != s && !strings.HasPrefix(c.Counterparty(q.OwnerIN), s) && !nameMatches(names[c.Counterparty(q.OwnerIN)], s) {
			continue
		}
		match = append(match, c)
	}
	sort.Slice(match, func(i, j int) bool { return match[i].Seq > match[j].Seq })
	for i := q.Page * q.Size; i < len(match) && i < (q.Page+1)*q.Size; i++ {
		ids = append(ids, match[i].ID)
	}
	return ids, len(match)
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func nameMatches(c *signflow.Client, s string) bool {
	if c == nil || len(words(s)) == 0 {
		return false
	}
	have := words(strings.Join([]string{c.FirstName, c.LastName, c.MidName, c.LegalName}, " "))
	for _, w := range words(s) {
		if !slices.ContainsFunc(have, func(h string) bool { return strings.HasPrefix(h, w) }) {
			return false
		}
	}
	return true
}

func (w *world) list(tb testing.TB, q signflow.ContractQuery) (ids []string, total int) {
	tb.Helper()
	must(tb, w.db.View(func(tx signflow.Tx) error {
		page, err := tx.ListContracts(q)
		if err != nil {
			return err
		}
		total = page.Total
		for _, c := range page.Contracts {
			ids = append(ids, c.ID)
		}
		return nil
	}))
	return ids, total
}

// TestListContractsMatchesBruteForce compares every kind of query (filters,
// search by number, party number, name, paging edges, template limits)
// with the answer computed from the written records.
func TestListContractsMatchesBruteForce(t *testing.T) {
	w := newWorld(t, 1500, 120, 400)
	c := w.contracts[700]
	if !c.HasParty(benchOwner) {
		c = w.contracts[702]
	}
	company := w.clients[9]
	foreign := w.contracts[1] // every other-owner contract has i%every == 1
	base := signflow.ContractQuery{OwnerIN: benchOwner, AllTemplates: true, Size: 20}
	with := func(f func(q *signflow.ContractQuery)) signflow.ContractQuery { q := base; f(&q); return q }
	cases := map[string]signflow.ContractQuery{
		"no filter":         base,
		"second page":       with(func(q *signflow.ContractQuery) { q.Page = 1 }),
		"size 100 page 3":   with(func(q *signflow.ContractQuery) { q.Size, q.Page = 100, 3 }),
		"last partial page": with(func(q *signflow.ContractQuery) { q.Size, q.Page = 100, 14 }),
		"page past the end": with(func(q *signflow.ContractQuery) { q.Page = 10000 }),
		"huge page":         with(func(q *signflow.ContractQuery) { q.Page = 1 << 60 }),
		"one status":        with(func(q *signflow.ContractQuery) { q.Statuses = []string{signflow.StatusActive} }),
		"two statuses": with(func(q *signflow.ContractQuery) {
			q.Statuses = []string{signflow.StatusCancelled, signflow.StatusRejected}
		}),
		"unused status": with(func(q *signflow.ContractQuery) { q.Statuses = []string{signflow.StatusSignedByBuyer} }),
		"template":      with(func(q *signflow.ContractQuery) { q.TemplateID = w.templates[2] }),
		"template and status": with(func(q *signflow.ContractQuery) {
			q.TemplateID, q.Statuses = w.templates[1], []string{signflow.StatusCreated}
		}),
		"limited key": with(func(q *signflow.ContractQuery) { q.AllTemplates, q.TemplateIDs = false, w.templates[:2] }),
		"limited, other filter": with(func(q *signflow.ContractQuery) {
			q.AllTemplates, q.TemplateIDs, q.TemplateID = false, w.templates[:2], w.templates[3]
		}),
		"other owner":          with(func(q *signflow.ContractQuery) { q.OwnerIN = "309876543" }),
		"unknown owner":        with(func(q *signflow.ContractQuery) { q.OwnerIN = "399999999" }),
		"number":               with(func(q *signflow.ContractQuery) { q.Search = c.Number }),
		"number, other status": with(func(q *signflow.ContractQuery) { q.Search, q.Statuses = c.Number, []string{"NONE"} }),
		"number padded":        with(func(q *signflow.ContractQuery) { q.Search = "  " + c.Number + " " }),
		"party number":         with(func(q *signflow.ContractQuery) { q.Search = c.Counterparty(benchOwner) }),
		"party number prefix":  with(func(q *signflow.ContractQuery) { q.Search = c.Counterparty(benchOwner)[:6] }),
		"one digit prefix":     with(func(q *signflow.ContractQuery) { q.Search = "3" }),
		"company number":       with(func(q *signflow.ContractQuery) { q.Search = company.IN }),
		"first name prefix":    with(func(q *signflow.ContractQuery) { q.Search = "azi" }),
		"two words":            with(func(q *signflow.ContractQuery) { q.Search = "Aziz Rahim" }),
		"two words reversed":   with(func(q *signflow.ContractQuery) { q.Search = "rahimov AZIZ" }),
		"company name dashed":  with(func(q *signflow.ContractQuery) { q.Search = strings.Join(words(company.LegalName)[:2], "-") }),
		"other owner's number": with(func(q *signflow.ContractQuery) { q.Search = foreign.Number }),
		"name and template":    with(func(q *signflow.ContractQuery) { q.Search, q.TemplateID = "Karimov", w.templates[0] }),
		"name, deep page":      with(func(q *signflow.ContractQuery) { q.Search, q.Page, q.Size = "karimov", 2, 7 }),
		"owner's own name":     with(func(q *signflow.ContractQuery) { q.Search = "Alpha" }),
		"no match":             with(func(q *signflow.ContractQuery) { q.Search = "qwerty" }),
		"punctuation only":     with(func(q *signflow.ContractQuery) { q.Search = "--" }),
	}
	// A search answers from the pair index when it matches few contracts and
	// walks the owner's entries when it matches many: limit 0 forces the walk.
	for _, limit := range []int{1 << 15, 0} {
		restore := storage.SetPairScanLimit(limit)
		for name, q := range cases {
			t.Run(fmt.Sprintf("%s/limit %d", name, limit), func(t *testing.T) {
				wantIDs, wantTotal := w.expected(q)
				gotIDs, gotTotal := w.list(t, q)
				if gotTotal != wantTotal || !slices.Equal(gotIDs, wantIDs) {
					t.Fatalf("total %d, want %d\n got %v\nwant %v", gotTotal, wantTotal, gotIDs, wantIDs)
				}
			})
		}
		restore()
	}
	// The generated data must exercise the cases: guard against a vacuous pass.
	for name, min := range map[string]int{"number": 1, "party number": 2, "party number prefix": 2, "first name prefix": 20,
		"two words": 2, "company name dashed": 1, "company number": 1, "limited key": 100, "two statuses": 100} {
		if _, total := w.expected(cases[name]); total < min {
			t.Errorf("%s: only %d contracts match; the data does not exercise the case", name, total)
		}
	}
}

// TestListContractsSeesChanges checks that a status change is reflected by
// the status filter (the index summaries are rewritten with the record).
func TestListContractsSeesChanges(t *testing.T) {
	w := newWorld(t, 30, 10, 0)
	c := w.contracts[4]
	c.Status = signflow.StatusRejected
	must(t, w.db.Update(func(tx signflow.Tx) error { return tx.PutContract(c) }))
	q := signflow.ContractQuery{OwnerIN: benchOwner, AllTemplates: true, Size: 100, Statuses: []string{signflow.StatusRejected}}
	ids, total := w.list(t, q)
	if !slices.Contains(ids, c.ID) || len(ids) != total {
		t.Fatalf("rejected contract not listed: %v (total %d)", ids, total)
	}
	wantIDs, wantTotal := w.expected(q)
	if total != wantTotal || !slices.Equal(ids, wantIDs) {
		t.Fatalf("got %v (%d), want %v (%d)", ids, total, wantIDs, wantTotal)
	}
}
