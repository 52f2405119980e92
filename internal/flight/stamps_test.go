package flight

import (
	"maps"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// Rule 19's clock: the DNLD built at 06:00, a FLOP at 07:30, a late DNLD
// built at 07:00.
var (
	at0600 = time.Date(2026, 12, 2, 6, 0, 0, 0, cst)
	at0700 = time.Date(2026, 12, 2, 7, 0, 0, 0, cst)
	at0730 = time.Date(2026, 12, 2, 7, 30, 0, 0, cst)
)

func snapshotAt(t time.Time) Sent { return Sent{DTTM: t, Snapshot: true} }
func flopAt(t time.Time) Sent     { return Sent{DTTM: t} }

func mustNext(t *testing.T, cur *State, rec *sis.FlightRecord, revive bool, msg int64, by Sent) Result {
	t.Helper()
	r, err := Next(cur, rec, revive, msg, now, by)
	require.NoError(t, err)
	return r
}

func TestStampsRecordWhoSetWhat(t *testing.T) {
	s := mustNext(t, nil, newRecord(7), true, 1, snapshotAt(at0600)).Next
	for _, name := range []string{"FFID", "SODT", "ALCD", "STND", GroupGates, StampLifecycle} {
		got, ok := s.Stamps.Of(name)
		require.True(t, ok, name)
		require.True(t, got.Equal(at0600), name)
	}
	flop := &sis.FlightRecord{FLID: 7}
	flop.Scalars.Set(sis.STND, set("NEW"))
	require.Equal(t, Stamps{StampDefault: at0600.UTC()}, s.Stamps, "a flight a snapshot creates: one stamp for all it describes")
	n := mustNext(t, s, flop, false, 2, flopAt(at0730)).Next
	require.True(t, n.Stamps["STND"].Equal(at0730))
	alcd, _ := n.Stamps.Of("ALCD")
	require.True(t, alcd.Equal(at0600), "only what the FLOP set moves")
	stnd, _ := s.Stamps.Of("STND")
	require.True(t, stnd.Equal(at0600), "the current state's stamps are not written")
	require.Len(t, n.Stamps, 2)

	// A flight an incremental message (ADFT/UPD) creates: a stamp per value
	// it carries; what it lacks has none, and a snapshot may still set it.
	adft := mustNext(t, nil, newRecord(8), true, 3, flopAt(at0730)).Next
	require.True(t, adft.Stamps["STND"].Equal(at0730))
	require.True(t, adft.Stamps[StampLifecycle].Equal(at0730))
	_, has := adft.Stamps.Of("ACFT")
	require.False(t, has)
	late := newRecord(8)
	late.Scalars.Set(sis.ACFT, set("A320"))
	r := mustNext(t, adft, late, true, 4, snapshotAt(at0700))
	require.Equal(t, "A320", r.Next.Scalars["ACFT"].Raw, "no newer message set ACFT")
	require.Equal(t, 0, r.Kept, "the rest is equal: nothing to keep")
}

func TestOlderSnapshotKeepsNewerValue(t *testing.T) {
	s := mustNext(t, nil, newRecord(7), true, 1, snapshotAt(at0600)).Next
	flop := &sis.FlightRecord{FLID: 7}
	flop.Scalars.Set(sis.STND, set("NEW"))
	flop.Groups.Set(sis.GTDT, sis.GroupOp{Op: sis.Replace, Items: []sis.Item{gate(1, "Z9")}})
	s = mustNext(t, s, flop, false, 2, flopAt(at0730)).Next

	late := newRecord(7)
	late.Scalars.Set(sis.ALCD, set("MU")) // touched by no newer message: corrected
	r := mustNext(t, s, late, true, 3, snapshotAt(at0700))
	require.Equal(t, "NEW", r.Next.Scalars["STND"].Raw, "the FLOP of 07:30 is newer than the snapshot of 07:00")
	require.Equal(t, "Z9", r.Next.Groups[GroupGates][0].Fields["GATE"].Raw, "a detail list too")
	require.Equal(t, "MU", r.Next.Scalars["ALCD"].Raw)
	require.True(t, r.Next.Stamps["ALCD"].Equal(at0700))
	require.True(t, r.Next.Stamps["STND"].Equal(at0730))
	require.Equal(t, 2, r.Kept, "STND and GTDT")

	// A value the creating snapshot lacked is described by it too: an
	// older snapshot does not add it.
	older := newRecord(7)
	older.Scalars.Set(sis.ACFT, set("A320"))
	o5 := mustNext(t, s, older, true, 6, snapshotAt(at0600.Add(-time.Hour)))
	_, had := o5.Next.Scalars["ACFT"]
	require.False(t, had)
	require.True(t, r.Changed)

	// Equal DTTM: FIFO, the snapshot applies.
	eq := mustNext(t, s, newRecord(7), true, 4, snapshotAt(at0730))
	require.Equal(t, "201", eq.Next.Scalars["STND"].Raw)
	require.Zero(t, eq.Kept)

	// An incremental message older than the stamp still applies (FIFO).
	old := &sis.FlightRecord{FLID: 7}
	old.Scalars.Set(sis.STND, set("OLD"))
	o := mustNext(t, s, old, false, 5, flopAt(at0600))
	require.Equal(t, "OLD", o.Next.Scalars["STND"].Raw)
	require.True(t, o.Next.Stamps["STND"].Equal(at0600))
}

func TestOlderSnapshotKeepsNewerPayload(t *testing.T) {
	s := mustNext(t, nil, newRecord(7), true, 1, snapshotAt(at0600)).Next
	flop := &sis.FlightRecord{FLID: 7}
	flop.Payloads.Set(sis.SRVT, sis.PayloadOp{Op: sis.Replace, Count: 1, XML: "<SRVT>new</SRVT>"})
	s = mustNext(t, s, flop, false, 2, flopAt(at0730)).Next
	late := newRecord(7)
	late.Payloads.Set(sis.SRVT, sis.PayloadOp{Op: sis.Replace, Count: 1, XML: "<SRVT>old</SRVT>"})
	r := mustNext(t, s, late, true, 3, snapshotAt(at0700))
	require.Equal(t, "<SRVT>new</SRVT>", r.Next.Payloads["SRVT"].Content)
	require.Equal(t, 1, r.Kept)
}

func TestOlderSnapshotNeverRevivesNewerDelete(t *testing.T) {
	s := mustNext(t, nil, newRecord(7), true, 1, snapshotAt(at0600)).Next
	del := Delete(s, 2, now, flopAt(at0730))
	require.True(t, del.Next.Stamps[StampLifecycle].Equal(at0730))

	r := mustNext(t, del.Next, newRecord(7), true, 3, snapshotAt(at0700))
	require.Equal(t, Deleted, r.Next.Lifecycle)
	require.False(t, r.Changed)
	require.False(t, r.Write)
	require.Equal(t, 1, r.Kept)
	SetSnapshotDay(&r, r.Next.OperationDay)
	require.Nil(t, del.Next.FDay, "the kept state is a copy")

	back := mustNext(t, del.Next, newRecord(7), true, 4, snapshotAt(at0730))
	require.Equal(t, Active, back.Next.Lifecycle, "a snapshot as new as the delete revives (FIFO)")
}

func TestIncrementalNoOpMovesStampWithoutVersion(t *testing.T) {
	s := mustNext(t, nil, newRecord(7), true, 1, snapshotAt(at0600)).Next
	same := &sis.FlightRecord{FLID: 7}
	same.Scalars.Set(sis.STND, set("201"))
	r := mustNext(t, s, same, false, 2, flopAt(at0730))
	require.False(t, r.Changed)
	require.True(t, r.Write, "the stamp moved: the row is written")
	require.Equal(t, s.StateVersion, r.Next.StateVersion)
	require.True(t, r.Next.Stamps["STND"].Equal(at0730))

	// A snapshot that changes nothing moves no stamp and writes nothing.
	again := mustNext(t, s, newRecord(7), true, 3, snapshotAt(at0700))
	require.False(t, again.Write)
}

func TestStampsNewerThanAndDefault(t *testing.T) {
	s := Stamps{StampDefault: at0730.UTC()}
	got, ok := s.Of("STND")
	require.True(t, ok)
	require.True(t, got.Equal(at0730))
	require.True(t, s.NewerThan(at0700))
	require.False(t, s.NewerThan(at0730))
}

func TestStampsText(t *testing.T) {
	s := Stamps{"STND": at0730.UTC(), StampDefault: at0600.UTC(), StampLifecycle: at0700.UTC()}
	text := s.Text()
	require.Equal(t, "1796162400:*;1796166000:lifecycle;1796167800:STND", *text)
	g := Stamps{"GTDT": at0730.UTC(), "ALCD": at0600.UTC()}
	maps.Copy(g, s)
	require.Equal(t, "1796162400:* ALCD;1796166000:lifecycle;1796167800:GTDT STND", *g.Text(), "grouped by time")
	back, err := ParseStamps(*text)
	require.NoError(t, err)
	require.Equal(t, s, back)
	require.Nil(t, Stamps(nil).Text())
	back, err = ParseStamps(*g.Text())
	require.NoError(t, err)
	require.Equal(t, g, back)
	for _, bad := range []string{"STND", "x:STND", "1796162400:", "1796162400:A  B", "1796162400:A;"} {
		_, err = ParseStamps(bad)
		require.Error(t, err, bad)
	}
}

// The stamps text of the worst case — every name a flight can have, each at
// a second of its own, up to the year 9999 — fits the column: a write can
// never fail on its width.
func TestStampsTextAlwaysFits(t *testing.T) {
	t.Parallel()
	names := append(append(append(append([]string{}, ScalarNames...), Structs...), Groups...), PayloadKinds...)
	names = append(names, StampLifecycle, StampDefault)
	last := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	s := Stamps{}
	for i, n := range names {
		s[n] = last.Add(-time.Duration(i) * time.Second)
	}
	require.Len(t, s, 75, "every name a flight can carry")
	text := s.Text()
	require.NotNil(t, text)
	require.LessOrEqual(t, len(*text), StampsMaxLen, "%d characters", len(*text))
	back, err := ParseStamps(*text)
	require.NoError(t, err)
	require.Equal(t, len(s), len(back))
}

// flopStamps are a FLOP's flight's: the snapshot's default stamp and the
// few names FLOPs set.
func flopStamps() Stamps {
	at := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	return Stamps{StampDefault: at, "GTDT": at.Add(time.Hour), "STND": at.Add(time.Hour), "TOBT": at.Add(2 * time.Hour)}
}

// The text of a FLOP's flight is built on the stack: two allocations, the
// text and its pointer (not parallel: AllocsPerRun).
func TestStampsTextAllocations(t *testing.T) {
	s := flopStamps()
	require.Equal(t, "1796198400:*;1796202000:GTDT STND;1796205600:TOBT", *s.Text())
	require.Equal(t, 2.0, testing.AllocsPerRun(100, func() { _ = s.Text() }))
}

func BenchmarkStampsText(b *testing.B) {
	s := flopStamps()
	b.ReportAllocs()
	for range b.N {
		_ = s.Text()
	}
}
