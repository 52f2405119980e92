package pgstore

import (
	"encoding/binary"

	"github.com/jackc/pgx/v5/pgtype"
)

// int8ArrayCodec is the bigint[] codec that encodes a []int64 parameter
// itself, byte for byte what pgx's ArrayCodec writes: pgx boxes every
// element into an interface (an allocation each above 255) and plans it,
// and every statement of a run takes its flights' or messages' ids as a
// bigint[] (issue #34). Other values, and scanning, are the wrapped codec's.
type int8ArrayCodec struct{ pgtype.Codec }

func (c int8ArrayCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	if _, ok := value.([]int64); ok && format == pgtype.BinaryFormatCode {
		return int8ArrayEncodePlan{}
	}
	return c.Codec.PlanEncode(m, oid, format, value)
}

type int8ArrayEncodePlan struct{}

func (int8ArrayEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	a := value.([]int64)
	if a == nil {
		return nil, nil // NULL, as pgx encodes a nil slice
	}
	buf = binary.BigEndian.AppendUint32(buf, 1) // dimensions
	buf = binary.BigEndian.AppendUint32(buf, 0) // no NULL element
	buf = binary.BigEndian.AppendUint32(buf, pgtype.Int8OID)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(a)))
	buf = binary.BigEndian.AppendUint32(buf, 1) // lower bound
	buf = growBy(buf, 12*len(a))
	for _, v := range a {
		buf = binary.BigEndian.AppendUint32(buf, 8)
		buf = binary.BigEndian.AppendUint64(buf, uint64(v))
	}
	return buf, nil
}

// growBy makes room for n more bytes in one step.
func growBy(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return append(b, make([]byte, n)...)[:len(b)]
}

// registerInt8Array puts int8ArrayCodec in front of m's bigint[] codec.
func registerInt8Array(m *pgtype.Map) {
	if t, ok := m.TypeForOID(pgtype.Int8ArrayOID); ok {
		if _, done := t.Codec.(int8ArrayCodec); !done {
			m.RegisterType(&pgtype.Type{Name: t.Name, OID: t.OID, Codec: int8ArrayCodec{t.Codec}})
		}
	}
}
