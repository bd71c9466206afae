package signflow

import (
	"time"
)

// ReasonExpired is the webhook body's reason for a contract the service
// cancelled at its signBy.
const ReasonExpired = "EXPIRED"

// checkSignBy refuses a deadline that is not in the future or is more
// than a year ahead.
func checkSignBy(signBy *time.Time, now time.Time) error {
	if signBy == nil {
		return nil
	}
	if !signBy.After(now) {
		return Errorf(EINVALID, "signBy: must be in the future")
	}
	if signBy.After(now.AddDate(1, 0, 0)) {
		return Errorf(EINVALID, "signBy: must be at most a year ahead")
	}
	return nil
}

// expireContract cancels, on its creator's behalf, a contract still
// CREATED at its deadline. Its open sessions expire at the deadline by
// themselves: a session never outlives the contract's signBy.
func (s *Service) expireContract(tx Tx, tm *Timer, now time.Time) error {
	if err := tx.DeleteTimer(tm.Kind, tm.Subject); err != nil {
		return err
	}
	c, err := tx.Contract(tm.ContractID)
	if ErrorCode(err) == ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	if c.Status != StatusCreated || c.SignBy == nil || now.Before(*c.SignBy) {
		return nil
	}
	events := c.cancel(now)
	if err := putChange(tx, c); err != nil {
		return err
	}
	return s.recordWhy(tx, c, events, Actor{IN: c.CreatorIN}, "", "",
		why{detail: "the deadline to sign (signBy) passed", reason: ReasonExpired})
}

// sessionEnd is when a session opened now for c ends: its lifetime, but
// never past the contract's signBy.
func (s *Service) sessionEnd(c *Contract, now time.Time) time.Time {
	end := now.Add(s.opt.SessionTTL)
	if c.SignBy != nil && c.SignBy.Before(end) {
		end = *c.SignBy
	}
	return end
}
