package postgres

import "strconv"

// New rows that no statement of the transaction reads back before its
// next round trip are kept by table and sent as one INSERT of arrays per
// table (unnest), so that a shared transaction's creates cost the database
// one statement per table, not one per create and table. The rows go out,
// in the order their tables were first written, before any other statement
// is queued and before a read or the commit, so every statement still sees
// the writes queued before it.

// rowSet is the rows of one table waiting for their INSERT.
type rowSet interface {
	statement() (sql string, args []any)
}

// pendingRows returns the transaction's set of rows of type P, made and
// put last in line on its first row.
func pendingRows[T any, P interface {
	*T
	rowSet
}](t *tx) P {
	for _, r := range t.rows {
		if p, ok := r.(P); ok {
			return p
		}
	}
	p := P(new(T))
	t.rows = append(t.rows, p)
	return p
}

// queueRows queues the INSERTs of the tables' rows waiting, as one
// statement: each INSERT but the last a data-modifying WITH of it (one
// parse, bind and execution for them all; they see none of each other's
// rows, and none reads another's table).
func (t *tx) queueRows() {
	if len(t.rows) == 0 {
		return
	}
	rows := t.rows
	t.rows = nil
	var sql []byte
	var all []any
	for i, r := range rows {
		s, args := r.statement()
		switch {
		case len(rows) == 1:
			sql = []byte(s)
		case i == 0:
			sql = append(sql, "WITH "...)
		case i < len(rows)-1:
			sql = append(sql, ", "...)
		default:
			sql = append(sql, ' ')
		}
		if len(rows) > 1 {
			if i < len(rows)-1 {
				sql = strconv.AppendInt(append(sql, 'r'), int64(i), 10)
				sql = append(sql, " AS ("...)
			}
			sql = appendRenumbered(sql, s, len(all))
			if i < len(rows)-1 {
				sql = append(sql, ')')
			}
		}
		all = append(all, args...)
	}
	t.batch.Queue(string(sql), all...)
	t.checks = append(t.checks, nil)
}

// appendRenumbered appends sql with each parameter $n written $(n+by).
func appendRenumbered(b []byte, sql string, by int) []byte {
	for i := 0; i < len(sql); i++ {
		b = append(b, sql[i])
		if sql[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(sql[i+1 : j])
		b = strconv.AppendInt(b, int64(n+by), 10)
		i = j - 1
	}
	return b
}

// contractRows are new contracts numbered by the transaction, which no
// other can have stored.
type contractRows struct {
	ids, numbers, statuses, templates, buyers, sellers []string
	seqs                                               []int64
	data                                               [][]byte
}

func (r *contractRows) statement() (string, []any) {
	return `INSERT INTO contracts (id, seq, number, status, template_id, buyer_in, seller_in, ver, data)
		SELECT id, seq, number, status, template_id, buyer_in, seller_in, 1, data
		FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::json[])
		AS r (id, seq, number, status, template_id, buyer_in, seller_in, data)`,
		[]any{texts(r.ids), int64s(r.seqs), texts(r.numbers), texts(r.statuses),
			texts(r.templates), texts(r.buyers), texts(r.sellers), r.data}
}

// partyRows are the rows of new contracts' parties, one a party.
type partyRows struct {
	parties, others, statuses, templates, contracts []string
	seqs                                            []int64
}

func (r *partyRows) add(party, other string, seq int64, status, template, contract string) {
	r.parties, r.others, r.statuses = append(r.parties, party), append(r.others, other), append(r.statuses, status)
	r.templates, r.contracts, r.seqs = append(r.templates, template), append(r.contracts, contract), append(r.seqs, seq)
}

func (r *partyRows) statement() (string, []any) {
	return `INSERT INTO contract_parties (party_in, seq, other_in, status, template_id, contract_id)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])`,
		[]any{texts(r.parties), int64s(r.seqs), texts(r.others), texts(r.statuses),
			texts(r.templates), texts(r.contracts)}
}

// auditRows are audit events, numbered by the database in their order here.
type auditRows struct {
	contracts []string
	data      [][]byte
}

func (r *auditRows) statement() (string, []any) {
	return `INSERT INTO audit (contract_id, data)
		SELECT c, d FROM unnest($1::text[], $2::json[]) WITH ORDINALITY AS r (c, d, n) ORDER BY n`,
		[]any{texts(r.contracts), r.data}
}

// deliveryRows are new outbox rows, numbered by the database in their
// order here.
type deliveryRows struct {
	ids, contracts, targets, statuses []string
	next                              []int64
	data                              [][]byte
}

func (r *deliveryRows) statement() (string, []any) {
	return `INSERT INTO deliveries (id, contract_id, target, status, next_ns, avail_ns, ver, data)
		SELECT id, c, target, status, next, next, 1, d
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::json[]) WITH ORDINALITY
		AS r (id, c, target, status, next, d, n) ORDER BY n`,
		[]any{texts(r.ids), texts(r.contracts), texts(r.targets), texts(r.statuses),
			int64s(r.next), r.data}
}

// sqlRows is a statement of its own among the rows: a count's upsert.
type sqlRows struct {
	sql  string
	args []any
}

func (r sqlRows) statement() (string, []any) { return r.sql, r.args }
