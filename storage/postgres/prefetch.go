package postgres

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"
)

// stampOf is the stamp of a contract c and the rows a read of it reads
// beside it (template tp, owners, claims): their versions (memo.go). The
// owners' records are in it through the credentials version cv.n, which
// every change of one moves on: a subquery less, the costlier half of the
// check in the database.
const stampOf = `json_build_array(c.ver, tp.ver, cv.n,
		(SELECT json_agg(json_build_array(cl.client_in, cl.tenant, cl.ver) ORDER BY cl.client_in, cl.tenant)
			FROM claims cl WHERE cl.client_in IN (c.buyer_in, c.seller_in)))::text`

// credVerRow is the credentials version as a row cv of one column n, in
// the statements of a contract's read: as a FROM item of its own, the
// table of one row is counted as thousands by a planner that has not
// analysed it, and the stamp's subquery as run that often, which raised
// the statement's cost past the threshold of JIT compilation (50 ms).
const credVerRow = `(SELECT (SELECT n FROM credentials_version) AS n OFFSET 0) cv`

// contractWithParties reads a contract with its template and, for both
// parties, the owner's record and every tenant's claim: what showing the
// contract reads next, in the round trip of the contract itself. Its
// first column is the stamp, its last the credentials version; the data
// columns are NULL when the stamp equals $2, a memo's. (OFFSET 0 keeps the stamp a column of its own:
// flattened, it is computed at each use.)
const contractWithParties = `SELECT f.stamp, c.ver, c.status, CASE WHEN f.stamp = $2::text THEN NULL ELSE c.data END,
	c.template_id, tp.ver, CASE WHEN f.stamp = $2::text THEN NULL ELSE tp.data END,
	ARRAY[c.buyer_in, c.seller_in],
	CASE WHEN f.stamp = $2::text THEN NULL ELSE
		(SELECT json_agg(json_build_array(o.client_in, o.ver, o.data)) FROM owners o WHERE o.client_in IN (c.buyer_in, c.seller_in)) END,
	CASE WHEN f.stamp = $2::text THEN NULL ELSE
		(SELECT json_agg(json_build_array(cl.client_in, cl.tenant, cl.ver, cl.data)) FROM claims cl WHERE cl.client_in IN (c.buyer_in, c.seller_in)) END,
	cv.n
	FROM ` + credVerRow + `, contracts c LEFT JOIN templates tp ON tp.id = c.template_id,
	LATERAL (SELECT ` + stampOf + ` AS stamp OFFSET 0) f
	WHERE c.id = $1`

// memoHolds tells whether a memo's stamp $2 is the contract's, with the
// credentials version, in one statement of its own.
const memoHolds = `SELECT ` + stampOf + ` = $2::text, cv.n
	FROM ` + credVerRow + `, contracts c LEFT JOIN templates tp ON tp.id = c.template_id WHERE c.id = $1`

// contractRow is a row of contractWithParties; found is false when the
// contract is absent.
type contractRow struct {
	id, stamp          string
	found              bool
	ver                int64
	status             string
	data               []byte
	templateID         string
	templateVer        *int64
	templateData       []byte
	parties            []string
	ownersOf, claimsOf []byte
	credVer            int64
}

// contractRow reads the contract id with contractWithParties; stamp, when
// not "", is a memo's, and the data come back only if the rows differ.
func (t *tx) contractRow(id, stamp string) (contractRow, error) {
	r := contractRow{id: id}
	var memoStamp *string
	if stamp != "" {
		memoStamp = &stamp
	}
	err := t.queryRow([]any{&r.stamp, &r.ver, &r.status, &r.data, &r.templateID, &r.templateVer, &r.templateData, &r.parties, &r.ownersOf, &r.claimsOf, &r.credVer},
		contractWithParties, id, memoStamp)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, nil
	}
	r.found = err == nil
	if r.found && !t.writable && t.credVer < 0 {
		t.credVer = r.credVer // one snapshot: the transaction's
	}
	return r, err
}

// prefetched is a record read ahead: its version and data, nil when the
// record is absent.
type prefetched struct {
	ver  int64
	data []byte
}

