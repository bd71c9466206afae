package storagetest

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"contracts/signflow"
)

// World is a store filled with generated contracts and what was written, so
// that tests can compute the expected answer by brute force.
type World struct {
	Store     signflow.Store
	Owner     string
	Templates []string
	Clients   []*signflow.Client
	Contracts []*signflow.Contract // in creation order
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

// BenchOwner is the owner of most contracts of a generated World.
const BenchOwner = "301234567"

// NewWorld writes n contracts of the owner with counterparties chosen among
// nClients clients (every tenth a company), plus others contracts between
// other owners and the same clients. Writes go in batches of 1000 per
// transaction through the real PutContract, so records and indexes are the
// ones the service writes.
func NewWorld(tb testing.TB, store signflow.Store, n, nClients, others int) *World {
	tb.Helper()
	w := &World{Store: store, Owner: BenchOwner}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// An Update may run its function again: what it wrote is kept once it returns.
	must(tb, store.Update(func(tx signflow.Tx) error {
		w.Templates, w.Clients = nil, nil
		for i := 0; i < 5; i++ {
			t := &signflow.Template{ID: signflow.NewID(), Name: signflow.Text{UZ: fmt.Sprint("T", i)}, Status: signflow.TemplatePublished,
				Type: "B2C", Purpose: "CONTRACT", ExchangeMode: "GOODS", CreatedAt: now, UpdatedAt: now}
			w.Templates = append(w.Templates, t.ID)
			if err := tx.PutTemplate(t); err != nil {
				return err
			}
		}
		owner := &signflow.Client{ID: signflow.NewID(), IN: BenchOwner, Type: signflow.ClientCompany, LegalName: "Alpha Savdo MChJ"}
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
			w.Clients = append(w.Clients, c)
			if err := tx.PutClaim(BenchOwner, c); err != nil {
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
		var batch []*signflow.Contract
		must(tb, store.Update(func(tx signflow.Tx) error {
			batch = batch[:0]
			for i := start; i < start+1000 && i < total; i++ {
				owner := BenchOwner
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
				batch = append(batch, c)
			}
			return nil
		}))
		w.Contracts = append(w.Contracts, batch...)
	}
	return w
}

// contract builds the i-th contract the way CreateContract does.
func (w *World) contract(tx signflow.Tx, i int, owner string, now time.Time) (*signflow.Contract, error) {
	other := w.Clients[(i*7)%len(w.Clients)].IN
	buyer, seller := other, owner
	if i%3 == 0 {
		buyer, seller = owner, other
	}
	at := now.Add(time.Duration(i) * time.Minute)
	c := &signflow.Contract{ID: signflow.NewID(), Status: allStatuses[i%len(allStatuses)], Purpose: "CONTRACT",
		BuyerStatus: signflow.PartyPending, SellerStatus: signflow.PartyPending, BuyerIN: buyer, SellerIN: seller, CreatorIN: owner,
		Price: int64(100000 + i), Currency: "UZS", TemplateID: w.Templates[i%len(w.Templates)], CreatedAt: at, UpdatedAt: at, Version: 1,
		Values: []signflow.Value{{ID: signflow.NewID(), Value: "Toshkent, Chilonzor 5", TemplateID: w.Templates[i%len(w.Templates)],
			TemplateFieldID: signflow.NewID(), KeyName: "deliveryAddress", CreatedAt: at, UpdatedAt: at}},
		Payments: []signflow.Payment{}, WitnessIDs: []string{}, Products: []signflow.Product{}}
	var err error
	if c.Seq, err = tx.NextContractSeq(); err != nil {
		return nil, err
	}
	c.Number = fmt.Sprintf("%d-%06d", at.Year(), c.Seq)
	c.Hash = signflow.DocumentHash(c)
	return c, nil
}

// Expected answers q by decoding nothing but the generated records: the
// reference the indexes must agree with.
func (w *World) Expected(q signflow.ContractQuery) (ids []string, total int) {
	names := map[string]*signflow.Client{}
	for _, c := range w.Clients {
		names[c.IN] = c
	}
	s := strings.TrimSpace(q.Search)
	var match []*signflow.Contract
	for _, c := range w.Contracts {
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

// List answers q through the store.
func (w *World) List(tb testing.TB, q signflow.ContractQuery) (ids []string, total int) {
	tb.Helper()
	must(tb, w.Store.View(func(tx signflow.Tx) error {
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
