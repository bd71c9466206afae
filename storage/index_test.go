package storage_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// assertIndexesConsistent fails the test for every index entry of db that
// disagrees with its record, and every record that lacks its entries.
func assertIndexesConsistent(t testing.TB, db *storage.DB) {
	t.Helper()
	var problems []string
	err := db.Bolt().View(func(btx *bolt.Tx) error {
		problems = indexProblems(btx)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// indexProblems checks, in one read transaction, every secondary index of
// the storage layout (see the tree in db.go) against the records.
func indexProblems(btx *bolt.Tx) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	bucket := func(name string) *bolt.Bucket {
		b := btx.Bucket([]byte(name))
		if b == nil {
			bad("bucket %s is missing", name)
			return nil
		}
		return b
	}
	for _, name := range []string{"contracts", "contract_numbers", "contract_party", "contract_pair", "owners",
		"owner_names", "claims", "claim_names", "audit", "deliveries", "delivery_bodies", "delivery_contract", "delivery_due", "delivery_lanes",
		"sessions", "session_tokens",
		"session_expiry", "keys", "key_hashes", "key_owners"} {
		if bucket(name) == nil {
			return out
		}
	}

	contracts := map[string]*signflow.Contract{}
	bucket("contracts").ForEach(func(k, v []byte) error {
		c := new(signflow.Contract)
		if err := json.Unmarshal(v, c); err != nil {
			bad("contract %s: %v", k, err)
			return nil
		}
		if c.ID != string(k) || c.Number == "" || c.Seq == 0 || c.Hash != signflow.DocumentHash(c) {
			bad("contract %s is incomplete or altered: id %q number %q seq %d", k, c.ID, c.Number, c.Seq)
		}
		contracts[c.ID] = c
		return nil
	})
	numbers := 0
	bucket("contract_numbers").ForEach(func(k, v []byte) error {
		numbers++
		if c := contracts[string(v)]; c == nil || c.Number != string(k) {
			bad("contract_numbers %s -> %s: no contract with that number", k, v)
		}
		return nil
	})
	if numbers != len(contracts) {
		bad("contract_numbers has %d entries for %d contracts", numbers, len(contracts))
	}

	checkSummary := func(where string, in, other string, seq uint64, v []byte) string {
		f := strings.Split(string(v), "\x1f")
		if len(f) != 5 {
			bad("%s: malformed summary %q", where, v)
			return ""
		}
		c := contracts[f[4]]
		switch {
		case c == nil:
			bad("%s points at missing contract %s", where, f[4])
		case c.Seq != seq || !c.HasParty(in) || c.Counterparty(in) != other:
			bad("%s does not match contract %s (seq %d, buyer %s, seller %s)", where, c.Number, c.Seq, c.BuyerIN, c.SellerIN)
		case f[0] != c.Status || f[1] != c.TemplateID || f[2] != other || f[3] != c.Number:
			bad("%s: stale summary %q for contract %s in status %s", where, v, c.Number, c.Status)
		default:
			return c.ID
		}
		return ""
	}
	partyCount, pairCount := map[string]int{}, map[string]int{}
	bucket("contract_party").ForEach(func(k, v []byte) error {
		if len(k) < 10 || k[len(k)-9] != 0 {
			bad("contract_party: malformed key %q", k)
			return nil
		}
		in, seq := string(k[:len(k)-9]), binary.BigEndian.Uint64(k[len(k)-8:])
		other := ""
		if f := strings.Split(string(v), "\x1f"); len(f) == 5 {
			other = f[2]
		}
		if id := checkSummary(fmt.Sprintf("contract_party %s/%d", in, seq), in, other, seq, v); id != "" {
			partyCount[id]++
		}
		return nil
	})
	bucket("contract_pair").ForEach(func(k, v []byte) error {
		if len(k) < 11 || k[len(k)-9] != 0 {
			bad("contract_pair: malformed key %q", k)
			return nil
		}
		in, other, ok := strings.Cut(string(k[:len(k)-9]), "\x00")
		if !ok {
			bad("contract_pair: malformed key %q", k)
			return nil
		}
		seq := binary.BigEndian.Uint64(k[len(k)-8:])
		if id := checkSummary(fmt.Sprintf("contract_pair %s/%s/%d", in, other, seq), in, other, seq, v); id != "" {
			pairCount[id]++
		}
		return nil
	})
	audit := map[string][]string{}
	bucket("audit").ForEach(func(k, v []byte) error {
		e := new(signflow.AuditEvent)
		if err := json.Unmarshal(v, e); err != nil || !bytes.HasPrefix(k, []byte(e.ContractID+"\x00")) {
			bad("audit %q: undecodable or filed under another contract", k)
			return nil
		}
		audit[e.ContractID] = append(audit[e.ContractID], e.Type)
		return nil
	})
	for id, c := range contracts {
		if partyCount[id] != 2 || pairCount[id] != 2 {
			bad("contract %s has %d party and %d pair entries, want 2 and 2", c.Number, partyCount[id], pairCount[id])
		}
		if ev := audit[id]; len(ev) == 0 || ev[0] != signflow.EventCreated {
			bad("contract %s: audit trail %v does not start with %s", c.Number, ev, signflow.EventCreated)
		}
		if c.Status == signflow.StatusCancelled && !slices.Contains(audit[id], signflow.EventCancelled) {
			bad("contract %s is CANCELLED without its audit event", c.Number)
		}
	}

	// owner_names and claim_names hold exactly the words of each owner's
	// and each claim's current name; claim_names under its tenant.
	for _, idx := range []struct{ records, names string }{{"owners", "owner_names"}, {"claims", "claim_names"}} {
		want := map[string]bool{}
		bucket(idx.records).ForEach(func(k, v []byte) error {
			c := new(signflow.Client)
			in, tenant, _ := strings.Cut(string(k), "\x00")
			if err := json.Unmarshal(v, c); err != nil || c.IN != in || (idx.records == "claims") != (tenant != "") {
				bad("%s %q: undecodable or misfiled", idx.records, k)
				return nil
			}
			for _, w := range clientNameWords(c) {
				key := w + "\x00" + c.IN
				if tenant != "" {
					key = tenant + "\x00" + key
				}
				want[key] = true
			}
			return nil
		})
		got := map[string]bool{}
		bucket(idx.names).ForEach(func(k, _ []byte) error { got[string(k)] = true; return nil })
		for k := range got {
			if !want[k] {
				bad("%s: stale entry %q", idx.names, k)
			}
		}
		for k := range want {
			if !got[k] {
				bad("%s: missing entry %q", idx.names, k)
			}
		}
	}

	// The outbox: the rows, each with its body.
	deliveries := map[string]*signflow.Delivery{}
	bucket("deliveries").ForEach(func(k, v []byte) error {
		d := new(signflow.Delivery)
		if err := storage.DecodeDeliveryRow(v, d); err != nil || d.ID != string(k) || len(btx.Bucket([]byte("delivery_bodies")).Get(k)) == 0 || contracts[d.ContractID] == nil {
			bad("delivery %s: undecodable, without body or for a missing contract", k)
			return nil
		}
		deliveries[d.ID] = d
		return nil
	})
	// The claim indexes: the lanes of exactly the PENDING rows, and the due
	// time of exactly the first (lowest sequence) of each lane.
	due, laned, heads := map[string]bool{}, map[string]bool{}, map[string]*signflow.Delivery{}
	for _, d := range deliveries {
		lane := d.Target + "\x00" + d.ContractID
		if h := heads[lane]; d.Status == signflow.DeliveryPending && (h == nil || d.Seq < h.Seq) {
			heads[lane] = d
		}
	}
	bucket("delivery_due").ForEach(func(k, v []byte) error {
		parts := strings.Split(string(v), "\x00")
		d := deliveries[parts[len(parts)-1]]
		if d == nil || d.Status != signflow.DeliveryPending || len(k) != len(d.Target)+17 || len(parts) != 2 ||
			string(k[:len(d.Target)+1]) != d.Target+"\x00" || binary.BigEndian.Uint64(k[len(k)-16:]) != uint64(d.NextAt.UnixNano()) ||
			binary.BigEndian.Uint64(k[len(k)-8:]) != d.Seq || parts[0] != d.ContractID || heads[d.Target+"\x00"+d.ContractID] != d {
			bad("delivery_due %q -> %q: not the first PENDING delivery of its lane, due then", k, v)
			return nil
		}
		due[d.ID] = true
		return nil
	})
	bucket("delivery_lanes").ForEach(func(k, v []byte) error {
		var d *signflow.Delivery
		if len(v) > 8 {
			d = deliveries[string(v[8:])]
		}
		if d == nil || d.Status != signflow.DeliveryPending || string(k) != d.Target+"\x00"+d.ContractID+"\x00"+string(k[len(k)-8:]) ||
			binary.BigEndian.Uint64(k[len(k)-8:]) != d.Seq || binary.BigEndian.Uint64(v[:8]) != uint64(d.NextAt.UnixNano()) {
			bad("delivery_lanes %q -> %q: not a PENDING delivery of that lane", k, v)
			return nil
		}
		laned[d.ID] = true
		return nil
	})
	for id, d := range deliveries {
		pending := d.Status == signflow.DeliveryPending
		head := pending && heads[d.Target+"\x00"+d.ContractID] == d
		if due[id] != head || laned[id] != pending {
			bad("delivery %s in status %s: due=%v laned=%v", id, d.Status, due[id], laned[id])
		}
	}
	perContract := 0
	bucket("delivery_contract").ForEach(func(k, v []byte) error {
		perContract++
		if d := deliveries[string(v)]; d == nil || !bytes.HasPrefix(k, []byte(d.ContractID+"\x00")) {
			bad("delivery_contract %q -> %s: no such delivery of that contract", k, v)
		}
		return nil
	})
	if perContract != len(deliveries) {
		bad("delivery_contract has %d entries for %d deliveries", perContract, len(deliveries))
	}
	if btx.Bucket([]byte("delivery_queue")) != nil {
		bad("delivery_queue is left: delivery_lanes holds the PENDING rows")
	}

	// Sessions: the expiry index holds exactly the PENDING ones.
	sessions := map[string]*signflow.SignSession{}
	bucket("sessions").ForEach(func(k, v []byte) error {
		s := new(signflow.SignSession)
		if err := json.Unmarshal(v, s); err != nil || s.ID != string(k) || contracts[s.ContractID] == nil {
			bad("session %s: undecodable or for a missing contract", k)
			return nil
		}
		sessions[s.ID] = s
		return nil
	})
	expiring := map[string]bool{}
	bucket("session_expiry").ForEach(func(k, _ []byte) error {
		if len(k) <= 8 {
			bad("session_expiry: malformed key %x", k)
			return nil
		}
		s := sessions[string(k[8:])]
		if s == nil || s.Status != signflow.SessionPending || binary.BigEndian.Uint64(k[:8]) != uint64(s.ExpiresAt.UnixNano()) {
			bad("session_expiry %x: not a PENDING session expiring then", k)
		}
		expiring[string(k[8:])] = true
		return nil
	})
	for id, s := range sessions {
		if (s.Status == signflow.SessionPending) != expiring[id] {
			bad("session %s in status %s: in expiry index=%v", id, s.Status, expiring[id])
		}
	}
	bucket("session_tokens").ForEach(func(k, v []byte) error {
		if s := sessions[string(v)]; s == nil || !bytes.Equal(s.TokenHash, k) {
			bad("session_tokens %x -> %s: no session with that token hash", k, v)
		}
		return nil
	})

	// Keys: hash and owner indexes.
	keys := map[string]*signflow.APIKey{}
	bucket("keys").ForEach(func(k, v []byte) error {
		key := new(signflow.APIKey)
		if err := json.Unmarshal(v, key); err != nil || key.ID != string(k) {
			bad("key %s: undecodable or misfiled", k)
			return nil
		}
		keys[key.ID] = key
		return nil
	})
	bucket("key_hashes").ForEach(func(k, v []byte) error {
		if key := keys[string(v)]; key == nil || !bytes.Equal(key.Hash, k) {
			bad("key_hashes %x -> %s: no key with that hash", k, v)
		}
		return nil
	})
	owners := 0
	bucket("key_owners").ForEach(func(k, _ []byte) error {
		owners++
		in, id, _ := strings.Cut(string(k), "\x00")
		if key := keys[id]; key == nil || key.OwnerIN != in {
			bad("key_owners %q: no key %s owned by %s", k, id, in)
		}
		return nil
	})
	if owners != len(keys) {
		bad("key_owners has %d entries for %d keys", owners, len(keys))
	}
	out = append(out, pairCountProblems(btx, contracts)...)
	sort.Strings(out)
	return out
}

// clientNameWords are the lower-case words of a client's names, as search
// matches them.
func clientNameWords(c *signflow.Client) []string {
	text := strings.ToLower(strings.Join([]string{c.FirstName, c.LastName, c.MidName, c.LegalName}, " "))
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
