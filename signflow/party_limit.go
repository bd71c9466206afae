package signflow

import (
	"slices"
	"time"
)

// PartyDay is how long the signing-code counts of a (tenant, number) run:
// from the first code or wrong code they count.
const PartyDay = 24 * time.Hour

// PartyCount counts the signing codes sent to one number and the wrong
// codes entered for it on the contracts one tenant created, across all
// those contracts and their sessions, for PartyDay from Start. It lives in
// the number's record (CabinetLogin), written in the transaction of the
// send or the check, so it holds across restarts and nodes.
type PartyCount struct {
	Tenant string    `json:"tenant"`
	Start  time.Time `json:"start"`
	Codes  int       `json:"codes"`
	Wrong  int       `json:"wrong"`
}

// PartyCapError refuses a code, a check or a session for a number once the
// creator's tenant reached a day's cap of codes sent or wrong codes for it;
// After is when the day has passed.
type PartyCapError struct {
	Wrong bool // the cap of wrong codes, not of codes sent
	Limit int
	After time.Duration
}

func (e *PartyCapError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the refusal as ERATELIMIT.
func (e *PartyCapError) Unwrap() error {
	if e.Wrong {
		return Errorf(ERATELIMIT, "%d wrong codes were entered for this signer on this creator's contracts today; "+
			"signing by SMS code for them can resume in %s.", e.Limit, waitText(e.After))
	}
	return Errorf(ERATELIMIT, "%d codes were sent to this signer for this creator's contracts today; another can be sent in %s.",
		e.Limit, waitText(e.After))
}

// RetryAfter is when to try again: the error handler's Retry-After.
func (e *PartyCapError) RetryAfter() time.Duration { return e.After }

// partyCount returns the live count of tenant in the number's record,
// starting a new day when the last one is over; it is added when absent.
func (l *CabinetLogin) partyCount(tenant string, now time.Time) *PartyCount {
	l.Signing = slices.DeleteFunc(slices.Clone(l.Signing), func(p PartyCount) bool { return !now.Before(p.Start.Add(PartyDay)) })
	for i := range l.Signing {
		if l.Signing[i].Tenant == tenant {
			return &l.Signing[i]
		}
	}
	l.Signing = append(l.Signing, PartyCount{Tenant: tenant, Start: now})
	return &l.Signing[len(l.Signing)-1]
}

// checkWrongCap refuses once the tenant's wrong codes for the number reached
// Options.WrongCodesPerPartyPerDay.
func (s *Service) checkWrongCap(p *PartyCount, now time.Time) error {
	if limit := s.opt.WrongCodesPerPartyPerDay; limit > 0 && p.Wrong >= limit {
		return &PartyCapError{Wrong: true, Limit: limit, After: p.Start.Add(PartyDay).Sub(now)}
	}
	return nil
}

// partyGate reads the number's record in tx and refuses when the tenant's
// wrong codes for it reached their cap; otherwise it returns the record
// and the tenant's count in it, for the caller to change and put.
func (s *Service) partyGate(tx Tx, tenant, in string, now time.Time) (*CabinetLogin, *PartyCount, error) {
	l, err := loadLogin(tx, in, now)
	if err != nil {
		return nil, nil, err
	}
	p := l.partyCount(tenant, now)
	return l, p, s.checkWrongCap(p, now)
}

// countCode counts a code sent for the tenant to the number, refusing it
// past Options.CodesPerPartyPerDay or the wrong codes' cap.
func (s *Service) countCode(tx Tx, tenant, in string, now time.Time) error {
	l, p, err := s.partyGate(tx, tenant, in, now)
	if err != nil {
		return err
	}
	if limit := s.opt.CodesPerPartyPerDay; limit > 0 && p.Codes >= limit {
		return &PartyCapError{Limit: limit, After: p.Start.Add(PartyDay).Sub(now)}
	}
	p.Codes++
	return putLogin(tx, l)
}

// uncountCode takes back a code the provider refused.
func (s *Service) uncountCode(tx Tx, tenant, in string, now time.Time) error {
	l, err := loadLogin(tx, in, now)
	if err != nil {
		return err
	}
	if p := l.partyCount(tenant, now); p.Codes > 0 {
		p.Codes--
	}
	return putLogin(tx, l)
}
