package embedded

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"contracts/signflow"

	"github.com/google/uuid"
)

// timeLayout is the one date-time form on the wire: UTC, whole seconds.
const timeLayout = "2006-01-02T15:04:05Z"

// wireTime writes a time as "YYYY-MM-DDThh:mm:ssZ". It is a TextMarshaler,
// so encoding/json writes it as a plain string without re-scanning it.
type wireTime time.Time

// MarshalText renders the time in UTC.
func (t wireTime) MarshalText() ([]byte, error) {
	return time.Time(t).UTC().AppendFormat(make([]byte, 0, len(timeLayout)), timeLayout), nil
}

// optTime is a wire time, nil (JSON null) when t is nil or zero.
func optTime(t *time.Time) *wireTime {
	if t == nil || t.IsZero() {
		return nil
	}
	w := wireTime(*t)
	return &w
}

// optString is s, nil (JSON null) when empty: the spec's "may be null".
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// parseDateTime reads a request date-time: RFC 3339 with any offset (and
// optional fraction), or a plain YYYY-MM-DD read as midnight UTC. Empty is
// nil. The result is UTC in whole seconds.
func parseDateTime(s, field string) (*time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		if t, err = time.ParseInLocation(time.DateOnly, s, time.UTC); err != nil {
			return nil, signflow.Errorf(signflow.EINVALID, "%s: must be a date-time such as 2026-01-31T10:00:00Z, or a date 2026-01-31", field)
		}
	}
	u := signflow.UTC(t)
	return &u, nil
}

// amount is a money value of a request in major units. It accepts only a
// JSON number (or null, meaning absent) and keeps its exact text, so that
// signflow.MinorFromMajor can refuse more than two decimals; any other JSON
// type is an UnmarshalTypeError, which the decoder names with its field.
type amount json.Number

// UnmarshalJSON keeps the number's text.
func (n *amount) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		*n = ""
		return nil
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*n = amount(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKindOf(b), Type: reflect.TypeFor[float64]()}
}

// minor converts the amount to minor units; field names it in errors.
func (n amount) minor(field string) (int64, error) {
	return signflow.MinorFromMajor(json.Number(n), field)
}

func jsonKindOf(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	}
	return "value"
}

// major renders minor units as a major-unit JSON number.
func major(minor int64) json.Number { return signflow.MajorNumber(minor) }

// currencyIDs gives each currency a stable UUID (SHA-1 name-based), the
// same on every installation.
var currencyIDs = func() map[string]string {
	m := make(map[string]string, len(signflow.Currencies))
	for _, c := range signflow.Currencies {
		m[c] = uuid.NewSHA1(uuid.NameSpaceURL, []byte("urn:contracts:currency:"+c)).String()
	}
	return m
}()

// currencyID is the UUID of a currency code, nil for an unknown code.
func currencyID(code string) *string {
	if id, ok := currencyIDs[code]; ok {
		return &id
	}
	return nil
}
