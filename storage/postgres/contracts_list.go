package postgres

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
)

// topChar follows every other character in byte order: a prefix p is
// matched by p <= s < p+topChar, which an index walks with any plan.
const topChar = "\U0010FFFF"

// listQuery builds the WHERE clause of a contract list over
// contract_parties p, one argument at a time.
type listQuery struct {
	where []string
	args  []any
}

// arg adds an argument and returns its placeholder.
func (l *listQuery) arg(v any) string {
	l.args = append(l.args, v)
	return fmt.Sprintf("$%d", len(l.args))
}

func (l *listQuery) and(format string, args ...any) {
	l.where = append(l.where, fmt.Sprintf(format, args...))
}

// ListContracts answers from contract_parties: the owner's rows newest
// first, filtered by status, template and counterparty, and the page's
// contracts joined by id. Without a search or a counterparty
// filter the total is the sum of a few counts. A search matches the exact
// contract number, counterparties whose number starts with the text, and
// counterparties whose name, as the owner's tenant knows it, has a word
// starting with each word of the text.
func (t *tx) ListContracts(q signflow.ContractQuery) (*signflow.ContractPage, error) {
	t.queueCounts()
	st, ok := listSQL(q, false)
	if !ok {
		return &signflow.ContractPage{}, nil
	}
	if st.probe != "" {
		// A search that matches many contracts is answered by a walk.
		var n int64
		if err := t.queryRow([]any{&n}, st.probe, st.probeArgs...); err != nil {
			return nil, err
		}
		if n > int64(hitsLimit) {
			st, _ = listSQL(q, true)
		}
	}
	if err := t.flush(); err != nil {
		return nil, err
	}
	var b pgx.Batch
	b.Queue(st.count, st.countArgs...)
	b.Queue(st.page, st.pageArgs...)
	br := t.pg.SendBatch(t.ctx, &b)
	defer br.Close()
	out := &signflow.ContractPage{}
	var total int64
	if err := br.QueryRow().Scan(&total); err != nil {
		t.fail(err)
		return nil, err
	}
	out.Total = int(total)
	rows, err := br.Query()
	if err != nil {
		t.fail(err)
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, err
		}
		c := new(signflow.Contract)
		if err := json.Unmarshal(data, c); err != nil {
			return nil, err
		}
		out.Contracts = append(out.Contracts, c)
	}
	if err := rows.Err(); err != nil {
		t.fail(err)
		return nil, err
	}
	return out, nil
}

// listStatements are the statements of a list: its total and its page.
type listStatements struct {
	count, page         string
	countArgs, pageArgs []any
	// probe, for a search answered by lookups, counts its matches up to
	// one more than hitsLimit.
	probe     string
	probeArgs []any
}

// hitsLimit bounds the matches a search looks up one by one; a search
// that matches more is checked on a walk of the owner's rows instead: a
// selective search (a number, a name) costs about its matches, a broad one
// at most one walk. Tests lower it to check that both ways give the same
// answer.
var hitsLimit = 2000

// broadPrefix is the length below which a number prefix is checked on a
// walk of the owner's rows, without a probe.
const broadPrefix = 5

// listSQL builds the statements that answer q, or reports false when q
// can match nothing. walk asks for a search checked on a walk of the
// owner's rows.
func listSQL(q signflow.ContractQuery, walk bool) (*listStatements, bool) {
	if q.AllOwners {
		return everyoneSQL(q, walk)
	}
	statuses, ok1 := validTexts(q.Statuses)
	scope, ok2 := validTexts(q.TemplateScope())
	counterparties, ok3 := validTexts(q.Counterparties)
	if !ok1 || !ok2 || !ok3 || (scope != nil && len(scope) == 0) || !validText(q.OwnerIN) {
		return nil, false
	}
	l := &listQuery{}
	l.and("p.party_in = %s", l.arg(q.OwnerIN))
	if len(statuses) > 0 {
		l.and("p.status = ANY(%s)", l.arg(statuses))
	}
	if scope != nil {
		l.and("p.template_id = ANY(%s)", l.arg(scope))
	}
	if counterparties != nil {
		l.and("p.other_in = ANY(%s)", l.arg(counterparties))
	}
	// Without a search the owner's rows are walked newest first. A search
	// first gathers the sequence numbers it matches, from indexes, and
	// looks the owner's rows up by them; OFFSET 0 keeps the planner from
	// turning such lookups into a walk of every row, which the estimates
	// of a set operation (or a small database) can make look cheaper. A
	// broad search — a short number prefix (numbers share their leading
	// digits), or one the probe finds matching many — is checked on the
	// walk instead.
	st := &listStatements{}
	filters := strings.Join(l.where, " AND ")
	var byParty, byNumber []string // the search's conditions on the counterparty, on the contract
	from := "contract_parties p"
	search := strings.TrimSpace(q.Search)
	if search != "" {
		parts := l.searchParts(search)
		if len(parts) == 0 {
			return nil, false
		}
		var hits, conds []string
		for _, part := range parts {
			hits, conds = append(hits, part.hits), append(conds, part.walk)
			if part.byParty {
				byParty = append(byParty, part.walk)
			} else {
				byNumber = append(byNumber, part.walk)
			}
		}
		if walk || isDigits(search) && len(search) < broadPrefix {
			l.and("(%s)", strings.Join(conds, " OR "))
		} else {
			from = fmt.Sprintf(`(SELECT DISTINCT seq FROM (%s) h) h,
				LATERAL (SELECT * FROM contract_parties p WHERE p.party_in = $1 AND p.seq = h.seq OFFSET 0) p`, strings.Join(hits, " UNION ALL "))
			st.probe, st.probeArgs = probeSQL(func(l *listQuery) []searchPart {
				l.arg(q.OwnerIN)
				return l.searchParts(search)
			})
		}
	}
	where := strings.Join(l.where, " AND ")
	if search == "" && counterparties == nil {
		templates, sts := scope, uniq(statuses)
		if templates == nil {
			templates = []string{anyValue}
		}
		if len(sts) == 0 {
			sts = []string{anyValue}
		}
		st.count = `SELECT coalesce(sum(n), 0) FROM contract_counts WHERE party_in = $1 AND template_id = ANY($2) AND status = ANY($3)`
		st.countArgs = []any{q.OwnerIN, templates, sts}
	} else if search == "" {
		// Limited to some counterparties: the sum of their counts.
		st.count = "SELECT coalesce(sum(n), 0) FROM contract_pair_counts p WHERE " + where
		st.countArgs = slices.Clone(l.args)
	} else {
		// The counts of the counterparties the search matches, and the
		// contract of its number when its counterparty is not one of them.
		st.count = fmt.Sprintf(`SELECT (SELECT coalesce(sum(n), 0) FROM contract_pair_counts p WHERE %[1]s AND (%[2]s))
			+ (SELECT count(*) FROM contract_parties p WHERE %[1]s AND (%[3]s) AND NOT (%[2]s))`,
			filters, orFalse(byParty), orFalse(byNumber))
		st.countArgs = slices.Clone(l.args)
	}
	size, offset := pageBounds(q)
	// The page is cut from the party rows; only its contracts are read.
	st.page = fmt.Sprintf(`SELECT c.data FROM (SELECT p.seq, p.contract_id FROM %s
			WHERE %s ORDER BY p.seq DESC LIMIT %s OFFSET %s) p
		JOIN contracts c ON c.id = p.contract_id ORDER BY p.seq DESC`, from, where, l.arg(size), l.arg(offset))
	st.pageArgs = l.args
	return st, true
}

