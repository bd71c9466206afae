package server_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/signflow"
)

// Tenants A and B both know person N, each with its own name and phone for
// N, and each has contracts with N. Every actor of one tenant (its app, its
// key, N in the cabinet with the phone that tenant holds) tries every
// endpoint on the other tenant's clients, contracts and sessions: nothing
// is read or changed. The same requests on its own tenant's succeed, so a
// refusal is not a broken setup.
func TestTenantEndpointMatrix(t *testing.T) {
	e := newTenancy(t)
	appA, appB := e.alphaAndBeta()
	keyA, keyB := e.apiKey(ownerA), e.apiKey(ownerB)
	const phB = "998905550000"
	e.ok(e.emb(appA, "POST", "/v1/clients", person(personN, "Aziz", "Karimov", realPh)), "A registers N")
	e.ok(e.emb(appB, "POST", "/v1/clients", person(personN, "Bobur", "Nazarov", phB)), "B registers N")

	type side struct {
		name, app, key, phone, label string
		otherLabel, otherPhone       string
		contracts                    []string // by app and by key
		numbers                      []string
		session, sessionToken        string // an app session of the tenant, for N
		cabinet                      *visitor
	}
	a := &side{name: "A", app: appA, key: keyA, phone: realPh, label: "Karimov", otherLabel: "Nazarov", otherPhone: phB}
	b := &side{name: "B", app: appB, key: keyB, phone: phB, label: "Nazarov", otherLabel: "Karimov", otherPhone: realPh}
	for _, s := range []*side{a, b} {
		s.contracts = []string{e.contract(s.app, map[string]any{"buyerIn": personN}), e.contract(s.key, map[string]any{"buyerIn": personN})}
		for _, id := range s.contracts {
			s.numbers = append(s.numbers, e.ok(e.keyCall(s.key, "GET", "/v1/contracts/"+id, nil), "read")["number"].(string))
		}
		r, tok := e.session(s.app, s.contracts[0], personN)
		s.session, s.sessionToken = r.JSON(t)["id"].(string), tok
	}
	// N logs into the cabinet twice: with the code A's phone got, and with B's.
	for _, s := range []*side{a, b} {
		s.cabinet = e.visitor()
		if r := s.cabinet.askCode(personN); r.Status != 200 {
			t.Fatalf("login code: %d", r.Status)
		}
		codes := map[string]string{realPh: e.codeTo(realPh), phB: e.codeTo(phB)}
		if r := s.cabinet.logIn(personN, codes[s.phone]); r.Status != 200 {
			t.Fatalf("N logs in with %s: %d %s", s.phone, r.Status, r.Body)
		}
		e.w.Clock.Advance(signflow.ResendAfter)
	}

	type try struct {
		name string
		do   func() apitest.Reply
		want int
	}
	tries := func(me, other *side) []try {
		var out []try
		add := func(name string, want int, do func() apitest.Reply) {
			out = append(out, try{me.name + ": " + name, do, want})
		}
		// Clients: each reads and writes its own claim only.
		add("app reads N", 200, func() apitest.Reply { return e.emb(me.app, "GET", "/v1/clients/"+personN, nil) })
		add("key reads N", 200, func() apitest.Reply { return e.keyCall(me.key, "GET", "/v1/clients/"+personN, nil) })
		add("app registers N again with the other's data", 200, func() apitest.Reply {
			return e.emb(me.app, "POST", "/v1/clients", person(personN, "Other", other.label, other.phone))
		})
		// The other tenant's contracts, through each interface.
		for i, id := range other.contracts {
			which := fmt.Sprintf("the other's contract %d", i)
			add("app reads "+which, 403, func() apitest.Reply { return e.emb(me.app, "GET", "/v1/contracts/"+id, nil) })
			add("app reads the PDF of "+which, 403, func() apitest.Reply { return e.emb(me.app, "GET", "/v1/contracts/"+id+"/pdf", nil) })
			add("app cancels "+which, 403, func() apitest.Reply { return e.emb(me.app, "POST", "/v1/contracts/"+id+"/cancel", nil) })
			add("app completes "+which, 403, func() apitest.Reply { return e.emb(me.app, "POST", "/v1/contracts/"+id+"/complete", nil) })
			add("app opens a session on "+which, 403, func() apitest.Reply {
				return e.emb(me.app, "POST", "/v1/contracts/"+id+"/sign-sessions", map[string]any{"signerIn": personN})
			})
			add("key reads "+which, 403, func() apitest.Reply { return e.keyCall(me.key, "GET", "/v1/contracts/"+id, nil) })
			add("key reads the PDF of "+which, 403, func() apitest.Reply { return e.keyCall(me.key, "GET", "/v1/contracts/"+id+"/pdf", nil) })
			add("key cancels "+which, 403, func() apitest.Reply { return e.keyCall(me.key, "POST", "/v1/contracts/"+id+"/cancel", nil) })
			add("cabinet reads "+which, 403, func() apitest.Reply { return me.cabinet.get("/cabinet/api/contracts/" + id) })
			add("cabinet page of "+which, 404, func() apitest.Reply { return me.cabinet.get("/cabinet/contracts/" + id) })
			add("cabinet PDF of "+which, 404, func() apitest.Reply { return me.cabinet.get("/cabinet/contracts/" + id + "/pdf") })
			add("cabinet cancels "+which, 403, func() apitest.Reply { return me.cabinet.post("/cabinet/api/contracts/"+id+"/cancel", nil) })
			add("cabinet opens signing on "+which, 403, func() apitest.Reply { return me.cabinet.post("/cabinet/api/contracts/"+id+"/signing", nil) })
		}
		add("app reads the other's session", 404, func() apitest.Reply { return e.emb(me.app, "GET", "/v1/sign-sessions/"+other.session, nil) })
		add("cabinet rejects through the other's session", 404, func() apitest.Reply {
			return me.cabinet.post("/cabinet/api/signing/reject", map[string]any{"token": other.sessionToken})
		})
		add("cabinet sends a code for the other's session", 404, func() apitest.Reply {
			return me.cabinet.post("/cabinet/api/signing/code", map[string]any{"token": other.sessionToken})
		})
		// Its own, for contrast.
		for i, id := range me.contracts {
			which := fmt.Sprintf("its contract %d", i)
			add("key reads "+which, 200, func() apitest.Reply { return e.keyCall(me.key, "GET", "/v1/contracts/"+id, nil) })
			add("app reads "+which, 200, func() apitest.Reply { return e.emb(me.app, "GET", "/v1/contracts/"+id, nil) })
			add("cabinet reads "+which, 200, func() apitest.Reply { return me.cabinet.get("/cabinet/api/contracts/" + id) })
		}
		add("app reads its session", 200, func() apitest.Reply { return e.emb(me.app, "GET", "/v1/sign-sessions/"+me.session, nil) })
		return out
	}
	for _, pair := range [][2]*side{{a, b}, {b, a}} {
		me, other := pair[0], pair[1]
		for _, tr := range tries(me, other) {
			r := tr.do()
			if r.Status != tr.want {
				t.Errorf("%s: %d, want %d: %.300s", tr.name, r.Status, tr.want, r.Body)
			}
			for _, secret := range append([]string{other.phone, other.label}, other.numbers...) {
				if strings.Contains(r.Body, secret) {
					t.Errorf("%s: the answer shows the other tenant's %q", tr.name, secret)
				}
			}
		}
		// Lists and searches hold only the tenant's own contracts.
		lists := []apitest.Reply{me.cabinet.get("/cabinet"), e.keyCall(me.key, "GET", "/v1/contracts?size=100", nil),
			e.keyCall(me.key, "GET", "/v1/contracts?search="+personN, nil),
			e.keyCall(me.key, "GET", "/v1/contracts?search="+url.QueryEscape(me.label), nil)}
		for i, r := range lists {
			for _, n := range me.numbers {
				if !strings.Contains(r.Body, n) {
					t.Errorf("%s: list %d lacks its own contract %s", me.name, i, n)
				}
			}
			for _, secret := range append([]string{other.phone, other.label}, other.numbers...) {
				if strings.Contains(r.Body, secret) {
					t.Errorf("%s: list %d shows the other tenant's %q", me.name, i, secret)
				}
			}
		}
		if r := e.keyCall(me.key, "GET", "/v1/contracts?search="+url.QueryEscape(other.label), nil); !strings.Contains(r.Body, `"totalElements":0`) {
			t.Errorf("%s: a search by the other tenant's name for N finds: %.300s", me.name, r.Body)
		}
	}
	// Nothing changed: every contract is as created, each claim as its tenant wrote it.
	for _, s := range []*side{a, b} {
		for _, id := range s.contracts {
			if st := e.state(s.app, id); st != "CREATED buyer PENDING seller PENDING" {
				t.Errorf("%s's contract %s: %s", s.name, id, st)
			}
		}
		if c := e.ok(e.emb(s.app, "GET", "/v1/clients/"+personN, nil), "claim"); c["phone"] != s.phone || c["lastName"] != s.label {
			t.Errorf("%s's claim on N: %v", s.name, c)
		}
	}
}
