package postgres

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

// queueRows queues the INSERT of each table's rows waiting.
func (t *tx) queueRows() {
	if len(t.rows) == 0 {
		return
	}
	rows := t.rows
	t.rows = nil
	for _, r := range rows {
		sql, args := r.statement()
		t.batch.Queue(sql, args...)
		t.checks = append(t.checks, nil)
	}
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
		[]any{r.ids, r.seqs, r.numbers, r.statuses, r.templates, r.buyers, r.sellers, r.data}
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
		[]any{r.parties, r.seqs, r.others, r.statuses, r.templates, r.contracts}
}

// auditRows are audit events, numbered by the database in their order here.
type auditRows struct {
	contracts []string
	data      [][]byte
}

func (r *auditRows) statement() (string, []any) {
	return `INSERT INTO audit (contract_id, data)
		SELECT c, d FROM unnest($1::text[], $2::json[]) WITH ORDINALITY AS r (c, d, n) ORDER BY n`,
		[]any{r.contracts, r.data}
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
		[]any{r.ids, r.contracts, r.targets, r.statuses, r.next, r.data}
}