// pageBounds are the LIMIT and OFFSET of q's page.
func pageBounds(q signflow.ContractQuery) (size int, offset int64) {
	size = max(q.Size, 0)
	if page := max(q.Page, 0); size > 0 && int64(page) > (math.MaxInt64-int64(size))/int64(size) {
		return 0, 0 // past any end
	} else {
		return size, int64(page) * int64(size)
	}
}

// searchPart is one way a search matches: the sequence numbers it
// matches, read from an index, and the same as a condition on a walked
// party row p.
type searchPart struct {
	hits, walk string
	byParty    bool // a condition on the counterparty alone
}

// orFalse joins conditions with OR; none is false.
func orFalse(conds []string) string {
	if len(conds) == 0 {
		return "false"
	}
	return strings.Join(conds, " OR ")
}

// searchParts are the ways s matches, none when it can match nothing.
func (l *listQuery) searchParts(s string) []searchPart {
	var parts []searchPart
	if validText(s) {
		number := fmt.Sprintf("SELECT seq FROM contracts WHERE number = %s", l.arg(s))
		parts = append(parts, searchPart{
			hits: "SELECT seq FROM contract_parties WHERE party_in = $1 AND seq IN (" + number + ")",
			walk: "p.seq IN (" + number + ")"})
	}
	if isDigits(s) {
		from, to := l.arg(s), l.arg(s+topChar)
		parts = append(parts, searchPart{
			fmt.Sprintf("SELECT seq FROM contract_parties WHERE party_in = $1 AND other_in >= %s AND other_in < %s", from, to),
			fmt.Sprintf("(p.other_in >= %s AND p.other_in < %s)", from, to), true})
	}
	if names := l.namesMatching(s, "$1"); names != "" {
		// Among owners' records and the owner's tenant's own claims ($1).
		parts = append(parts, searchPart{
			`SELECT m.seq FROM (` + names + `) n,
				LATERAL (SELECT seq FROM contract_parties WHERE party_in = $1 AND other_in = n.client_in OFFSET 0) m`,
			"p.other_in IN (" + names + ")", true})
	}
	return parts
}

// probeSQL counts the matches of a search, up to one more than
// hitsLimit; parts gives the ways it matches.
func probeSQL(parts func(l *listQuery) []searchPart) (string, []any) {
	l := &listQuery{}
	var hits []string
	for _, part := range parts(l) {
		hits = append(hits, part.hits)
	}
	return fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM (%s) h LIMIT %s) h",
		strings.Join(hits, " UNION ALL "), l.arg(hitsLimit+1)), l.args
}

// namesMatching is a query of the numbers with, for each word of s, a
// name word it starts, as the tenant (an SQL expression) knows them: among
// owners' records and the tenant's own claims. It is empty when s has no
// words.
func (l *listQuery) namesMatching(s, tenant string) string {
	var sets []string
	for _, w := range (&signflow.Client{LegalName: s}).NameWords() {
		from, to := l.arg(w), l.arg(w+topChar)
		sets = append(sets, fmt.Sprintf(`(SELECT client_in FROM owner_names WHERE word >= %[1]s AND word < %[2]s
			UNION SELECT client_in FROM claim_names WHERE tenant = %[3]s AND word >= %[1]s AND word < %[2]s)`, from, to, tenant))
	}
	return strings.Join(sets, " INTERSECT ")
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
