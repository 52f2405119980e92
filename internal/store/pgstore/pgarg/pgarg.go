// Package pgarg holds the element types of the array parameters that
// sqlc generates in db/pgarrays (sqlc.yaml): a nil element is NULL, and pgx
// encodes the others in binary through their Valuer methods, without the
// heap copy of each value that dereferencing a *string or *time.Time to
// encode it made (one allocation per value sent). Register (arrays.go) has
// a connection encode the arrays of them, and bigint[]'s []int64, without
// boxing each element, into a parameter buffer the connection keeps
// (scratch.go); Tracer has it keep its write buffer too (writebuf.go).
//
// A pointer to a value of the underlying type converts to a pointer of
// these types in place: (*pgarg.Text)(&s).
package pgarg

import (
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// Text is a varchar or text element.
type Text string

func (t *Text) TextValue() (pgtype.Text, error) {
	return pgtype.Text{String: string(*t), Valid: true}, nil
}

// Int8 is a bigint element.
type Int8 int64

func (i *Int8) Int64Value() (pgtype.Int8, error) {
	return pgtype.Int8{Int64: int64(*i), Valid: true}, nil
}

// Int4 is an integer element.
type Int4 int32

func (i *Int4) Int64Value() (pgtype.Int8, error) {
	return pgtype.Int8{Int64: int64(*i), Valid: true}, nil
}

// Timestamptz is a timestamptz element. It is rounded to the microsecond,
// as PostgreSQL rounds a timestamp it reads as text; pgx's binary encoding
// would truncate.
type Timestamptz time.Time

func (t *Timestamptz) TimestamptzValue() (pgtype.Timestamptz, error) {
	return pgtype.Timestamptz{Time: time.Time(*t).Round(time.Microsecond), Valid: true}, nil
}

// Date is a date element: the calendar date of the time in its own
// location, as PostgreSQL reads the date of a timestamp's text.
type Date time.Time

func (d *Date) DateValue() (pgtype.Date, error) {
	return pgtype.Date{Time: time.Time(*d), Valid: true}, nil
}

// Bool is a boolean element. A []bool parameter costs an allocation per
// element (pgx reads each through reflect, which boxes it); pointers to a
// Bool do not.
type Bool bool

func (b *Bool) BoolValue() (pgtype.Bool, error) {
	return pgtype.Bool{Bool: bool(*b), Valid: true}, nil
}

// Bytea is a bytea element (a [][]byte parameter boxes each slice, as
// []bool each bool).
type Bytea []byte

func (b *Bytea) BytesValue() ([]byte, error) { return *b, nil }
