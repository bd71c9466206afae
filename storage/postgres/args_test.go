package postgres_test

import (
	"math"
	"testing"

	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// TestArrayArguments holds the array arguments of the create's statements
// to the plain slices pgx encodes: PostgreSQL receives the same arrays,
// NULL for nil, in both the binary protocol (a prepared statement) and
// the text of each element.
func TestArrayArguments(t *testing.T) {
	s := pgtest.Open(t)
	pool := postgres.Pool(s)
	for _, v := range [][]string{nil, {}, {""}, {"a", "b,c", `"q"`, `\`, "ўзбек", "NULL", "{x}", " sp "}} {
		var same, null bool
		var text string
		err := pool.QueryRow(t.Context(), "SELECT $1::text[] IS NOT DISTINCT FROM $2::text[], $1::text[] IS NULL, coalesce($1::text[]::text, '-')",
			postgres.TextsArg(v), v).Scan(&same, &null, &text)
		if err != nil {
			t.Fatal(err)
		}
		if !same || null != (v == nil) {
			t.Errorf("%q arrived as %s (NULL %v); want the plain slice's", v, text, null)
		}
	}
	for _, v := range [][]int64{nil, {}, {0, 1, -1, 255, 256, math.MaxInt64, math.MinInt64}} {
		var same, null bool
		err := pool.QueryRow(t.Context(), "SELECT $1::bigint[] IS NOT DISTINCT FROM $2::bigint[], $1::bigint[] IS NULL",
			postgres.Int64sArg(v), v).Scan(&same, &null)
		if err != nil {
			t.Fatal(err)
		}
		if !same || null != (v == nil) {
			t.Errorf("%v arrived otherwise (NULL %v)", v, null)
		}
	}
}
