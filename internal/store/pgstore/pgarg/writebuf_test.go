package pgarg_test

import (
	"io"
	"runtime"
	"testing"
	"unsafe"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store/pgstore/pgarg"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// flushes records the array and length of every write a frontend makes.
type flushes struct {
	w      io.Writer
	arrays []uintptr
	sizes  []int
}

func (f *flushes) Write(p []byte) (int, error) {
	f.arrays = append(f.arrays, uintptr(unsafe.Pointer(unsafe.SliceData(p))))
	f.sizes = append(f.sizes, len(p))
	return f.w.Write(p)
}

// large returns the arrays of the writes of more than 1 KB since the n-th.
func (f *flushes) large(n int) []uintptr {
	var out []uintptr
	for i := n; i < len(f.sizes); i++ {
		if f.sizes[i] > 1024 {
			out = append(out, f.arrays[i])
		}
	}
	return out
}

// connect opens one connection set up as pgstore's pools are (Register's
// arrays, and the Tracer when traced), recording its writes.
func connect(t *testing.T, traced bool) (*pgx.Conn, *flushes) {
	t.Helper()
	cfg, err := pgx.ParseConfig(testdb.PostgresEmpty(t).URL)
	require.NoError(t, err)
	rec := &flushes{}
	cfg.BuildFrontend = func(r io.Reader, w io.Writer) *pgproto3.Frontend {
		rec.w = w
		return pgproto3.NewFrontend(r, rec)
	}
	if traced {
		cfg.Tracer = pgarg.Tracer{}
	}
	c, err := pgx.ConnectConfig(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close(t.Context()) })
	pgarg.Register(c.TypeMap())
	return c, rec
}

func ids(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i) * 7
	}
	return out
}

// sum sends ids (a statement of about 12 bytes per id) and checks what the
// server read.
func sum(t *testing.T, c *pgx.Conn, ids []int64) {
	t.Helper()
	var n, total int64
	require.NoError(t, c.QueryRow(t.Context(), "SELECT cardinality($1::bigint[]), (SELECT sum(x) FROM unnest($1::bigint[]) x)", ids).Scan(&n, &total))
	var want int64
	for _, id := range ids {
		want += id
	}
	require.Equal(t, []int64{int64(len(ids)), want}, []int64{n, total})
}

// A connection's large statements are written from one buffer it keeps:
// the second and later statements allocate none, and the server reads
// what was sent. Without the Tracer, pgx writes each from a buffer of its
// own (the control).
func TestWriteBufferIsKeptBetweenStatements(t *testing.T) {
	list := ids(20_000) // 240 KB: beyond any buffer pgx keeps
	for _, traced := range []bool{true, false} {
		c, rec := connect(t, traced)
		sum(t, c, list) // sizes the connection's parameter buffer
		sum(t, c, list) // and its write buffer
		from := len(rec.sizes)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 5 {
			sum(t, c, list)
		}
		runtime.ReadMemStats(&after)
		perStatement := (after.TotalAlloc - before.TotalAlloc) / 5
		arrays := rec.large(from)
		require.Len(t, arrays, 5)
		t.Logf("traced %v: %d bytes allocated per statement", traced, perStatement)
		if !traced {
			require.NotEqual(t, arrays[0], arrays[1], "the control: pgx drops its buffer after a large flush")
			require.Greater(t, perStatement, uint64(128<<10), "the control: pgx grows a buffer for each statement")
			continue
		}
		for _, a := range arrays[1:] {
			require.Equal(t, arrays[0], a, "every statement is written from the kept buffer")
		}
		require.Less(t, perStatement, uint64(16<<10), "bytes allocated per statement: no buffer for its 240 KB")
	}
}

// A batch is written from the kept buffer too, a statement larger than it
// from a buffer of pgx's (and the next ones from a kept buffer that large),
// and what the server reads is what was sent in every case.
func TestWriteBufferServesBatchesAndLargerStatements(t *testing.T) {
	c, rec := connect(t, true)
	list := ids(20_000)
	sum(t, c, list)
	sum(t, c, list)
	kept := rec.large(0)[1]

	from := len(rec.sizes)
	b := &pgx.Batch{}
	b.Queue("SELECT cardinality($1::bigint[])", list[:8000]) // 96 KB each: together within the kept buffer
	b.Queue("SELECT cardinality($1::bigint[])", list[:7000])
	results := c.SendBatch(t.Context(), b)
	for _, want := range []int{8000, 7000} {
		var n int
		require.NoError(t, results.QueryRow().Scan(&n))
		require.Equal(t, want, n)
	}
	require.NoError(t, results.Close())
	require.Equal(t, []uintptr{kept}, rec.large(from), "the batch's one flush, from the kept buffer")

	longer := ids(80_000) // 960 KB: more than the kept buffer holds
	sum(t, c, longer)
	from = len(rec.sizes)
	sum(t, c, longer)
	sum(t, c, list)
	arrays := rec.large(from)
	require.Len(t, arrays, 2)
	require.Equal(t, arrays[0], arrays[1], "a kept buffer as large as the larger statement serves both")
	require.NotEqual(t, kept, arrays[0])
}

// A statement the server refuses, and a closed connection, leave nothing
// behind: the next statement on the connection reads what was sent, and a
// closed one fails as pgx's own does.
func TestWriteBufferAfterFailures(t *testing.T) {
	c, _ := connect(t, true)
	list := ids(20_000)
	sum(t, c, list)
	sum(t, c, list)
	_, err := c.Exec(t.Context(), "SELECT 1 / (cardinality($1::bigint[]) - 20000)", list)
	require.ErrorContains(t, err, "division by zero")
	sum(t, c, list)
	sum(t, c, list[:3])

	require.NoError(t, c.Close(t.Context()))
	_, err = c.Exec(t.Context(), "SELECT cardinality($1::bigint[])", list)
	require.Error(t, err)
}
