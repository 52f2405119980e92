package pgarg

import (
	"runtime"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"
)

// statement encodes one statement's parameters as pgx's ExtendedQueryBuilder
// does: into a fresh small buffer (pgx shrinks its own back to 256 bytes
// before each statement), each parameter appended to what the ones before
// left, and returns the buffer and each parameter's bytes.
func statement(t *testing.T, m *pgtype.Map, params ...[]int64) ([]byte, [][]byte) {
	t.Helper()
	buf := append(make([]byte, 0, 256), "scalar"...) // a parameter pgx encoded itself
	var values [][]byte
	for _, p := range params {
		at := len(buf)
		got, err := m.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, p, buf)
		require.NoError(t, err)
		buf = got
		values = append(values, buf[at:])
	}
	require.Equal(t, "scalar", string(buf[:6]), "the bytes before the arrays are kept")
	return buf, values
}

// A connection's large array parameters are encoded into a buffer it keeps
// from statement to statement: the second statement allocates no buffer
// and reuses the first's, byte for byte what pgx writes.
func TestParameterBufferIsKeptBetweenStatements(t *testing.T) {
	pgx, ours := pgtype.NewMap(), pgtype.NewMap()
	Register(ours)
	ids := make([]int64, 20_000) // 240 KB: beyond any buffer pgx keeps
	for i := range ids {
		ids[i] = int64(i) * 7
	}
	first, values := statement(t, ours, ids, ids[:10])
	want, err := pgx.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, ids, nil)
	require.NoError(t, err)
	require.Equal(t, want, values[0])
	short, err := pgx.Encode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, ids[:10], nil)
	require.NoError(t, err)
	require.Equal(t, short, values[1], "appended after the first, in its buffer")

	second, values := statement(t, ours, ids)
	require.True(t, sameArray(first, second), "the second statement's parameters are in the first's buffer")
	require.Equal(t, want, values[0])
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		statement(t, ours, ids)
	}
	runtime.ReadMemStats(&after)
	require.Less(t, (after.TotalAlloc-before.TotalAlloc)/10, uint64(8<<10), "bytes allocated per statement: no buffer for the array's 240 KB")

	// A statement larger than maxScratch gets a buffer of its own; the kept
	// one stays within the bound.
	huge := make([]int64, maxScratch/12+1)
	big, _ := statement(t, ours, huge)
	require.False(t, sameArray(first, big))
	s := ours.PlanEncode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, ids).(int8ArrayPlan).scratch
	require.LessOrEqual(t, cap(s.buf), maxScratch)
	third, _ := statement(t, ours, ids)
	require.True(t, sameArray(first, third), "the kept buffer serves the next statement")
}

// Each connection (Map) has its own buffer: two connections encode at the
// same time.
func TestParameterBufferIsPerConnection(t *testing.T) {
	a, b := pgtype.NewMap(), pgtype.NewMap()
	Register(a)
	Register(b)
	ids := make([]int64, 20_000)
	first, _ := statement(t, a, ids)
	other, _ := statement(t, b, ids)
	require.False(t, sameArray(first, other))
}
