package compare_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/compare"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/pipeline"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

var (
	shanghai, _ = time.LoadLocation("Asia/Shanghai")
	start       = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
)

// memRaw serves the messages' XML by mailbox id (1-based, in order).
type memRaw [][]byte

func (m memRaw) ReadRaws(_ context.Context, ids []int64) (map[int64][]byte, error) {
	out := map[int64][]byte{}
	for _, id := range ids {
		out[id] = m[id-1]
	}
	return out, nil
}

func (m memRaw) RawSizes(_ context.Context, ids []int64) (map[int64]int, error) {
	out := map[int64]int{}
	for _, id := range ids {
		out[id] = len(m[id-1])
	}
	return out, nil
}

// feed runs msgs through the real pipeline into a new database, its clock
// starting at t.
func feed(t testing.TB, at time.Time, msgs [][]byte) *testdb.PG {
	t.Helper()
	pg := testdb.Postgres(t)
	st := pgstore.New(pg.Pool)
	cfg := pipeline.DefaultPumpConfig()
	cfg.Decode.Location = shanghai
	pump := pipeline.NewPump(st, memRaw(msgs), func(context.Context, []store.Backfill) {}, clock.NewFake(at),
		slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
	ids := make([]int64, len(msgs))
	for i := range msgs {
		ids[i] = int64(i + 1)
	}
	_, err := st.Enqueue(t.Context(), ids, at)
	require.NoError(t, err)
	for range 1000 {
		wait, err := pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			return pg
		}
	}
	t.Fatal("pump did not settle")
	return nil
}

func sampleDay(t testing.TB) [][]byte {
	t.Helper()
	files, err := filepath.Glob("../../testdata/sample-day/*.xml")
	require.NoError(t, err)
	require.Len(t, files, 14)
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out = append(out, b)
	}
	rich, err := os.ReadFile("../../internal/relay/testdata/rich_dnld.xml")
	require.NoError(t, err)
	return append(out, rich)
}

func load(t testing.TB, pg *testdb.PG) map[int64]*flight.State {
	t.Helper()
	states, err := compare.Load(t.Context(), pg.Pool, nil, nil)
	require.NoError(t, err)
	return states
}

// Two databases fed the same messages through the pipeline are equal in
// every field, bookkeeping included; fed at another time they differ in
// the write times only, which are left out only when named.
func TestCompareDatabasesFedTheSame(t *testing.T) {
	t.Parallel()
	msgs := sampleDay(t)
	a := load(t, feed(t, start, msgs))
	b := load(t, feed(t, start, msgs))
	require.Len(t, a, 12+1+1, "the sample day's flights, the ADFT one and the rich DNLD's")

	diffs, sum := compare.Compare(a, b, compare.Options{})
	require.Empty(t, diffs)
	require.Equal(t, compare.Summary{Flights: len(a), Equal: len(a)}, sum)

	later := load(t, feed(t, start.Add(time.Hour), msgs))
	diffs, sum = compare.Compare(a, later, compare.Options{})
	require.NotEmpty(t, diffs)
	require.Equal(t, len(a), sum.Differing)
	for _, d := range diffs {
		require.Contains(t, []string{"created_at", "updated_at", "deleted_at"}, d.Field, "%+v", d)
	}
	diffs, _ = compare.Compare(a, later, compare.Options{Ignore: []string{"created_at", "updated_at"}})
	require.Len(t, diffs, 1, "deleted_at still compared: %+v", diffs)
	require.Equal(t, "deleted_at", diffs[0].Field)
	diffs, sum = compare.Compare(a, later, compare.Options{Ignore: compare.Bookkeeping})
	require.Empty(t, diffs)
	require.Equal(t, len(a), sum.Equal)
}

func snapshotOf(t testing.TB, raw []byte) *compare.Snapshot {
	t.Helper()
	opt := sis.DefaultOptions()
	opt.Location = shanghai
	snap, err := compare.FromSnapshot(raw, opt)
	require.NoError(t, err)
	return snap
}

// A database against a DNLD: equal right after the DNLD (rich groups
// included), and after the rest of the day every change the day's FLOPs,
// FDEL and ADFT made is reported against what the DNLD says.
func TestCompareWithDNLD(t *testing.T) {
	t.Parallel()
	msgs := sampleDay(t)
	rich := snapshotOf(t, msgs[14])
	a := load(t, feed(t, start, msgs[14:]))
	diffs, sum := compare.Compare(compare.ScopeToSnapshot(a, rich), rich.States, compare.Options{Masks: rich.Masks})
	require.Empty(t, diffs)
	require.Equal(t, 1, sum.Equal)

	day := snapshotOf(t, msgs[0])
	a = load(t, feed(t, start, msgs))
	diffs, sum = compare.Compare(compare.ScopeToSnapshot(a, day), day.States, compare.Options{Masks: day.Masks})
	require.Equal(t, 12+1, sum.Flights, "the DNLD's 12 and the ADFT flight of its day; not the rich DNLD's")
	require.Equal(t, 1, sum.OnlyInA)
	var out strings.Builder
	require.NoError(t, (&compare.Report{Diffs: diffs}).WriteText(&out))
	lines := strings.Split(out.String(), "\n")
	// ESTT and CNCL changes are not reported: the DNLD does not carry them.
	require.Equal(t, []string{
		`flight=30001 group=FLIGHT field=STND kind=value a="103" b="101"`,
		`flight=30002 group=FLIGHT field=STND kind=value a="103" b="101"`,
		`flight=30005 group=FLIGHT field=STND kind=value a="307" b="305"`,
		`flight=30010 group=FLIGHT field=lifecycle kind=value a="DELETED" b="ACTIVE"`,
		`flight=30011 group=FLIGHT field=STND kind=value a="221" b="220"`,
		`flight=30013 group=FLIGHT field=flight kind=only_in_a a="ACTIVE" b=NULL`,
	}, lines[:len(diffs)])
}
