package postgres

import (
	"fmt"
	"sort"
	"strings"

	"contracts/signflow"
)

// The administrator's view of every contract reads the contracts table
// itself, newest first by seq; its counts are contract_stats, kept with
// each contract write as bbolt keeps them: "s<status>" counts every
// contract by status, "d<YYYY-MM-DD>" the contracts created that UTC day,
// each spread over shards as the party counts are.

func (t *tx) Owners() ([]*signflow.Client, error) {
	return list[signflow.Client](t, "SELECT data FROM owners ORDER BY client_in")
}

func (t *tx) Apps() ([]*signflow.App, error) {
	return list[signflow.App](t, "SELECT data FROM apps ORDER BY id")
}

func (t *tx) Keys() ([]*signflow.APIKey, error) {
	return list[signflow.APIKey](t, "SELECT data FROM api_keys ORDER BY id")
}

func (t *tx) ContractStats(since string) (*signflow.ContractStats, error) {
	out := &signflow.ContractStats{ByStatus: map[string]int{}, PerDay: map[string]int{}}
	t.queueCounts()
	rows, err := t.query(`SELECT key, sum(n) FROM contract_stats
		WHERE key >= 'd' || $1 AND key < 'e' OR key >= 's' AND key < 't' GROUP BY key`, since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var n int64
		if err := rows.Scan(&key, &n); err != nil {
			return nil, err
		}
		switch {
		case key[0] == 'd':
			out.PerDay[key[1:]] = int(n)
		case n > 0:
			out.ByStatus[key[1:]] = int(n)
		}
	}
	return out, rows.Err()
}

// statDeltas are the changes of one contract write to contract_stats.
type statDeltas map[string]int64

func (d statDeltas) add(key string, n int64) {
	if d[key] += n; d[key] == 0 {
		delete(d, key)
	}
}

// columns are the deltas as the arrays of the upsert, in key order, so
// that two writers lock the rows they share in the same order.
func (d statDeltas) columns(shard int16) []any {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	shards, ns := make([]int16, len(keys)), make([]int64, len(keys))
	for i, k := range keys {
		shards[i], ns[i] = shard, d[k]
	}
	return []any{texts(keys), shards, int64s(ns)}
}

// everyoneSQL builds the statements of a list of every contract (the
// administrator's), as listSQL does for one owner's: a walk of the
// contracts newest first, or, for a selective search, the contracts of the
// sequence numbers its matches gather from indexes.
func everyoneSQL(q signflow.ContractQuery, walk bool) (*listStatements, bool) {
	statuses, ok1 := validTexts(q.Statuses)
	scope, ok2 := validTexts(q.TemplateScope())
	if !ok1 || !ok2 || (scope != nil && len(scope) == 0) {
		return nil, false
	}
	l := &listQuery{}
	l.and("true")
	if len(statuses) > 0 {
		l.and("c.status = ANY(%s)", l.arg(statuses))
	}
	if scope != nil {
		l.and("c.template_id = ANY(%s)", l.arg(scope))
	}
	st := &listStatements{}
	from := "contracts c"
	search := strings.TrimSpace(q.Search)
	if search != "" {
		parts := l.everyoneParts(search)
		if len(parts) == 0 {
			return nil, false
		}
		var hits, conds []string
		for _, part := range parts {
			hits, conds = append(hits, part.hits), append(conds, part.walk)
		}
		if walk || isDigits(search) && len(search) < broadPrefix {
			l.and("(%s)", strings.Join(conds, " OR "))
		} else {
			from = fmt.Sprintf(`(SELECT DISTINCT seq FROM (%s) h) h,
				LATERAL (SELECT * FROM contracts c WHERE c.seq = h.seq OFFSET 0) c`, strings.Join(hits, " UNION ALL "))
			st.probe, st.probeArgs = probeSQL(func(l *listQuery) []searchPart { return l.everyoneParts(search) })
		}
	}
	where := strings.Join(l.where, " AND ")
	if search == "" && scope == nil {
		sts := uniq(statuses)
		if len(sts) == 0 {
			sts = signflow.ContractStatuses
		}
		keys := make([]string, len(sts))
		for i, s := range sts {
			keys[i] = "s" + s
		}
		st.count, st.countArgs = "SELECT coalesce(sum(n), 0) FROM contract_stats WHERE key = ANY($1)", []any{keys}
	} else {
		st.count, st.countArgs = "SELECT count(*) FROM "+from+" WHERE "+where, append([]any{}, l.args...)
	}
	size, offset := pageBounds(q)
	st.page = fmt.Sprintf(`SELECT c.data FROM %s WHERE %s ORDER BY c.seq DESC LIMIT %s OFFSET %s`,
		from, where, l.arg(size), l.arg(offset))
	st.pageArgs = l.args
	return st, true
}

// everyoneParts are the ways s matches any contract: its number, a party
// whose number starts with s, a party whose name any tenant knows by
// words starting with those of s.
func (l *listQuery) everyoneParts(s string) []searchPart {
	var parts []searchPart
	if validText(s) {
		n := l.arg(s)
		parts = append(parts, searchPart{hits: "SELECT seq FROM contracts WHERE number = " + n, walk: "c.number = " + n})
	}
	if isDigits(s) {
		from, to := l.arg(s), l.arg(s+topChar)
		parts = append(parts, searchPart{
			hits: fmt.Sprintf("SELECT seq FROM contract_parties WHERE party_in >= %s AND party_in < %s", from, to),
			walk: fmt.Sprintf("(c.buyer_in >= %[1]s AND c.buyer_in < %[2]s OR c.seller_in >= %[1]s AND c.seller_in < %[2]s)", from, to)})
	}
	// As each tenant knows them: the words must all match one tenant's view.
	if sets := l.namesMatching(s, "o.client_in"); sets != "" {
		names := "SELECT x.client_in FROM owners o, LATERAL (" + sets + ") x"
		parts = append(parts, searchPart{
			hits: `SELECT m.seq FROM (` + names + `) n,
				LATERAL (SELECT seq FROM contract_parties WHERE party_in = n.client_in OFFSET 0) m`,
			walk: "(c.buyer_in IN (" + names + ") OR c.seller_in IN (" + names + "))"})
	}
	return parts
}
