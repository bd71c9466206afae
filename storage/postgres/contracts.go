package postgres

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"

	"contracts/signflow"
	"contracts/storage/record"

	"github.com/jackc/pgx/v5"
)

// countShards spreads each count over rows, by contract sequence, so that
// concurrent writers of one party's contracts seldom update the same row.
const countShards = 8

// noShard leaves a transaction's count shard to its first contract.
const noShard = -1

// anyValue stands for every template or every status in contract_counts.
const anyValue = "*"

func (t *tx) WitnessContracts(in string, limit int) ([]string, error) {
	if !validText(in) {
		return nil, nil
	}
	rows, err := t.query("SELECT contract_id FROM contract_witnesses WHERE witness_in = $1 ORDER BY seq DESC LIMIT $2", in, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Contract reads the contract, and in the same statement what a read of
// it reads next (prefetch.go): its template, and the owners' records and
// the claims of its parties.
func (t *tx) Contract(id string) (*signflow.Contract, error) {
	notFound := signflow.Errorf(signflow.ENOTFOUND, "Contract not found.")
	if !validText(id) {
		return nil, notFound
	}
	var r contractRow
	if t.early != nil && t.early.id == id {
		r, t.early = *t.early, nil
	} else {
		var err error
		if r, err = t.contractRow(id, ""); err != nil {
			return nil, err
		}
	}
	if !r.found {
		t.sawContract(id, 0, "")
		return nil, notFound
	}
	t.sawContract(id, r.ver, r.status)
	if err := t.prefetch(r.templateID, r.templateVer, r.templateData, r.parties, r.ownersOf, r.claimsOf); err != nil {
		return nil, err
	}
	t.derived = derivation{id: id, stamp: r.stamp, reads: t.reads}
	c := new(signflow.Contract)
	return c, json.Unmarshal(r.data, c)
}

func (t *tx) sawContract(id string, ver int64, status string) {
	if t.writable {
		t.seen["contracts"+id] = ver
		t.status[id] = status
	}
}

func (t *tx) NextContractSeq() (uint64, error) {
	n, err := t.nextSeq()
	if err != nil {
		return 0, err
	}
	// No other transaction holds this number: a contract that carries it
	// is new.
	if t.newSeqs == nil {
		t.newSeqs = map[uint64]bool{}
	}
	t.newSeqs[uint64(n)] = true
	return uint64(n), nil
}

// PutContract writes the contract, its party rows and its counts. Parties,
// number, template and sequence never change after creation, so a rewrite
// changes only the status of the party rows, and the counts when the
// status moves.
func (t *tx) PutContract(c *signflow.Contract) error {
	if err := t.mayWrite(); err != nil {
		return err
	}
	data, err := record.Contract(c)
	if err != nil {
		return err
	}
	sk := "contracts" + c.ID
	ver, read := t.seen[sk]
	old := t.status[c.ID]
	// check judges the insert: none is needed for a contract numbered by
	// this transaction, which no other can have stored.
	check := oneRow
	switch {
	case !read && t.newSeqs[c.Seq]:
		ver, check = 0, nil
	case !read || ver < 0:
		// Not read in this transaction: lock the row to learn its status.
		err := t.queryRow([]any{&ver, &old}, "SELECT ver, status FROM contracts WHERE id = $1 FOR UPDATE", c.ID)
		if errors.Is(err, pgx.ErrNoRows) {
			ver = 0
		} else if err != nil {
			return err
		}
	}
	seq := int64(c.Seq)
	counts, pairs, stats := t.deltas(c.Seq)
	if ver == 0 {
		stats.add("d"+signflow.Day(c.CreatedAt), 1)
		stats.add("s"+c.Status, 1)
		if check != nil {
			t.queue(check, `INSERT INTO contracts (id, seq, number, status, template_id, buyer_in, seller_in, ver, data)
				VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8) ON CONFLICT (id) DO NOTHING`,
				c.ID, seq, c.Number, c.Status, c.TemplateID, c.BuyerIN, c.SellerIN, data)
		} else {
			r := pendingRows[contractRows](t)
			r.ids, r.seqs, r.numbers, r.statuses = append(r.ids, c.ID), append(r.seqs, seq), append(r.numbers, c.Number), append(r.statuses, c.Status)
			r.templates, r.buyers, r.sellers, r.data = append(r.templates, c.TemplateID), append(r.buyers, c.BuyerIN), append(r.sellers, c.SellerIN), append(r.data, data)
		}
		p := pendingRows[partyRows](t)
		p.add(c.BuyerIN, c.SellerIN, seq, c.Status, c.TemplateID, c.ID)
		p.add(c.SellerIN, c.BuyerIN, seq, c.Status, c.TemplateID, c.ID)
		if len(c.Witnesses) > 0 {
			ins := make([]string, 0, len(c.Witnesses))
			for _, w := range c.Witnesses {
				ins = append(ins, w.IN)
			}
			t.queue(nil, `INSERT INTO contract_witnesses (witness_in, seq, contract_id)
				SELECT unnest($1::text[]), $2, $3 ON CONFLICT DO NOTHING`, ins, seq, c.ID)
		}
		for _, in := range []string{c.BuyerIN, c.SellerIN} {
			pairs.add(pairKey{in, c.Counterparty(in), c.TemplateID, c.Status}, 1)
			for _, tpl := range []string{anyValue, c.TemplateID} {
				for _, st := range []string{anyValue, c.Status} {
					counts.add(in, tpl, st, 1)
				}
			}
		}
	} else {
		t.queue(oneRow, "UPDATE contracts SET status = $2, data = $3, ver = ver + 1 WHERE id = $1 AND ver = $4", c.ID, c.Status, data, ver)
		if old != c.Status {
			stats.add("s"+old, -1)
			stats.add("s"+c.Status, 1)
			t.queue(nil, "UPDATE contract_parties SET status = $3 WHERE party_in IN ($1, $2) AND seq = $4", c.BuyerIN, c.SellerIN, c.Status, seq)
			for _, in := range []string{c.BuyerIN, c.SellerIN} {
				pairs.add(pairKey{in, c.Counterparty(in), c.TemplateID, old}, -1)
				pairs.add(pairKey{in, c.Counterparty(in), c.TemplateID, c.Status}, 1)
				for _, tpl := range []string{anyValue, c.TemplateID} {
					counts.add(in, tpl, old, -1)
					counts.add(in, tpl, c.Status, 1)
				}
			}
		}
	}
	t.seen[sk] = ver + 1
	t.status[c.ID] = c.Status
	return nil
}

// deltas are the transaction's changes to the counts, which go out with
// its commit (or before it reads counts): the count rows are locked for
// the commit's round trip only, and several contracts written in one
// transaction add to them once. The shard is the transaction's (group.go),
// else that of its first contract: a count is the sum of its shards, so
// any shard may take any change.
func (t *tx) deltas(seq uint64) (countDeltas, pairDeltas, statDeltas) {
	if t.counts == nil {
		t.counts, t.pairs, t.stats = countDeltas{}, pairDeltas{}, statDeltas{}
		if t.shard == noShard {
			t.shard = int16(seq % countShards)
		}
	}
	return t.counts, t.pairs, t.stats
}

// queueCounts queues the upserts of the counts changed so far.
func (t *tx) queueCounts() {
	if len(t.counts) > 0 {
		t.rows = append(t.rows, sqlRows{`INSERT INTO contract_counts (party_in, template_id, status, shard, n)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::smallint[], $5::bigint[])
			ON CONFLICT (party_in, template_id, status, shard) DO UPDATE SET n = contract_counts.n + EXCLUDED.n`,
			t.counts.columns(t.shard)})
	}
	if len(t.pairs) > 0 {
		t.rows = append(t.rows, sqlRows{`INSERT INTO contract_pair_counts (party_in, other_in, template_id, status, shard, n)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::smallint[], $6::bigint[])
			ON CONFLICT (party_in, other_in, template_id, status, shard) DO UPDATE SET n = contract_pair_counts.n + EXCLUDED.n`,
			t.pairs.columns(t.shard)})
	}
	if len(t.stats) > 0 {
		t.rows = append(t.rows, sqlRows{`INSERT INTO contract_stats (key, shard, n)
			SELECT * FROM unnest($1::text[], $2::smallint[], $3::bigint[])
			ON CONFLICT (key, shard) DO UPDATE SET n = contract_stats.n + EXCLUDED.n`,
			t.stats.columns(t.shard)})
	}
	t.counts, t.pairs, t.stats = nil, nil, nil
	// In the statement of the rows waiting, each table's upsert once.
	t.queueRows()
}

type countKey struct{ party, template, status string }

// countDeltas are the changes of one write to the counts.
type countDeltas map[countKey]int64

func (d countDeltas) add(party, template, status string, n int64) {
	k := countKey{party, template, status}
	if d[k] += n; d[k] == 0 {
		delete(d, k)
	}
}

// columns are the deltas as the arrays of the upsert, in key order, so
// that two writers lock the rows they share in the same order.
func (d countDeltas) columns(shard int16) []any {
	keys := make([]countKey, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return a.party < b.party || a.party == b.party && (a.template < b.template || a.template == b.template && a.status < b.status)
	})
	var parties, templates, statuses []string
	var shards []int16
	var ns []int64
	for _, k := range keys {
		parties, templates, statuses = append(parties, k.party), append(templates, k.template), append(statuses, k.status)
		shards, ns = append(shards, shard), append(ns, d[k])
	}
	return []any{texts(parties), texts(templates), texts(statuses), shards, int64s(ns)}
}

// validTexts keeps the values PostgreSQL can compare; ok is false when
// the list had values and none is left.
func validTexts(list []string) (out []string, ok bool) {
	out = slices.DeleteFunc(slices.Clone(list), func(s string) bool { return !validText(s) })
	if list != nil && out == nil {
		out = []string{}
	}
	return out, len(list) == 0 || len(out) > 0
}

// pairKey is a party's count with one counterparty, by template and status.
type pairKey struct{ party, other, template, status string }

// pairDeltas are the changes of one write to the counts with each
// counterparty.
type pairDeltas map[pairKey]int64

func (d pairDeltas) add(k pairKey, n int64) {
	if d[k] += n; d[k] == 0 {
		delete(d, k)
	}
}

// columns are the deltas as the arrays of the upsert, in key order, so
// that two writers lock the rows they share in the same order.
func (d pairDeltas) columns(shard int16) []any {
	keys := make([]pairKey, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return less4(keys[i], keys[j]) })
	var parties, others, templates, statuses []string
	var shards []int16
	var ns []int64
	for _, k := range keys {
		parties, others, templates, statuses = append(parties, k.party), append(others, k.other), append(templates, k.template), append(statuses, k.status)
		shards, ns = append(shards, shard), append(ns, d[k])
	}
	return []any{texts(parties), texts(others), texts(templates), texts(statuses),
		shards, int64s(ns)}
}

