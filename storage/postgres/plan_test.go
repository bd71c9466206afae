package postgres_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
	"contracts/storage/storagetest"

	"github.com/jackc/pgx/v5"
)

// Lists and searches walk indexes: over a realistic spread of data (most
// contracts one owner's, thousands of clients), the plan of no selective
// list or search reads a whole table of contracts, party rows, counts or
// claims' name words, nor sorts the owner's contracts. (A search that matches nearly
// everything, such as one digit, may scan: it reads nearly everything.)
func TestListPlansUseIndexes(t *testing.T) {
	s := pgtest.Open(t)
	w := storagetest.NewWorld(t, s, 10_000, 1_000, 1_000)
	pool := postgres.Pool(s)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	mid := w.Contracts[len(w.Contracts)/2]
	if !mid.HasParty(w.Owner) {
		mid = w.Contracts[len(w.Contracts)/2+1]
	}
	party := mid.Counterparty(w.Owner)
	q := func(f func(q *signflow.ContractQuery)) signflow.ContractQuery {
		v := signflow.ContractQuery{OwnerIN: w.Owner, AllTemplates: true, Size: 20}
		f(&v)
		return v
	}
	cases := map[string]signflow.ContractQuery{
		"no filter": q(func(*signflow.ContractQuery) {}),
		"status":    q(func(q *signflow.ContractQuery) { q.Statuses = []string{signflow.StatusActive} }),
		"two statuses": q(func(q *signflow.ContractQuery) {
			q.Statuses = []string{signflow.StatusRejected, signflow.StatusCompleted}
		}),
		"template":            q(func(q *signflow.ContractQuery) { q.TemplateID = w.Templates[3] }),
		"limited key":         q(func(q *signflow.ContractQuery) { q.AllTemplates, q.TemplateIDs = false, w.Templates[:2] }),
		"deep page":           q(func(q *signflow.ContractQuery) { q.Page = 200 }),
		"counterparty":        q(func(q *signflow.ContractQuery) { q.Counterparties = []string{party} }),
		"number":              q(func(q *signflow.ContractQuery) { q.Search = mid.Number }),
		"party number":        q(func(q *signflow.ContractQuery) { q.Search = party }),
		"party number prefix": q(func(q *signflow.ContractQuery) { q.Search = party[:9] }),
		"name word":           q(func(q *signflow.ContractQuery) { q.Search = "zafar" }),
		"two name words":      q(func(q *signflow.ContractQuery) { q.Search = "Zafar Tursun" }),
		"name and status":     q(func(q *signflow.ContractQuery) { q.Search, q.Statuses = "zafar", []string{signflow.StatusCreated} }),
	}
	// Owners are few: their name words fit in a page or two, read whole.
	wholeTable := regexp.MustCompile(`Seq Scan on (contracts|contract_parties|claim_names|contract_counts)\b`)
	for name, cq := range cases {
		t.Run(name, func(t *testing.T) {
			count, countArgs, page, pageArgs, ok := postgres.ListSQL(cq)
			if !ok {
				t.Fatal("the query matches nothing")
			}
			for _, st := range []struct {
				sql  string
				args []any
			}{{count, countArgs}, {page, pageArgs}} {
				plan := explain(t, s, st.sql, st.args)
				if m := wholeTable.FindString(plan); m != "" {
					t.Errorf("%s:\n%s", m, plan)
				}
				if strings.Contains(st.sql, "ORDER BY") && cq.Search == "" && cq.Counterparties == nil && strings.Contains(plan, "Sort Key: p.seq") {
					t.Errorf("the owner's contracts are sorted, not walked in order:\n%s", plan)
				}
			}
		})
	}
}

// A witness id is found through the claims' index by id, not by reading
// every claim there is. (Owners are few: their table may be read whole.)
func TestClientByIDPlanUsesIndexes(t *testing.T) {
	s := pgtest.Open(t)
	w := storagetest.NewWorld(t, s, 100, 2_000, 100)
	if _, err := postgres.Pool(s).Exec(context.Background(), "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	plan := explain(t, s, postgres.ClientByIDSQL, []any{w.Owner, signflow.NewID()})
	if m := regexp.MustCompile(`Seq Scan on claims\b`).FindString(plan); m != "" {
		t.Errorf("%s:\n%s", m, plan)
	}
}

func explain(t *testing.T, s *postgres.Store, sql string, args []any) string {
	t.Helper()
	return explainOn(t, postgres.Pool(s), sql, args)
}

// explainOn is explain on q: a pool, or a connection set up for the plan.
func explainOn(t *testing.T, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, sql string, args []any) string {
	t.Helper()
	rows, err := q.Query(context.Background(), "EXPLAIN "+sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// A write's first statement confirms the claims its creates took on trust
// by their keys, not by reading every claim there is: in the plan made for
// any arguments (the statement is prepared once a connection), on a
// database never analysed as on one analysed.
func TestConfirmTrustPlanUsesIndexes(t *testing.T) {
	s := pgtest.Open(t)
	w := storagetest.NewWorld(t, s, 100, 2_000, 100)
	ctx := context.Background()
	conn, err := postgres.Pool(s).Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(ctx, "RESET plan_cache_mode")
	args := []any{[]string{signflow.NewID()}, 4, []string{w.Owner, w.Owner}, []string{w.Owner, "39999999999"}}
	for _, when := range []string{"not analysed", "analysed"} {
		if when == "analysed" {
			if _, err := conn.Exec(ctx, "ANALYZE"); err != nil {
				t.Fatal(err)
			}
		}
		plan := explainOn(t, conn, postgres.ConfirmTrustSQL, args)
		if m := regexp.MustCompile(`Seq Scan on claims\b`).FindString(plan); m != "" {
			t.Errorf("%s: %s:\n%s", when, m, plan)
		}
	}
}
