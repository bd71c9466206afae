package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"

	"contracts/signflow"
)

// A delivery row is read at every claim and read and written at every
// settle, so it is kept in a fixed layout rather than JSON (schema 11):
//
//	0x01, then id, event, contract id, target, target name, url, status
//	(each a uvarint length and the bytes), seq, round start (uvarints),
//	next at, created at (times), the attempts' count and each attempt's
//	at (time), status code (varint), duration ms (varint), error (string)
//
// A time is its unix seconds (varint) and nanoseconds (uvarint), read back
// in UTC. Rows written before are JSON, and are read as such. The body
// lives in delivery_bodies.
const deliveryRowV1 = 0x01

var errDeliveryRow = errors.New("storage: a delivery row cut short")

func encodeDelivery(d *signflow.Delivery) []byte {
	n := 32 + len(d.ID) + len(d.Event) + len(d.ContractID) + len(d.Target) + len(d.TargetName) + len(d.URL) + len(d.Status)
	for _, a := range d.Attempts {
		n += 24 + len(a.Error)
	}
	b := append(make([]byte, 0, n), deliveryRowV1)
	for _, s := range [...]string{d.ID, d.Event, d.ContractID, d.Target, d.TargetName, d.URL, d.Status} {
		b = appendSized(b, s)
	}
	b = binary.AppendUvarint(b, d.Seq)
	b = binary.AppendUvarint(b, uint64(d.RoundStart))
	b = appendUnixTime(appendUnixTime(b, d.NextAt), d.CreatedAt)
	b = binary.AppendUvarint(b, uint64(len(d.Attempts)))
	for _, a := range d.Attempts {
		b = appendUnixTime(b, a.At)
		b = binary.AppendVarint(b, int64(a.StatusCode))
		b = binary.AppendVarint(b, a.DurationMs)
		b = appendSized(b, a.Error)
	}
	return b
}

func appendSized(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendUnixTime(b []byte, t time.Time) []byte {
	return binary.AppendUvarint(binary.AppendVarint(b, t.Unix()), uint64(t.Nanosecond()))
}

// decodeDelivery reads a row in either layout into d.
func decodeDelivery(data []byte, d *signflow.Delivery) error {
	if len(data) == 0 || data[0] != deliveryRowV1 {
		return json.Unmarshal(data, d)
	}
	r := rowReader{b: data[1:], s: string(data[1:])}
	for _, s := range [...]*string{&d.ID, &d.Event, &d.ContractID, &d.Target, &d.TargetName, &d.URL, &d.Status} {
		*s = r.string()
	}
	d.Seq = r.uvarint()
	d.RoundStart = int(r.uvarint())
	d.NextAt, d.CreatedAt = r.time(), r.time()
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		return errDeliveryRow
	}
	d.Attempts = make([]signflow.Attempt, n)
	for i := range d.Attempts {
		a := &d.Attempts[i]
		a.At = r.time()
		a.StatusCode = int(r.varint())
		a.DurationMs = r.varint()
		a.Error = r.string()
	}
	if r.bad {
		return errDeliveryRow
	}
	return nil
}

// rowReader reads the fields of a row; past its end it reads zeros and
// says so in bad. Its strings are cut from s, the row copied once, rather
// than each copied apart.
type rowReader struct {
	b   []byte
	s   string // the bytes of b, as a string: b's tail is s's tail
	bad bool
}

func (r *rowReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *rowReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *rowReader) string() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return ""
	}
	at := len(r.s) - len(r.b)
	r.b = r.b[n:]
	return r.s[at : at+int(n)]
}

func (r *rowReader) time() time.Time {
	sec, nsec := r.varint(), r.uvarint()
	if nsec >= 1e9 {
		r.bad = true
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}