func less4(a, b pairKey) bool {
	for _, p := range [][2]string{{a.party, b.party}, {a.other, b.other}, {a.template, b.template}, {a.status, b.status}} {
		if p[0] != p[1] {
			return p[0] < p[1]
		}
	}
	return false
}

// nextSeq takes the next number of the contract sequence. A shared
// transaction takes one per writer in its first statement that needs
// one, so that its creates do not pay a round trip each; the numbers a
// writer does not use are gaps, as are those of a transaction rolled back.
func (t *tx) nextSeq() (int64, error) {
	if len(t.seqs) == 0 && t.seqsAhead > 1 {
		rows, err := t.query(seqsAheadSQL, t.seqsAhead)
		if err != nil {
			return 0, err
		}
		seqs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			t.fail(err)
			return 0, err
		}
		slices.Sort(seqs)
		t.seqs, t.seqsAhead = seqs, 0
	}
	if len(t.seqs) > 0 {
		n := t.seqs[0]
		t.seqs = t.seqs[1:]
		return n, nil
	}
	var n int64
	err := t.queryRow([]any{&n}, "SELECT nextval('contract_seq')")
	return n, err
}

// seqsAheadSQL takes $1 contract numbers.
const seqsAheadSQL = "SELECT nextval('contract_seq') FROM generate_series(1, $1::int)"
