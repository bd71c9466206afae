package signflow

import "time"

func (s *Service) remind(tx Tx, tm *Timer, now time.Time) (*queuedText, error) {
	return nil, tx.DeleteTimer(tm.Kind, tm.Subject)
}
