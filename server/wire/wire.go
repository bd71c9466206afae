// Package wire holds what both public interfaces put on the wire the same
// way: date-times, money amounts in either unit, the contract create
// request, a contract's witnesses and the contract PDF answer. Each
// interface keeps its own response shapes; only these shared forms live
// here.
package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"contracts/signflow"
)

// TimeLayout is the one date-time form on the wire: UTC, whole seconds.
const TimeLayout = "2006-01-02T15:04:05Z"

// Time writes a time as "YYYY-MM-DDThh:mm:ssZ". It is a TextMarshaler, so
// encoding/json writes it as a plain string without re-scanning it.
type Time time.Time

// MarshalText renders the time in UTC.
func (t Time) MarshalText() ([]byte, error) {
	return time.Time(t).UTC().AppendFormat(make([]byte, 0, len(TimeLayout)), TimeLayout), nil
}

// OptTime is a wire time, nil (JSON null) when t is nil or zero.
func OptTime(t *time.Time) *Time {
	if t == nil || t.IsZero() {
		return nil
	}
	w := Time(*t)
	return &w
}

// OptString is s, nil (JSON null) when empty: the spec's "may be null".
func OptString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ParseDateTime reads a request date-time: RFC 3339 with any offset (and
// optional fraction), or a plain YYYY-MM-DD read as midnight UTC. Empty is
// nil. The result is UTC in whole seconds.
func ParseDateTime(s, field string) (*time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	// A date alone (no RFC 3339 text is that short) is read as a date
	// at once, without the RFC 3339 attempt's error.
	var t time.Time
	var err error
	if len(s) == len(time.DateOnly) {
		t, err = time.ParseInLocation(time.DateOnly, s, time.UTC)
	} else if t, err = time.Parse(time.RFC3339, s); err != nil {
		t, err = time.ParseInLocation(time.DateOnly, s, time.UTC)
	}
	if err != nil {
		return nil, signflow.Errorf(signflow.EINVALID, "%s: must be a date-time such as 2026-01-31T10:00:00Z, or a date 2026-01-31", field)
	}
	u := signflow.UTC(t)
	return &u, nil
}

// Unit is the money unit of an interface.
type Unit int

// The embedded interface speaks major units with at most two decimals; the
// key interface whole minor units.
const (
	Major Unit = iota
	Minor
)

// Amount is a money value of a request. It accepts only a JSON number (or
// null, meaning absent) and keeps its exact text, so that a value with too
// many decimals can be refused; any other JSON type is an
// UnmarshalTypeError, which the decoder names with its field.
type Amount json.Number

// UnmarshalJSON keeps the number's text.
func (n *Amount) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		*n = ""
		return nil
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*n = Amount(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKindOf(b), Type: reflect.TypeFor[float64]()}
}

// In converts the amount to minor units read in unit u; field names it in errors.
func (n Amount) In(u Unit, field string) (int64, error) {
	if u == Minor {
		return signflow.MinorFromInteger(json.Number(n), field)
	}
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

// Witness is a witness of a contract as both interfaces show it: its
// record's id, number and names (never its phone), and whether it signed.
type Witness struct {
	ID        string  `json:"id"`
	IN        string  `json:"in"`
	FirstName *string `json:"firstName"`
	LastName  *string `json:"lastName"`
	MidName   *string `json:"midName"`
	LegalName *string `json:"legalName"`
	Status    string  `json:"status"`
	SignedAt  *Time   `json:"signedAt"`
}

// Witnesses are the witnesses of c in witnessIds order; never nil.
func Witnesses(c *signflow.Contract) []Witness {
	out := make([]Witness, 0, len(c.Witnesses))
	for _, w := range c.Witnesses {
		out = append(out, Witness{ID: w.ID, IN: w.IN, FirstName: OptString(w.FirstName), LastName: OptString(w.LastName),
			MidName: OptString(w.MidName), LegalName: OptString(w.LegalName), Status: w.Status, SignedAt: WitnessSignedAt(c, w.IN)})
	}
	return out
}

// WitnessSignedAt is when the witness in signed, nil before it has.
func WitnessSignedAt(c *signflow.Contract, in string) *Time {
	if w := c.Witness(in); w == nil || w.Status != signflow.PartyAccepted || c.Signatures[in] == nil {
		return nil
	}
	return OptTime(&c.Signatures[in].At)
}
