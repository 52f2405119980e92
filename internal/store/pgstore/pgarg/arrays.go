package pgarg

import (
	"encoding/binary"
	"math"

	"github.com/jackc/pgx/v5/pgtype"
)

// The array parameters of db/pgarrays are slices of pointers to this
// package's types, which pgx knows of no slice type of: it encodes them
// through reflection, and per element it boxes the element, asks
// reflection whether it is a nil pointer, and plans the element's encoding
// again when its type differs from the one before. The batch's flight rows
// are such arrays (a score of columns per flight), and this was the larger
// part of encoding them. A []int64 (every statement of a run takes its
// flights' or messages' ids as a bigint[], issue #34) pgx's ArrayCodec
// boxes element by element too, an allocation each above 255. Register has
// a Map encode both directly: byte for byte what pgx writes
// (TestArraysEncodeAsPgx, TestInt8ArrayEncodesAsPgx).

// Register puts the direct encoding in front of m's array codecs of this
// package's types; bigint[]'s also takes []int64. Other values, text format
// and scanning are the wrapped codecs'. Registering twice wraps nothing
// more. m is one connection's: its arrays share a parameter buffer kept
// from statement to statement (scratch.go).
func Register(m *pgtype.Map) {
	s := &scratch{}
	register[Text](m, s, pgtype.VarcharArrayOID, pgtype.VarcharOID)
	register[Text](m, s, pgtype.TextArrayOID, pgtype.TextOID)
	register[Int8](m, s, pgtype.Int8ArrayOID, pgtype.Int8OID)
	register[Int4](m, s, pgtype.Int4ArrayOID, pgtype.Int4OID)
	register[Timestamptz](m, s, pgtype.TimestamptzArrayOID, pgtype.TimestamptzOID)
	register[Date](m, s, pgtype.DateArrayOID, pgtype.DateOID)
	register[Bool](m, s, pgtype.BoolArrayOID, pgtype.BoolOID)
	register[Bytea](m, s, pgtype.ByteaArrayOID, pgtype.ByteaOID)
}

func register[T any](m *pgtype.Map, s *scratch, arrayOID, elemOID uint32) {
	t, ok := m.TypeForOID(arrayOID)
	if !ok {
		return
	}
	if _, done := t.Codec.(arrayCodec[T]); done {
		return
	}
	m.RegisterType(&pgtype.Type{Name: t.Name, OID: t.OID, Codec: arrayCodec[T]{Codec: t.Codec, elemOID: elemOID, scratch: s}})
}

// arrayCodec encodes a []*T parameter in binary itself, and a []int64 when
// its elements are bigints.
type arrayCodec[T any] struct {
	pgtype.Codec
	elemOID uint32
	scratch *scratch
}

func (c arrayCodec[T]) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	if format == pgtype.BinaryFormatCode {
		switch value.(type) {
		case []*T:
			if elem := m.PlanEncode(c.elemOID, pgtype.BinaryFormatCode, (*T)(nil)); elem != nil {
				return arrayPlan[T]{elemOID: c.elemOID, elem: elem, scratch: c.scratch}
			}
		case []int64:
			if c.elemOID == pgtype.Int8OID {
				return int8ArrayPlan{scratch: c.scratch}
			}
		}
	}
	return c.Codec.PlanEncode(m, oid, format, value)
}

// appendHeader appends the header of a one-dimensional array of n elements
// of elemOID, without NULL (arrayPlan sets the flag on its first).
func appendHeader(buf []byte, elemOID uint32, n int) []byte {
	buf = binary.BigEndian.AppendUint32(buf, 1) // dimensions
	buf = binary.BigEndian.AppendUint32(buf, 0) // no NULL element
	buf = binary.BigEndian.AppendUint32(buf, elemOID)
	buf = binary.BigEndian.AppendUint32(buf, uint32(n))
	return binary.BigEndian.AppendUint32(buf, 1) // lower bound
}

type arrayPlan[T any] struct {
	elemOID uint32
	elem    pgtype.EncodePlan
	scratch *scratch
}

// Encode writes the header, then per element its length and bytes, or -1
// for NULL (a nil element, or one its plan encodes as NULL); a nil slice is
// a NULL array.
func (p arrayPlan[T]) Encode(value any, buf []byte) ([]byte, error) {
	a := value.([]*T)
	if a == nil {
		return nil, nil
	}
	buf = p.scratch.room(buf, 20+12*len(a)) // the header, and about as much as a bigint per element
	hasNull := len(buf) + 4
	buf = appendHeader(buf, p.elemOID, len(a))
	for _, v := range a {
		at := len(buf)
		buf = binary.BigEndian.AppendUint32(buf, math.MaxUint32) // -1: NULL until encoded
		if v == nil {
			binary.BigEndian.PutUint32(buf[hasNull:], 1)
			continue
		}
		elem, err := p.elem.Encode(v, buf)
		if err != nil {
			return nil, err
		}
		if elem == nil {
			binary.BigEndian.PutUint32(buf[hasNull:], 1)
			continue
		}
		buf = elem
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf, nil
}

// int8ArrayPlan writes a []int64 as a bigint[]: the header, then per
// element its length (8) and value, in one growth of buf at most; a nil
// slice is a NULL array.
type int8ArrayPlan struct{ scratch *scratch }

func (p int8ArrayPlan) Encode(value any, buf []byte) ([]byte, error) {
	a := value.([]int64)
	if a == nil {
		return nil, nil
	}
	buf = p.scratch.room(buf, 20+12*len(a))
	buf = appendHeader(buf, pgtype.Int8OID, len(a))
	for _, v := range a {
		buf = binary.BigEndian.AppendUint32(buf, 8)
		buf = binary.BigEndian.AppendUint64(buf, uint64(v))
	}
	return buf, nil
}
