package document

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"contracts/signflow"
)

// nbsp joins the groups of a number and its currency, so that an amount
// never breaks across lines, on a page or in the PDF.
const nbsp = "\u00a0"

// Money prints minor units as major units with two decimals, thousands
// grouped, and the currency when given: "4 650 000.00 UZS" (the spaces
// are no-break spaces).
func Money(minor int64, currency string) string {
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
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(nbsp)
		}
		b.WriteRune(r)
	}
	fmt.Fprintf(&b, ".%02d", u%100)
	if currency != "" {
		b.WriteString(nbsp + currency)
	}
	return b.String()
}

// TextMoney is Money for an SMS: plain spaces, which every phone's
// alphabet has.
func TextMoney(minor int64, currency string) string {
	return strings.ReplaceAll(Money(minor, currency), nbsp, " ")
}

// Date prints the UTC day of t as DD.MM.YYYY, as documents in Uzbekistan
// write dates.
func Date(t time.Time) string { return t.UTC().Format("02.01.2006") }

// Time prints t in UTC to the second: "01.03.2026 10:15:07 UTC".
func Time(t time.Time) string { return t.UTC().Format("02.01.2006 15:04:05") + " UTC" }

// Quantity prints a quantity without trailing zeros: 2, 1.5, 0.25.
func Quantity(q float64) string { return strconv.FormatFloat(q, 'f', -1, 64) }

// value prints a field's value for reading: dates as dates, check boxes as
// yes or no, pairs and multiple choices joined. Without the field, the
// value is printed as it is.
func (d *Doc) value(f *signflow.Field, v string) string {
	if f == nil {
		return v
	}
	switch typ := f.Type; {
	case typ == "CHECKBOX":
		if v == "true" {
			return d.T["yes"]
		}
		return d.T["no"]
	case typ == "DATE":
		if t, err := time.Parse(time.DateOnly, v); err == nil {
			return Date(t)
		}
	case strings.HasPrefix(typ, "DOUBLE_INPUT_"):
		parts := strings.SplitN(v, ";", 2)
		for i, p := range parts {
			if t, err := time.Parse(time.DateOnly, p); err == nil && typ == "DOUBLE_INPUT_DATE" {
				parts[i] = Date(t)
			}
		}
		return strings.Join(parts, " – ")
	case typ == "MULTISELECT":
		return strings.ReplaceAll(v, ";", ", ")
	}
	return v
}

// anyText prints a product value of any JSON type.
func anyText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}