// prefetch keeps what contractWithParties read beside the contract, for
// the reads that follow in the transaction (read consults it first).
func (t *tx) prefetch(templateID string, templateVer *int64, templateData []byte, parties []string, ownersOf, claimsOf []byte) error {
	if t.ahead == nil {
		t.ahead = map[string]prefetched{}
	}
	if templateVer != nil {
		t.ahead[templates.seenKey([]any{templateID})] = prefetched{*templateVer, templateData}
	} else {
		t.ahead[templates.seenKey([]any{templateID})] = prefetched{}
	}
	for _, in := range parties {
		t.ahead[owners.seenKey([]any{in})] = prefetched{}
		if t.claimsRead == nil {
			t.claimsRead = map[string]bool{}
		}
		t.claimsRead[in] = true
	}
	var raw [][]json.RawMessage
	if ownersOf != nil {
		if err := json.Unmarshal(ownersOf, &raw); err != nil {
			return err
		}
	}
	for _, r := range raw {
		var in string
		var ver int64
		if len(r) != 3 || json.Unmarshal(r[0], &in) != nil || json.Unmarshal(r[1], &ver) != nil {
			continue
		}
		t.ahead[owners.seenKey([]any{in})] = prefetched{ver, slices.Clone(r[2])}
	}
	raw = nil
	if claimsOf != nil {
		if err := json.Unmarshal(claimsOf, &raw); err != nil {
			return err
		}
	}
	t.aheadClaims(raw)
	return nil
}

// aheadOf answers a read from what was prefetched: found says whether it
// can, and the record's version and data (nil: absent).
func (t *tx) aheadOf(tb *table, key []any) (p prefetched, found bool) {
	if t.ahead == nil && t.claimsRead == nil {
		return prefetched{}, false
	}
	sk := tb.seenKey(key)
	if p, ok := t.ahead[sk]; ok {
		return p, true
	}
	// Every claim on a party's number was read: one not there is absent.
	if tb == claims && len(key) == 2 {
		if in, ok := key[0].(string); ok && t.claimsRead[in] {
			return prefetched{}, true
		}
	}
	return prefetched{}, false
}

// forgetAhead drops what was prefetched once the transaction writes a
// record of a kind it holds.
func (t *tx) forgetAhead(tb *table) {
	if tb == claims {
		t.confirmedClaims = nil
	}
	if t.ahead != nil && (tb == templates || tb == owners || tb == claims) {
		t.ahead, t.claimsRead = nil, nil
	}
}

// claimsAhead bounds the claims read ahead with an owner's record: a
// number that more tenants claim is read one claim at a time.
const claimsAhead = 16

// ownerWithClaims reads the owner's record and, when they are few, every
// tenant's claim on the number, in one statement: what a party's record
// is read from (the owner's, else the creator's tenant's claim).
func (t *tx) ownerWithClaims(in string) error {
	var (
		version int64
		ver     *int64
		data    []byte
		tenants []string
		vers    []int64
		datas   [][]byte
	)
	err := t.queryRow([]any{&version, &ver, &data, &tenants, &vers, &datas}, `SELECT cv.n, o.ver, o.data, cl.tenants, cl.vers, cl.datas
		FROM credentials_version cv LEFT JOIN owners o ON o.client_in = $1,
		LATERAL (SELECT array_agg(tenant) tenants, array_agg(ver) vers, array_agg(data::text) datas
			FROM (SELECT * FROM claims WHERE client_in = $1 LIMIT $2) c) cl`, in, claimsAhead+1)
	if err != nil {
		return err
	}
	if t.ahead == nil {
		t.ahead = map[string]prefetched{}
	}
	owner := prefetched{}
	if ver != nil {
		owner = prefetched{*ver, data}
	}
	t.ahead[owners.seenKey([]any{in})] = owner
	if t.creds != nil && !t.credWritten {
		t.creds.putRec(version, owners.seenKey([]any{in}), owner)
	}
	if len(tenants) > claimsAhead || len(vers) != len(tenants) || len(datas) != len(tenants) {
		return nil
	}
	if t.claimsRead == nil {
		t.claimsRead = map[string]bool{}
	}
	t.claimsRead[in] = true
	for i, tenant := range tenants {
		t.ahead[claims.seenKey([]any{in, tenant})] = prefetched{vers[i], datas[i]}
	}
	return nil
}

// aheadClaims keeps claims read ahead as [in, tenant, ver, data].
func (t *tx) aheadClaims(raw [][]json.RawMessage) {
	for _, r := range raw {
		var in, tenant string
		var ver int64
		if len(r) != 4 || json.Unmarshal(r[0], &in) != nil || json.Unmarshal(r[1], &tenant) != nil || json.Unmarshal(r[2], &ver) != nil {
			continue
		}
		t.ahead[claims.seenKey([]any{in, tenant})] = prefetched{ver, slices.Clone(r[3])}
	}
}

// cachedOwner answers an owner's record from the credentials cache, with
// the version it was kept at.
func (t *tx) cachedOwner(in string) (prefetched, int64, bool) {
	version, ok := t.credsAt()
	if !ok {
		return prefetched{}, 0, false
	}
	p, ok := t.creds.rec(version, owners.seenKey([]any{in}))
	t.fedByCache(ok)
	if ok {
		t.trustedCredVer()
		if t.ahead == nil {
			t.ahead = map[string]prefetched{}
		}
	}
	return p, version, ok
}
