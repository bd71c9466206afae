package postgres

import "github.com/jackc/pgx/v5/pgtype"

// Array arguments of statements. pgx encodes a plain slice through
// pgtype.FlatArray, whose Index puts each element in an interface: an
// allocation per string and per int64 past 255, a tenth of a create's
// allocations. The Index of these gives a pointer, which an interface
// holds as it is, to an element that hands pgx its value (TextValuer,
// Int64Valuer): the same bytes on the wire.
type (
	texts  []string
	int64s []int64
	// textElem and int64Elem are an element of texts and of int64s.
	textElem  string
	int64Elem int64
)

func (a texts) Dimensions() []pgtype.ArrayDimension  { return dimensions(a == nil, len(a)) }
func (a texts) Index(i int) any                      { return (*textElem)(&a[i]) }
func (a texts) IndexType() any                       { return (*textElem)(nil) }
func (a int64s) Dimensions() []pgtype.ArrayDimension { return dimensions(a == nil, len(a)) }
func (a int64s) Index(i int) any                     { return (*int64Elem)(&a[i]) }
func (a int64s) IndexType() any                      { return (*int64Elem)(nil) }

func (e *textElem) TextValue() (pgtype.Text, error) {
	return pgtype.Text{String: string(*e), Valid: true}, nil
}

func (e *int64Elem) Int64Value() (pgtype.Int8, error) {
	return pgtype.Int8{Int64: int64(*e), Valid: true}, nil
}

// dimensions are those of a one-dimensional array of n elements, none
// (NULL) when null.
func dimensions(null bool, n int) []pgtype.ArrayDimension {
	if null {
		return nil
	}
	return []pgtype.ArrayDimension{{Length: int32(n), LowerBound: 1}}
}
