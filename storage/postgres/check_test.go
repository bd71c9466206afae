package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"testing"

	"contracts/signflow"
	"contracts/storage/postgres"

	"github.com/jackc/pgx/v5"
)

// assertConsistent fails the test for every row beside a record that
// disagrees with it: the columns kept beside the JSON, the party rows, the
// counts, the name words and the claim columns of the outbox.
func assertConsistent(tb testing.TB, s *postgres.Store) {
	tb.Helper()
	for _, p := range problems(tb, s) {
		tb.Error(p)
	}
}

func problems(tb testing.TB, s *postgres.Store) []string {
	ctx := context.Background()
	pool := postgres.Pool(s)
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	rows := func(sql string, each func(pgx.Rows) error) {
		tb.Helper()
		r, err := pool.Query(ctx, sql)
		if err != nil {
			tb.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			if err := each(r); err != nil {
				tb.Fatal(err)
			}
		}
		if err := r.Err(); err != nil {
			tb.Fatal(err)
		}
	}

	// Contracts: the columns beside the record, one party row per party,
	// and counts that sum to what the party rows say.
	contracts := map[string]*signflow.Contract{}
	rows("SELECT id, seq, number, status, template_id, buyer_in, seller_in, data FROM contracts", func(r pgx.Rows) error {
		var id, number, status, tpl, buyer, seller string
		var seq int64
		var data []byte
		if err := r.Scan(&id, &seq, &number, &status, &tpl, &buyer, &seller, &data); err != nil {
			return err
		}
		c := new(signflow.Contract)
		if err := json.Unmarshal(data, c); err != nil {
			return err
		}
		if c.ID != id || uint64(seq) != c.Seq || number != c.Number || status != c.Status || tpl != c.TemplateID || buyer != c.BuyerIN || seller != c.SellerIN {
			bad("contract %s: columns %d %s %s %s %s %s disagree with the record", id, seq, number, status, tpl, buyer, seller)
		}
		contracts[id] = c
		return nil
	})
	type tally struct{ party, template, status string }
	want := map[tally]int64{}
	type pairTally struct{ party, other, template, status string }
	wantPairs := map[pairTally]int64{}
	parties := map[string]int{}
	rows("SELECT party_in, seq, other_in, status, template_id, contract_id FROM contract_parties", func(r pgx.Rows) error {
		var party, other, status, tpl, id string
		var seq int64
		if err := r.Scan(&party, &seq, &other, &status, &tpl, &id); err != nil {
			return err
		}
		c := contracts[id]
		if c == nil || !c.HasParty(party) || c.Counterparty(party) != other || uint64(seq) != c.Seq || status != c.Status || tpl != c.TemplateID {
			bad("contract_parties %s/%d -> %s: stale or astray", party, seq, id)
			return nil
		}
		parties[id]++
		wantPairs[pairTally{party, other, tpl, status}]++
		for _, t := range []string{"*", tpl} {
			for _, st := range []string{"*", status} {
				want[tally{party, t, st}]++
			}
		}
		return nil
	})
	for id, c := range contracts {
		if parties[id] != 2 {
			bad("contract %s has %d party rows, want 2", c.Number, parties[id])
		}
	}
	got := map[tally]int64{}
	rows("SELECT party_in, template_id, status, sum(n) FROM contract_counts GROUP BY 1, 2, 3", func(r pgx.Rows) error {
		var k tally
		var n int64
		if err := r.Scan(&k.party, &k.template, &k.status, &n); err != nil {
			return err
		}
		if n != 0 {
			got[k] = n
		}
		return nil
	})
	for k, n := range want {
		if got[k] != n {
			bad("contract_counts %+v = %d, the party rows say %d", k, got[k], n)
		}
	}
	for k, n := range got {
		if want[k] == 0 {
			bad("contract_counts %+v = %d for no contract", k, n)
		}
	}

	gotPairs := map[pairTally]int64{}
	rows("SELECT party_in, other_in, template_id, status, sum(n) FROM contract_pair_counts GROUP BY 1, 2, 3, 4", func(r pgx.Rows) error {
		var k pairTally
		var n int64
		if err := r.Scan(&k.party, &k.other, &k.template, &k.status, &n); err != nil {
			return err
		}
		if n != 0 {
			gotPairs[k] = n
		}
		return nil
	})
	for k, n := range wantPairs {
		if gotPairs[k] != n {
			bad("contract_pair_counts %+v = %d, the party rows say %d", k, gotPairs[k], n)
		}
	}
	for k, n := range gotPairs {
		if wantPairs[k] == 0 {
			bad("contract_pair_counts %+v = %d for no contract", k, n)
		}
	}

	// Stats: every contract by status and by the day it was created.
	wantStats := map[string]int64{}
	for _, c := range contracts {
		wantStats["s"+c.Status]++
		wantStats["d"+signflow.Day(c.CreatedAt)]++
	}
	gotStats := map[string]int64{}
	rows("SELECT key, sum(n) FROM contract_stats GROUP BY key", func(r pgx.Rows) error {
		var key string
		var n int64
		if err := r.Scan(&key, &n); err != nil {
			return err
		}
		if n != 0 {
			gotStats[key] = n
		}
		return nil
	})
	if fmt.Sprint(gotStats) != fmt.Sprint(wantStats) {
		bad("contract_stats %v, the contracts say %v", gotStats, wantStats)
	}

	// Name words: exactly the words of each owner's and each claim's name.
	words := func(records, names, cols string) {
		wantWords, gotWords := map[string]bool{}, map[string]bool{}
		rows("SELECT "+cols+", data FROM "+records, func(r pgx.Rows) error {
			var key string
			var data []byte
			if err := r.Scan(&key, &data); err != nil {
				return err
			}
			c := new(signflow.Client)
			if err := json.Unmarshal(data, c); err != nil {
				return err
			}
			for _, w := range c.NameWords() {
				wantWords[key+" "+w] = true
			}
			return nil
		})
		rows("SELECT "+cols+", word FROM "+names, func(r pgx.Rows) error {
			var key, w string
			if err := r.Scan(&key, &w); err != nil {
				return err
			}
			gotWords[key+" "+w] = true
			return nil
		})
		for k := range gotWords {
			if !wantWords[k] {
				bad("%s: stale word %q", names, k)
			}
		}
		for k := range wantWords {
			if !gotWords[k] {
				bad("%s: missing word %q", names, k)
			}
		}
	}
	words("owners", "owner_names", "client_in")
	words("claims", "claim_names", "tenant || ' ' || client_in")

	// Sessions and deliveries: the columns that lookups, expiry and claims use.
	rows("SELECT id, token_hash, contract_id, status, expires_ns, data FROM sessions", func(r pgx.Rows) error {
		var id, contract, status string
		var token []byte
		var expires int64
		var data []byte
		if err := r.Scan(&id, &token, &contract, &status, &expires, &data); err != nil {
			return err
		}
		ss := new(signflow.SignSession)
		if err := json.Unmarshal(data, ss); err != nil {
			return err
		}
		if ss.ID != id || string(ss.TokenHash) != string(token) || ss.ContractID != contract || ss.Status != status || ss.ExpiresAt.UnixNano() != expires {
			bad("session %s: columns disagree with the record", id)
		}
		return nil
	})
	rows("SELECT id, contract_id, target, status, next_ns, avail_ns, claimed_by, data FROM deliveries", func(r pgx.Rows) error {
		var id, contract, target, status string
		var next, avail int64
		var claimedBy *string
		var data []byte
		if err := r.Scan(&id, &contract, &target, &status, &next, &avail, &claimedBy, &data); err != nil {
			return err
		}
		d := new(signflow.Delivery)
		if err := json.Unmarshal(data, d); err != nil {
			return err
		}
		if d.ID != id || d.ContractID != contract || d.Target != target || d.Status != status || d.NextAt.UnixNano() != next ||
			(claimedBy == nil) != (avail == next) {
			bad("delivery %s: columns disagree with the record or the claim", id)
		}
		return nil
	})
	sort.Strings(out)
	return slices.Compact(out)
}
