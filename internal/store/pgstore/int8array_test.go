package pgstore

import (
	"math"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"
)

// A []int64 parameter encodes byte for byte as pgx's own bigint[] codec
// writes it (NULL for a nil slice), without an allocation per element.
func TestInt8ArrayEncodesAsPgx(t *testing.T) {
	pgx, ours := pgtype.NewMap(), pgtype.NewMap()
	registerInt8Array(ours)
	registerInt8Array(ours) // once is enough, twice wraps nothing
	ty, _ := ours.TypeForOID(pgtype.Int8ArrayOID)
	_, twice := ty.Codec.(int8ArrayCodec).Codec.(int8ArrayCodec)
	require.False(t, twice)
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
	}
	buf := make([]byte, 0, 16<<10)
	allocs := testing.AllocsPerRun(10, func() {
		_, err := ours.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, long, buf[:0])
		require.NoError(t, err)
	})
	require.LessOrEqual(t, allocs, 2.0)
	// Text format and other types stay pgx's.
	text, err := ours.Encode(pgtype.Int8ArrayOID, pgtype.TextFormatCode, []int64{1, 2}, nil)
	require.NoError(t, err)
	require.Equal(t, "{1,2}", string(text))
	i32, err := ours.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, []int32{7}, nil)
	require.NoError(t, err)
	want32, err := pgx.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, []int32{7}, nil)
	require.NoError(t, err)
	require.Equal(t, want32, i32)
}
