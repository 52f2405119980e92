package pgarg

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"
)

// Every array parameter of this package's types encodes byte for byte as
// pgx's reflection writes it: NULL for a nil slice, the NULL flag and -1
// for nil elements (and for a Bytea holding nil), without an allocation
// per element.
func TestArraysEncodeAsPgx(t *testing.T) {
	pgx, ours := pgtype.NewMap(), pgtype.NewMap()
	Register(ours)
	Register(ours) // once is enough, twice wraps nothing
	ty, _ := ours.TypeForOID(pgtype.VarcharArrayOID)
	_, twice := ty.Codec.(arrayCodec[Text]).Codec.(arrayCodec[Text])
	require.False(t, twice)

	text := func(s string) *Text { v := Text(s); return &v }
	stamp := func(tm time.Time) *Timestamptz { v := Timestamptz(tm); return &v }
	date := func(tm time.Time) *Date { v := Date(tm); return &v }
	i4, i8, yes, digest, none := Int4(-7), Int8(1<<40), Bool(true), Bytea{1, 2, 255}, Bytea(nil)
	oslo, _ := time.LoadLocation("Europe/Oslo")
	late := time.Date(2026, 12, 2, 23, 59, 59, 999_999_600, oslo) // rounds up to the next second

	cases := []struct {
		oid   uint32
		value any
	}{
		{pgtype.VarcharArrayOID, []*Text(nil)},
		{pgtype.VarcharArrayOID, []*Text{}},
		{pgtype.VarcharArrayOID, []*Text{nil, nil}},
		{pgtype.VarcharArrayOID, []*Text{text("GATE"), nil, text(""), text("ÆØÅ")}},
		{pgtype.TextArrayOID, []*Text{text("1797285600:*;1797291000:GTDT STND")}},
		{pgtype.Int8ArrayOID, []*Int8{&i8, nil}},
		{pgtype.Int4ArrayOID, []*Int4{nil, &i4}},
		{pgtype.TimestamptzArrayOID, []*Timestamptz{stamp(late), nil, stamp(time.Date(1999, 1, 1, 0, 0, 0, 1500, time.UTC))}},
		{pgtype.DateArrayOID, []*Date{date(late), nil, date(time.Date(1970, 1, 1, 23, 0, 0, 0, time.UTC))}},
		{pgtype.BoolArrayOID, []*Bool{&yes, nil}},
		{pgtype.ByteaArrayOID, []*Bytea{&digest, &none, nil}},
	}
	for _, c := range cases {
		want, err := pgx.Encode(c.oid, pgtype.BinaryFormatCode, c.value, []byte("prefix"))
		require.NoError(t, err)
		got, err := ours.Encode(c.oid, pgtype.BinaryFormatCode, c.value, []byte("prefix"))
		require.NoError(t, err)
		require.Equal(t, want, got, "%T %v", c.value, c.value)
		require.Equal(t, want == nil, got == nil, "NULL for %T %v", c.value, c.value)
		plan := ours.PlanEncode(c.oid, pgtype.BinaryFormatCode, c.value)
		require.Contains(t, fmt.Sprintf("%T", plan), "pgarg.arrayPlan")
		direct, err := plan.Encode(c.value, []byte("prefix")) // Map.Encode answers a nil slice itself
		require.NoError(t, err)
		require.Equal(t, want, direct, "%T %v", c.value, c.value)
		require.Equal(t, want == nil, direct == nil, "NULL for %T %v", c.value, c.value)
	}

	// Encoding is direct: no allocation per element.
	long := make([]*Text, 1000)
	for i := range long {
		if i%3 != 0 {
			long[i] = text("STND")
		}
	}
	buf := make([]byte, 0, 16<<10)
	allocs := testing.AllocsPerRun(10, func() {
		_, err := ours.Encode(pgtype.VarcharArrayOID, pgtype.BinaryFormatCode, long, buf[:0])
		require.NoError(t, err)
	})
	require.LessOrEqual(t, allocs, 2.0)

	// Text format and other element types stay pgx's.
	got, err := ours.Encode(pgtype.VarcharArrayOID, pgtype.TextFormatCode, []*Text{text("a"), nil}, nil)
	require.NoError(t, err)
	require.Equal(t, `{a,NULL}`, string(got))
	plain, err := ours.Encode(pgtype.VarcharArrayOID, pgtype.BinaryFormatCode, []string{"a"}, nil)
	require.NoError(t, err)
	want, err := pgx.Encode(pgtype.VarcharArrayOID, pgtype.BinaryFormatCode, []string{"a"}, nil)
	require.NoError(t, err)
	require.Equal(t, want, plain)
}

