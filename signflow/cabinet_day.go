package signflow

import (
	"crypto/hmac"
	"slices"
	"time"
)

// The cabinet's daily cap on login texts. A stranger can ask for codes for
// anyone's number from any number of browsers and addresses; so that the
// stranger can neither text the person's phones without end nor keep the
// person out:
//   - the resend wait and the window of sends are each browser's own
//     (LoginRequest), so nobody else's requests make the person wait;
//   - requests for a number from browsers it never logged in with share
//     one cap a day (CabinetOptions.CodesPerNumberPerDay), which bounds the
//     texts a stranger can cause;
//   - a browser the number logged in with carries a cookie (KnownBrowser)
//     whose requests count apart, against a cap of their own: however many
//     codes strangers asked for, the person still gets one there;
//   - a code already sent stays good for the browser it was sent to until
//     it expires, whatever others ask for meanwhile.
// A person on a browser they never used, while strangers spend the day's
// texts, waits for the next day (the answer says how long).

// maxLoginRequests bounds the browsers' requests a number's record keeps.
const maxLoginRequests = 16

// LoginDayCount counts code requests in the LoginDay from Start.
type LoginDayCount struct {
	Start    time.Time `json:"start"`
	Requests int       `json:"requests"`
}

// KnownBrowser is a browser the number logged in with: the hash of the
// token in its cookie, until when it is known, and its own daily count.
type KnownBrowser struct {
	Hash  []byte        `json:"hash"`
	Until time.Time     `json:"until"`
	Day   LoginDayCount `json:"day"`
}

// countDay counts a code request of the browser whose known token is known
// ("" for none) against its daily cap, refusing it past the cap (0: none).
// An unknown or expired token counts with the browsers the number does not know.
func (l *CabinetLogin) countDay(known string, limit int, now time.Time) error {
	day := &l.Day
	if known != "" {
		hash := HashSecret(known)
		for i := range l.Known {
			if hmac.Equal(l.Known[i].Hash, hash) && now.Before(l.Known[i].Until) {
				day = &l.Known[i].Day
			}
		}
	}
	if !now.Before(day.Start.Add(LoginDay)) {
		*day = LoginDayCount{Start: now}
	}
	if limit > 0 && day.Requests >= limit {
		return &ResendWaitError{After: day.Start.Add(LoginDay).Sub(now)}
	}
	day.Requests++
	return nil
}

// remember marks the browser that logged in as known to the number, and
// returns the token for its cookie. The newest maxKnownBrowsers are kept.
func (l *CabinetLogin) remember(now time.Time) string {
	token := RandomToken(24)
	l.Known = slices.DeleteFunc(slices.Clone(l.Known), func(k KnownBrowser) bool { return !now.Before(k.Until) })
	l.Known = append(l.Known, KnownBrowser{Hash: HashSecret(token), Until: now.Add(KnownBrowserFor)})
	if n := len(l.Known); n > maxKnownBrowsers {
		l.Known = slices.Delete(l.Known, 0, n-maxKnownBrowsers)
	}
	return token
}
