package postgres

import (
	"slices"

	"contracts/signflow"
)

// trust is what a create's read-only transaction took from the store's
// caches without a round trip (signflow.Trusting): the credentials
// version its caller's app was kept at, and the templates it was built
// from, each at the row version and xmin the cache holds. The write
// confirms them in its first statement, which reads its credentials
// version and takes its contract numbers too, before the create's fn
// runs: a change committed on any node before that write began is seen,
// and the create made again from fresh reads.
type trust struct {
	credVer int64 // -1: not taken on trust
	tpls    []keptRef
	claims  []claimRef // claimcache.go
}

type keptRef struct {
	id   string
	ver  int64
	xmin string
}

// ViewTrusting runs fn as View does, but a template kept with its xmin is
// answered from the cache unread, and the credentials version, when the
// transaction did not read it, is credVer; both go into the trust.
func (s *Store) ViewTrusting(credVer int64, fn func(signflow.Tx) error) (any, error) {
	var tr *trust
	err := s.view(func(t *tx) { t.trusted, t.trustCred = &tr, credVer }, fn)
	if err != nil || tr == nil {
		return nil, err
	}
	return tr, nil
}

// UpdateTrusted runs fn as Update does, once its transaction has
// confirmed what trust took on trust (nil: nothing).
func (s *Store) UpdateTrusted(tr any, fn func(signflow.Tx) error) error {
	t, _ := tr.(*trust)
	return s.update1(fn, t)
}

// trust is the transaction's trust, begun at its first use.
func (t *tx) trust() *trust {
	if *t.trusted == nil {
		*t.trusted = &trust{credVer: -1}
	}
	return *t.trusted
}

// trustedTemplate is the template id from the cache, taken on trust.
func (t *tx) trustedTemplate(id string) (*signflow.Template, bool) {
	if t.trusted == nil || t.tpls == nil || t.writable || !validText(id) {
		return nil, false
	}
	e, ok := t.tpls.get(id)
	if !ok || e.xmin == "" {
		return nil, false
	}
	tr := t.trust()
	tr.tpls = append(tr.tpls, keptRef{id, e.ver, e.xmin})
	v := e.t
	return &v, true
}

// trustedCredVer is the credentials version taken on trust, when the
// transaction has not read it.
func (t *tx) trustedCredVer() (int64, bool) {
	if t.trusted == nil || t.credVer >= 0 || t.trustCred < 0 {
		return 0, false
	}
	t.trust().credVer = t.trustCred
	return t.trustCred, true
}

// confirm reads what trusts took on trust, in the first statement of the
// write transaction, and reports which of them hold. The statement reads
// the transaction's credentials version too, and takes the contract
// numbers of its writers (one at least: each trust is a create's).
func (t *tx) confirm(trusts []*trust) ([]bool, error) {
	ids, ins, tenants := []string{}, []string{}, []string{}
	for _, tr := range trusts {
		for _, k := range tr.tplsOrNil() {
			ids = append(ids, k.id)
		}
		for _, r := range tr.claimsOrNil() {
			if pairIndex(ins, tenants, r.in, r.tenant) < 0 {
				ins, tenants = append(ins, r.in), append(tenants, r.tenant)
			}
		}
	}
	if l, ok := t.pg.(*lazyTx); ok && !l.begun {
		l.credVer = nil // read here instead
	}
	var (
		tplIDs, xmins []string
		vers          []int64
		clIdx, clVers []int64
		clXmins       []string
	)
	err := t.queryRow([]any{&t.credVer, &t.seqs, &tplIDs, &vers, &xmins, &clIdx, &clVers, &clXmins},
		confirmTrust, texts(ids), max(t.seqsAhead, 1), texts(ins), texts(tenants))
	if err != nil {
		return nil, err
	}
	slices.Sort(t.seqs)
	t.seqsAhead = 0
	ok := make([]bool, len(trusts))
	for i, tr := range trusts {
		ok[i] = tr == nil || tr.credVer < 0 || tr.credVer == t.credVer
		for _, k := range tr.tplsOrNil() {
			j := slices.Index(tplIDs, k.id)
			if j < 0 || vers[j] != k.ver || xmins[j] != k.xmin {
				ok[i] = false
			}
		}
		if tr == nil {
			continue
		}
		if !t.confirmClaims(tr, ins, tenants, clIdx, clVers, clXmins) {
			ok[i] = false
		}
		if ok[i] {
			t.useClaims(tr)
		}
	}
	return ok, nil
}

// confirmTrust reads the credentials version, takes $2 contract numbers,
// reads the versions of the templates $1 and those of the claims on the
// numbers $3 by the tenants $4 (by their place in $3, from 1), in one row.
// Each claim is looked up by its key (LIMIT keeps the lookup a subquery
// of its own): as a join, a planner that counts the claims as few hashes
// them all (seen on a table of 1,000 small rows).
const confirmTrust = `SELECT (SELECT n FROM credentials_version),
	(SELECT array_agg(nextval('contract_seq')) FROM generate_series(1, $2::int)),
	tp.ids, tp.vers, tp.xmins, cl.idx, cl.vers, cl.xmins
	FROM (SELECT array_agg(t.id) ids, array_agg(t.ver) vers, array_agg(t.xmin::text) xmins
		FROM templates t WHERE t.id = ANY($1)) tp,
	(SELECT array_agg(k.i) idx, array_agg(c.ver) vers, array_agg(c.x) xmins
		FROM unnest($3::text[], $4::text[]) WITH ORDINALITY k(client_in, tenant, i),
		LATERAL (SELECT c.ver, c.xmin::text x FROM claims c
			WHERE c.client_in = k.client_in AND c.tenant = k.tenant LIMIT 1) c) cl`

func (tr *trust) claimsOrNil() []claimRef {
	if tr == nil {
		return nil
	}
	return tr.claims
}

func (tr *trust) tplsOrNil() []keptRef {
	if tr == nil {
		return nil
	}
	return tr.tpls
}
