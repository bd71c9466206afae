package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
)

// A delivery's avail_ns is when it may next be claimed: its next_at, or
// the end of the lease of the claimer holding it (claimed_by).

var deliveries = newTable("deliveries", "Delivery", []string{"id"},
	[]string{"contract_id", "target", "status", "next_ns", "avail_ns", "claimed_by"})

// AddDelivery puts a new outbox row at the end of the queue; the database
// numbers it.
func (t *tx) AddDelivery(d *signflow.Delivery) error {
	if err := t.mayWrite(); err != nil {
		return err
	}
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	r := pendingRows[deliveryRows](t)
	r.ids, r.contracts, r.targets = append(r.ids, d.ID), append(r.contracts, d.ContractID), append(r.targets, d.Target)
	r.statuses, r.next, r.data = append(r.statuses, d.Status), append(r.next, nanos(d.NextAt)), append(r.data, data)
	t.seen[deliveries.seenKey([]any{d.ID})] = 1
	t.addedDelivery = true
	return nil
}

func (t *tx) Delivery(id string) (*signflow.Delivery, error) {
	if !validText(id) {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Delivery not found.")
	}
	list, err := t.deliveries("SELECT seq, ver, data FROM deliveries WHERE id = $1", id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		t.saw(deliveries, []any{id}, 0)
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Delivery not found.")
	}
	return list[0], nil
}

// PutDelivery writes the row and settles any claim on it: a PENDING row
// may be claimed again from its NextAt.
func (t *tx) PutDelivery(d *signflow.Delivery) error {
	next := nanos(d.NextAt)
	return t.write(deliveries, []any{d.ID}, []any{d.ContractID, d.Target, d.Status, next, next, nil}, d)
}

// Deliveries lists the log, oldest first, by contract or status.
func (t *tx) Deliveries(f signflow.DeliveryFilter) ([]*signflow.Delivery, error) {
	if f.Limit <= 0 {
		f.Limit = 1000
	}
	if !validText(f.ContractID) || !validText(f.Status) {
		return nil, nil
	}
	if f.ContractID != "" {
		return t.deliveries(`SELECT seq, ver, data FROM deliveries WHERE contract_id = $1 AND ($2 = '' OR status = $2)
			ORDER BY seq LIMIT $3`, f.ContractID, f.Status, f.Limit)
	}
	return t.deliveries(`SELECT seq, ver, data FROM deliveries WHERE $1 = '' OR status = $1 ORDER BY seq LIMIT $2`, f.Status, f.Limit)
}

// PendingDeliveries returns the oldest PENDING rows after the sequence
// number afterSeq, in outbox order.
func (t *tx) PendingDeliveries(afterSeq uint64, limit int) ([]*signflow.Delivery, error) {
	return t.deliveries(`SELECT seq, ver, data FROM deliveries WHERE status = 'PENDING' AND seq > $1
		ORDER BY seq LIMIT $2`, int64(afterSeq), limit)
}

// deliveries decodes the rows a query returns, noting their versions.
func (t *tx) deliveries(sql string, args ...any) ([]*signflow.Delivery, error) {
	rows, err := t.query(sql, args...)
	if err != nil {
		return nil, err
	}
	return t.scanDeliveries(rows)
}

func (t *tx) scanDeliveries(rows pgx.Rows) ([]*signflow.Delivery, error) {
	defer rows.Close()
	var out []*signflow.Delivery
	for rows.Next() {
		var (
			seq, ver int64
			data     []byte
		)
		if err := rows.Scan(&seq, &ver, &data); err != nil {
			return nil, err
		}
		d := new(signflow.Delivery)
		if err := json.Unmarshal(data, d); err != nil {
			return nil, err
		}
		d.Seq = uint64(seq)
		t.saw(deliveries, []any{d.ID}, ver)
		out = append(out, d)
	}
	return out, rows.Err()
}

