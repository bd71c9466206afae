package signflow

import (
	"fmt"
	"slices"
	"time"
)

// SessionCapError refuses a signing session past
// Options.SessionsPerPartyPerHour; After is when the oldest session of the
// hour leaves the window and another may be opened.
type SessionCapError struct {
	Limit int
	After time.Duration
}

func (e *SessionCapError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the refusal as ERATELIMIT.
func (e *SessionCapError) Unwrap() error {
	return Errorf(ERATELIMIT, "%d signing sessions were opened for this party of the contract in the last hour; "+
		"another can be opened in %s.", e.Limit, waitText(e.After))
}

// RetryAfter is when to try again: the error handler's Retry-After.
func (e *SessionCapError) RetryAfter() time.Duration { return e.After }

func waitText(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%d seconds", int((d+time.Second-1)/time.Second))
	}
	return fmt.Sprintf("%d minute(s)", int((d+time.Minute-1)/time.Minute))
}

// capSessions refuses another session for signerIN on the contract once
// Options.SessionsPerPartyPerHour were opened for them in the last hour:
// each session may send SMS codes and take code guesses. The count is
// taken from the contract's audit trail (its SESSION_OPENED events), so it
// holds across restarts and on every node.
func (s *Service) capSessions(tx Tx, contractID, signerIN string, now time.Time) error {
	limit := s.opt.SessionsPerPartyPerHour
	if limit <= 0 {
		return nil
	}
	events, err := tx.AuditEvents(contractID)
	if err != nil {
		return err
	}
	since := now.Add(-time.Hour)
	var opened []time.Time // of this signer within the hour
	for _, e := range events {
		if e.Type != AuditSessionOpened || !e.At.After(since) || e.SessionID == "" {
			continue
		}
		sess, err := tx.Session(e.SessionID)
		if ErrorCode(err) == ENOTFOUND {
			continue
		} else if err != nil {
			return err
		}
		if sess.SignerIN == signerIN {
			opened = append(opened, e.At)
		}
	}
	if len(opened) < limit {
		return nil
	}
	slices.SortFunc(opened, time.Time.Compare)
	// The window frees a place when the oldest of the last limit sessions turns an hour old.
	return &SessionCapError{Limit: limit, After: opened[len(opened)-limit].Add(time.Hour).Sub(now)}
}
