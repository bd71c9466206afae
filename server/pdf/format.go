package pdf

import (
	"strconv"
	"strings"
	"time"
)

// Date and time layouts; both are printed in UTC.
const (
	dateLayout = "2006-01-02"
	timeLayout = "2006-01-02 15:04:05 UTC"
)

// FormatMoney prints an amount in minor units as major units with two
// decimals, thousands grouped by a space, and the currency: "1 500.00 UZS".
func FormatMoney(minor int64, currency string) string {
	neg := minor < 0
	u := uint64(minor)
	if neg {
		u = -u
	}
	digits := strconv.FormatUint(u/100, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	cents := u % 100
	b.WriteByte('.')
	b.WriteByte(byte('0' + cents/10))
	b.WriteByte(byte('0' + cents%10))
	if currency != "" {
		b.WriteByte(' ')
		b.WriteString(currency)
	}
	return b.String()
}

// formatDate prints the UTC date of t.
func formatDate(t time.Time) string { return t.UTC().Format(dateLayout) }

// formatTime prints t in UTC to the second.
func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// formatQuantity prints a quantity without trailing zeros: 2, 1.5, 0.25.
func formatQuantity(q float64) string { return strconv.FormatFloat(q, 'f', -1, 64) }