// ClaimDeliveries gives out the due rows that lead their lanes, oldest due
// first, skipping rows another claimer is taking at this moment.
func (s *Store) ClaimDeliveries(c signflow.DeliveryClaim) (*signflow.DeliveryBatch, error) {
	ctx, cancel := s.timeout(context.Background())
	defer cancel()
	out := &signflow.DeliveryBatch{}
	now := nanos(c.Now)
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(ptx pgx.Tx) error {
		t := newTx(ctx, ptx, false)
		var rows pgx.Rows
		var err error
		if c.PerTarget <= 0 {
			rows, err = t.query(`WITH due AS (
				SELECT d.id FROM deliveries d
				WHERE d.status = 'PENDING' AND d.avail_ns <= $1 AND NOT EXISTS (
					SELECT 1 FROM deliveries e WHERE e.status = 'PENDING'
						AND e.target = d.target AND e.contract_id = d.contract_id AND e.seq < d.seq)
				ORDER BY d.avail_ns, d.seq
				LIMIT $2
				FOR UPDATE OF d SKIP LOCKED)
			UPDATE deliveries SET claimed_by = $3, avail_ns = $4, ver = ver + 1
			FROM due WHERE deliveries.id = due.id
			RETURNING deliveries.seq, deliveries.ver, deliveries.data`, now, c.Limit, c.Claimer, nanos(c.Now.Add(c.Lease)))
		} else {
			rows, err = claimPerTarget(t, c, now)
		}
		if err != nil {
			return err
		}
		if out.Rows, err = t.scanDeliveries(rows); err != nil {
			return err
		}
		var next *int64
		if err := t.queryRow([]any{&next, &out.Pending}, `SELECT
			(SELECT min(avail_ns) FROM deliveries WHERE status = 'PENDING' AND avail_ns > $1),
			(SELECT count(*) FROM (SELECT 1 FROM deliveries WHERE status = 'PENDING' LIMIT $2) p)`,
			now, signflow.PendingCap); err != nil {
			return err
		}
		if next != nil {
			out.NextAt = time.Unix(0, *next)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The rows come back in no order: hand them out oldest first.
	sortDeliveries(out.Rows)
	return out, nil
}

// claimPerTarget is the claim with at most c.TargetRoom rows of each
// target: the due rows that lead their lanes are numbered within their
// target, oldest due first, and those past the target's room are left.
func claimPerTarget(t *tx, c signflow.DeliveryClaim, now int64) (pgx.Rows, error) {
	targets, rooms := []string{}, []int32{}
	for target := range c.Held {
		targets, rooms = append(targets, target), append(rooms, int32(c.TargetRoom(target)))
	}
	return t.query(`WITH lead AS (
			SELECT d.id, d.avail_ns, d.seq,
				row_number() OVER (PARTITION BY d.target ORDER BY d.avail_ns, d.seq) AS n,
				COALESCE(h.room, $5) AS room
			FROM deliveries d LEFT JOIN unnest($6::text[], $7::int[]) AS h(target, room) ON h.target = d.target
			WHERE d.status = 'PENDING' AND d.avail_ns <= $1 AND NOT EXISTS (
				SELECT 1 FROM deliveries e WHERE e.status = 'PENDING'
					AND e.target = d.target AND e.contract_id = d.contract_id AND e.seq < d.seq)),
		due AS (
			SELECT d.id FROM deliveries d JOIN lead ON lead.id = d.id
			-- Checked again on the row as locked: another claimer may have
			-- sent it and scheduled its retry since lead's snapshot.
			WHERE lead.n <= lead.room AND d.status = 'PENDING' AND d.avail_ns <= $1 AND NOT EXISTS (
				SELECT 1 FROM deliveries e WHERE e.status = 'PENDING'
					AND e.target = d.target AND e.contract_id = d.contract_id AND e.seq < d.seq)
			ORDER BY lead.avail_ns, lead.seq
			LIMIT $2
			FOR UPDATE OF d SKIP LOCKED)
		UPDATE deliveries SET claimed_by = $3, avail_ns = $4, ver = ver + 1
		FROM due WHERE deliveries.id = due.id
		RETURNING deliveries.seq, deliveries.ver, deliveries.data`,
		now, c.Limit, c.Claimer, nanos(c.Now.Add(c.Lease)), c.PerTarget, targets, rooms)
}

// ReleaseDeliveries gives back the rows the claimer holds, due again at
// their NextAt.
func (s *Store) ReleaseDeliveries(claimer string) error {
	ctx, cancel := s.timeout(context.Background())
	defer cancel()
	_, err := s.pool.Exec(ctx, `UPDATE deliveries SET claimed_by = NULL, avail_ns = next_ns, ver = ver + 1
		WHERE claimed_by = $1`, claimer)
	return err
}

func sortDeliveries(rows []*signflow.Delivery) {
	slices.SortFunc(rows, func(a, b *signflow.Delivery) int {
		if c := a.NextAt.Compare(b.NextAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Seq, b.Seq)
	})
}
