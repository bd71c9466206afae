package server_test

import (
	"strconv"
	"testing"
	"time"

	"contracts/signflow"
)

// The review's first finding: tenant B made contracts whose buyer is an
// individual owner of its own (X), opened 30 sessions over 3 contracts and
// sent 30 codes and 150 guesses to X's phone, none refused. Now B's codes
// and wrong codes for X are counted across all of B's contracts: 20 codes,
// then 10 wrong codes, then B's new sessions for X are refused until the
// day has passed, while A's contract with X is signed as ever.
func TestSigningCodesCappedPerTenantAndNumber(t *testing.T) {
	e := newTenancyWith(t, signflow.Options{SessionsPerPartyPerHour: 10, CodesPerPartyPerDay: 20, WrongCodesPerPartyPerDay: 10})
	appA, appB := e.alphaAndBeta()
	e.owner(map[string]any{"in": personX, "firstName": "Olim", "lastName": "Test", "phone": ownerXPh})
	var contracts []string
	for range 3 {
		contracts = append(contracts, e.contract(appB, map[string]any{"buyerIn": personX}))
	}

	// 3 contracts x 10 sessions, a code asked for in each: 20 go out.
	var tokens []string
	sent, refused := 0, 0
	for _, id := range contracts {
		for range 10 {
			r, tok := e.session(appB, id, personX)
			if r.Status != 200 {
				t.Fatalf("session: %d %s", r.Status, r.Body)
			}
			tokens = append(tokens, tok)
			switch r := e.page(tok, "code", nil); r.Status {
			case 200:
				sent++
			case 429:
				refused++
				if after, _ := strconv.Atoi(r.Header.Get("Retry-After")); after <= 0 || after > 86400 {
					t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
				}
			default:
				t.Fatalf("code: %d %s", r.Status, r.Body)
			}
		}
	}
	if sent != 20 || refused != 10 || len(e.sms.WaitFor(t, 20)) != 20 {
		t.Fatalf("%d codes sent, %d refused, %d texts; want 20, 10, 20", sent, refused, e.sms.Count())
	}

	// Guesses in the sessions that hold a code: 10 wrong ones, then none.
	wrong, stopped := 0, 0
	for _, tok := range tokens[:20] {
		for range 5 {
			switch r := e.page(tok, "confirm", map[string]any{"code": "00000"}); r.Status {
			case 400, 403:
				wrong++
			case 429:
				stopped++
			default:
				t.Fatalf("guess: %d %s", r.Status, r.Body)
			}
		}
	}
	if wrong != 10 || stopped != 90 {
		t.Fatalf("%d wrong guesses checked, %d refused; want 10 and 90", wrong, stopped)
	}
	if r, _ := e.session(appB, contracts[0], personX); r.Status != 429 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("B's new session for X after 10 wrong codes: %d %s", r.Status, r.Body)
	}

	// A's contract with the same person is untouched by B's misuse.
	idA := e.contract(appA, map[string]any{"buyerIn": personX})
	_, tokA := e.session(appA, idA, personX)
	if tokA == "" {
		t.Fatal("A's session for X was refused")
	}
	if r := e.page(tokA, "code", nil); r.Status != 200 {
		t.Fatalf("A's code: %d %s", r.Status, r.Body)
	}
	if r := e.page(tokA, "confirm", map[string]any{"code": e.codeTo(ownerXPh)}); r.Status != 200 {
		t.Fatalf("X signs A's contract: %d %s", r.Status, r.Body)
	}

	// A day later B may open a session for X again.
	e.w.Clock.Advance(signflow.PartyDay + time.Second)
	if r, _ := e.session(e.app(ownerB), contracts[1], personX); r.Status != 200 {
		t.Fatalf("B's session a day later: %d %s", r.Status, r.Body)
	}
}
