package signflow

import "time"

// RunTimers does the work of every timer due now, a batch per transaction,
// and says how many it did: contracts cancelled at their deadline,
// reminders of signing and of payments sent. Texts go out once their transaction has committed.
func (s *Service) RunTimers() (int, error) {
	total := 0
	for {
		now := UTC(s.opt.Now())
		var texts []queuedText
		n := 0
		err := s.store.Update(func(tx Tx) error {
			texts, n = nil, 0
			list, err := tx.DueTimers(now.Add(time.Nanosecond), sweepBatch)
			if err != nil {
				return err
			}
			for _, tm := range list {
				switch tm.Kind {
				case TimerDeadline:
					err = s.expireContract(tx, tm, now)
				case TimerReminder, TimerPayment:
					remind := s.remind
					if tm.Kind == TimerPayment {
						remind = s.remindPayment
					}
					var text *queuedText
					text, err = remind(tx, tm, now)
					if text != nil {
						texts = append(texts, *text)
					}
				default:
					err = tx.DeleteTimer(tm.Kind, tm.Subject)
				}
				if err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if err != nil {
			return total, err
		}
		for _, t := range texts {
			s.opt.Queue.Enqueue(t.phone, t.text)
		}
		total += n
		if n < sweepBatch {
			return total, nil
		}
	}
}

// queuedText is a text to send once its transaction commits.
type queuedText struct{ phone, text string }