// A []int64 bigint[] parameter encodes byte for byte as pgx's own ArrayCodec
// writes it (NULL for a nil slice), through bigint[]'s one codec, without an
// allocation per element (pgx's: one each above 255).
func TestInt8ArrayEncodesAsPgx(t *testing.T) {
	pgx, ours := pgtype.NewMap(), pgtype.NewMap()
	Register(ours)
	Register(ours)
	ty, _ := ours.TypeForOID(pgtype.Int8ArrayOID)
	require.IsType(t, &pgtype.ArrayCodec{}, ty.Codec.(arrayCodec[Int8]).Codec, "one codec in front of pgx's")
	long := make([]int64, 1000)
	for i := range long {
		long[i] = int64(i) * 1_000_003
	}
	for _, a := range [][]int64{nil, {}, {1}, {-5, 0, 255, 256, 1 << 40, math.MaxInt64, math.MinInt64}, long} {
		want, err := pgx.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, a, []byte("prefix"))
		require.NoError(t, err)
		got, err := ours.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, a, []byte("prefix"))
		require.NoError(t, err)
		require.Equal(t, want, got, "%v", a)
		require.Equal(t, want == nil, got == nil, "NULL for %v", a)
		plan := ours.PlanEncode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, a)
		require.IsType(t, int8ArrayPlan{}, plan)
		direct, err := plan.Encode(a, []byte("prefix")) // Map.Encode answers a nil slice itself
		require.NoError(t, err)
		require.Equal(t, want, direct, "%v", a)
		require.Equal(t, want == nil, direct == nil, "NULL for %v", a)
	}
	buf := make([]byte, 0, 16<<10)
	allocs := testing.AllocsPerRun(10, func() {
		_, err := ours.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, long, buf[:0])
		require.NoError(t, err)
	})
	require.LessOrEqual(t, allocs, 2.0)
	// Text format, other slice types and other arrays stay pgx's.
	text, err := ours.Encode(pgtype.Int8ArrayOID, pgtype.TextFormatCode, []int64{1, 2}, nil)
	require.NoError(t, err)
	require.Equal(t, "{1,2}", string(text))
	for _, c := range []struct {
		oid   uint32
		value any
	}{{pgtype.Int8ArrayOID, []int32{7}}, {pgtype.Int4ArrayOID, []int64{7}}} {
		got, err := ours.Encode(c.oid, pgtype.BinaryFormatCode, c.value, nil)
		require.NoError(t, err)
		want, err := pgx.Encode(c.oid, pgtype.BinaryFormatCode, c.value, nil)
		require.NoError(t, err)
		require.Equal(t, want, got, "%T", c.value)
		require.NotContains(t, fmt.Sprintf("%T", ours.PlanEncode(c.oid, pgtype.BinaryFormatCode, c.value)), "pgarg.")
	}
}

// BenchmarkArrayEncode: a varchar[] column of a batch of 500 flight rows
// (a third NULL), as pgx encodes it by reflection and as Register's plan
// does.
func BenchmarkArrayEncode(b *testing.B) {
	col := make([]*Text, 500)
	for i := range col {
		if i%3 != 0 {
			v := Text("0930")
			col[i] = &v
		}
	}
	registered := pgtype.NewMap()
	Register(registered)
	for _, m := range []struct {
		name string
		m    *pgtype.Map
	}{{"pgx", pgtype.NewMap()}, {"direct", registered}} {
		b.Run(m.name, func(b *testing.B) {
			buf := make([]byte, 0, 16<<10)
			b.ReportAllocs()
			for range b.N {
				if _, err := m.m.Encode(pgtype.VarcharArrayOID, pgtype.BinaryFormatCode, col, buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
