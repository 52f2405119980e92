package compare_test

import (
	"context"
	"encoding/json"
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
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
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
	cfg := pump.DefaultConfig()
	cfg.Decode.Location = shanghai
	pump := pump.New(st, memRaw(msgs), func(context.Context, []vocab.Backfill) {}, clock.NewFake(at),
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
	require.Len(t, files, 15)
	var out [][]byte
	for _, f := range files {
		if strings.HasSuffix(f, "-unsupported.xml") {
			continue // the day's dead letter writes nothing (and its retries would hold the queue)
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out = append(out, b)
	}
	rich, err := os.ReadFile("../../internal/relay/testdata/rich_dnld.xml")
	require.NoError(t, err)
	return append(out, rich)
}

// load reads a database's flights and their latest KAFKA:msg events.
func load(t testing.TB, pg *testdb.PG) *compare.Side {
	t.Helper()
	side, err := compare.Load(t.Context(), pg.Pool, compare.LoadOptions{Payloads: true})
	require.NoError(t, err)
	return side
}

// withEvents compares the sides' latest KAFKA:msg events too.
func withEvents(a, b *compare.Side, opt compare.Options) compare.Options {
	opt.OutboundA, opt.OutboundB = a.Outbound, b.Outbound
	return opt
}

// Two databases fed the same messages through the pipeline are equal in
// every field, bookkeeping and published payloads included; fed at another
// time they differ in the write times only (columns and payload fields),
// which are left out when named.
func TestCompareDatabasesFedTheSame(t *testing.T) {
	t.Parallel()
	msgs := sampleDay(t)
	a := load(t, feed(t, start, msgs))
	b := load(t, feed(t, start, msgs))
	require.Len(t, a.States, 12+1+1, "the sample day's flights, the ADFT one and the rich DNLD's")
	require.Len(t, a.Outbound, len(a.States), "every flight was published")

	diffs, sum := compare.Compare(a.States, b.States, withEvents(a, b, compare.Options{}))
	require.Empty(t, diffs)
	require.Equal(t, compare.Summary{Flights: len(a.States), Equal: len(a.States)}, sum)

	later := load(t, feed(t, start.Add(time.Hour), msgs))
	diffs, sum = compare.Compare(a.States, later.States, withEvents(a, later, compare.Options{}))
	require.NotEmpty(t, diffs)
	require.Equal(t, len(a.States), sum.Differing)
	groups := map[string]bool{}
	for _, d := range diffs {
		groups[d.Group] = true
		require.Contains(t, []string{"created_at", "updated_at", "deleted_at"}, d.Field, "%+v", d)
	}
	require.Equal(t, map[string]bool{compare.GroupFlight: true, compare.GroupOutbound: true}, groups, "the payloads' write times too")
	diffs, _ = compare.Compare(a.States, later.States, compare.Options{Ignore: []string{"created_at", "updated_at"}})
	require.Len(t, diffs, 1, "deleted_at still compared: %+v", diffs)
	require.Equal(t, "deleted_at", diffs[0].Field)
	diffs, sum = compare.Compare(a.States, later.States, withEvents(a, later, compare.Options{Ignore: compare.Bookkeeping}))
	require.Empty(t, diffs)
	require.Equal(t, len(a.States), sum.Equal)
}

// A published payload that differs while the states agree is found, field
// by field, only when the events are compared.
func TestComparePayloads(t *testing.T) {
	t.Parallel()
	msgs := sampleDay(t)
	a := load(t, feed(t, start, msgs))
	pgB := feed(t, start, msgs)
	b := load(t, pgB)
	const flid = 30001
	last := b.Outbound[flid]
	require.Equal(t, "UPSERT", last.EventType)
	var payload map[string]any
	require.NoError(t, json.Unmarshal([]byte(*last.Payload), &payload))
	payload["scalars"].(map[string]any)["STND"] = map[string]any{"raw": "999"}
	payload["state_version"] = 99
	changed, err := json.Marshal(payload)
	require.NoError(t, err)
	require.NoError(t, pgstore.New(pgB.Pool).InsertEvents(t.Context(), []vocab.NewEvent{{
		Target: vocab.TargetMsg, EventType: "UPSERT", MsgID: 1, FLID: flid, StateVersion: 99,
		IdempotencyKey: vocab.IdempotencyKey(1, flid, 99, vocab.TargetMsg), Payload: changed, CreatedAt: start,
	}}))
	b = load(t, pgB)

	diffs, _ := compare.Compare(a.States, b.States, compare.Options{Ignore: compare.Bookkeeping})
	require.Empty(t, diffs, "the states agree")
	diffs, sum := compare.Compare(a.States, b.States, withEvents(a, b, compare.Options{Ignore: compare.Bookkeeping}))
	require.Equal(t, 1, sum.Differing)
	require.Len(t, diffs, 1, "%+v", diffs)
	d := diffs[0]
	require.Equal(t, compare.Diff{FLID: flid, Group: compare.GroupOutbound, Field: "scalars.STND.raw", Kind: compare.KindValue, A: d.A, B: d.B}, d)
	require.Equal(t, `"103"`, *d.A, "the day moved it to 103")
	require.Equal(t, `"999"`, *d.B)

	// A flight published on one side only.
	delete(b.Outbound, flid)
	diffs, _ = compare.Compare(a.States, b.States, withEvents(a, b, compare.Options{Ignore: compare.Bookkeeping}))
	require.Len(t, diffs, 1)
	require.Equal(t, "event", diffs[0].Field)
	require.Equal(t, compare.KindNull, diffs[0].Kind)
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
	a := load(t, feed(t, start, msgs[14:])).States
	diffs, sum := compare.Compare(compare.ScopeToSnapshot(a, rich), rich.States, compare.Options{Masks: rich.Masks})
	require.Empty(t, diffs)
	require.Equal(t, 1, sum.Equal)

	day := snapshotOf(t, msgs[0])
	a = load(t, feed(t, start, msgs)).States
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
