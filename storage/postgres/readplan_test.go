package postgres_test

import (
	"context"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// A contract's read statements stay cheap in the planner's eyes on a
// database never analysed (a fresh one, as the ratio runs have): counted
// as thousands of rows, the one row of the credentials version once made
// the read's cost pass jit_above_cost, and every cold read spent 50 ms
// compiling it.
func TestReadStatementsNeedNoJIT(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := pgtest.OpenURL(t, url)
	w := fixture.NewStandardOn(t, s)
	id := w.Contract(t).ID
	pool := postgres.Pool(s)
	ctx := context.Background()
	var jitAbove float64
	if err := pool.QueryRow(ctx, "SELECT current_setting('jit_above_cost')::float8").Scan(&jitAbove); err != nil {
		t.Fatal(err)
	}
	for name, sql := range map[string]string{"contract": postgres.ContractWithPartiesSQL, "memo": postgres.MemoHoldsSQL} {
		var plan []map[string]map[string]any
		if err := pool.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+sql, id, "x").Scan(&plan); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cost, _ := plan[0]["Plan"]["Total Cost"].(float64)
		if cost <= 0 || cost >= jitAbove || cost >= 10_000 {
			t.Errorf("%s: the plan's cost is %v (JIT from %v): %v", name, cost, jitAbove, strings.TrimSpace(sql))
		}
	}
}
