package apply

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis/sistest"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The rules of the messages a batch takes, table-driven: each case builds a
// world with a DNLD of flights 1 and 2 (flight 2 then deleted), settles its
// messages, and checks the last one's outcome and what it wrote. Every case
// runs twice — each message alone (One) and the messages after the setup in
// one batch (Batch) — and both must agree: batching never changes an
// outcome.
func TestBatchableRules(t *testing.T) {
	t.Parallel()
	dup := flop("STND", 1, "<STND>7</STND>")
	for _, c := range []struct {
		name   string
		msgs   []string
		status string
		class  string
		reason string
		events int  // outbox events of the last message
		alone  bool // not a kind a batch takes
	}{
		{"a FLOP changes a known flight", []string{flop("STND", 1, "<STND>7</STND>")}, vocab.StatusSucceeded, "", "", 2, false},
		{"a FLOP of the same value changes nothing", []string{flop("STND", 1, "<STND>201</STND>")}, vocab.StatusSucceeded, "", "", 0, false},
		{"a FLOP of an unknown flight", []string{flop("STND", 99, "<STND>1</STND>")}, vocab.StatusSkipped, "", "no-match:flight", 0, false},
		{"a FLOP of a DELETED flight", []string{flop("STND", 2, "<STND>1</STND>")}, vocab.StatusSkipped, "", "no-match:flight-deleted", 0, false},
		{"records of known and unknown flights", []string{envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>5</STND></FLOP><FLOP><FLID>77</FLID><STND>5</STND></FLOP><FLOP><FLID>2</FLID><STND>5</STND></FLOP>")},
			vocab.StatusSucceeded, "", "no-match:flight:77 no-match:flight-deleted:2", 2, false},
		{"a repeated identity is a duplicate", []string{dup, dup}, vocab.StatusSkipped, "", "duplicate-of:", 0, false},
		{"an ignored type", []string{envelope("LDM", "NONE", "<LDM>CA101/12</LDM>")}, vocab.StatusSkipped, "", "ignored:LDM", 0, false},
		{"malformed XML", []string{"<MSG><META>"}, vocab.StatusDead, "MALFORMED", "", 0, false},
		{"a value longer than its column", []string{flop("REMC", 1, "<REMC>"+strings.Repeat("x", 1001)+"</REMC>")}, vocab.StatusDead, "PROTOCOL", "", 0, false},
		{"an outbound request arriving inbound", []string{envelope("RQFD", "NONE", "<RQFD><STDB>02DEC260000</STDB><STDE>02DEC262359</STDE></RQFD>")}, vocab.StatusDead, "PROTOCOL", "arrived inbound", 0, true},
		{"a record moving a flight to another day is refused whole", []string{schd("UPD", fltr(3), `<FLTR><FLID>1</FLID><SODT>05DEC261030</SODT></FLTR>`)}, vocab.StatusDead, "PROTOCOL", "", 0, false},
		{"FDEL tombstones a flight", []string{envelope("FDEL", "NONE", "<FDEL><FLID>1</FLID></FDEL>")}, vocab.StatusSucceeded, "", "", 2, false},
		{"SCHD DEL of an unknown flight", []string{schd("DEL", fltr(42))}, vocab.StatusSkipped, "", "no-match:flight", 0, false},
		{"SCHD UPD creates a flight and revives a deleted one", []string{schd("UPD", fltr(3), fltr(2))}, vocab.StatusSucceeded, "", "", 4, false},
		{"a message naming a flight twice changes it once", []string{envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>14</STND></FLOP><FLOP><FLID>1</FLID><STND>15</STND></FLOP>")},
			vocab.StatusSucceeded, "", "", 2, false},
		{"records that cancel out change nothing", []string{envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>14</STND></FLOP><FLOP><FLID>1</FLID><STND>201</STND></FLOP>")},
			vocab.StatusSucceeded, "", "", 0, false},
		{"SCHD UPD naming a flight twice changes it once", []string{schd("UPD", fltr(1, "<STND>5</STND>"), fltr(1, "<STND>6</STND>"))}, vocab.StatusSucceeded, "", "", 2, false},
		{"SCHD ADFT creating a flight and changing it", []string{schd("ADFT", fltr(3), fltr(3, "<STND>6</STND>"))}, vocab.StatusSucceeded, "", "", 2, false},
		{"FDEL naming a flight twice deletes it once", []string{envelope("FDEL", "NONE", "<FDEL><FLID>1</FLID></FDEL><FDEL><FLID>1</FLID></FDEL>")}, vocab.StatusSucceeded, "", "", 2, false},
		{"a refused message leaves the next one the state before it", []string{schd("UPD", fltr(3), `<FLTR><FLID>1</FLID><SODT>05DEC261030</SODT></FLTR>`), flop("STND", 3, "<STND>1</STND>")}, vocab.StatusSkipped, "", "no-match:flight", 0, false},
	} {
		for _, path := range []string{"alone", "batch"} {
			if c.alone && path == "batch" {
				continue
			}
			t.Run(c.name+"/"+path, func(t *testing.T) {
				t.Parallel()
				a := New(Config{Prune: true, Location: shanghai})
				w := setupWorld(t, a)
				var out Outcome
				if path == "alone" {
					for _, m := range c.msgs {
						var err error
						out, err = w.one(a, m)
						require.NoError(t, err)
					}
				} else {
					outs := w.batch(a, c.msgs...)
					out = outs[len(outs)-1]
				}
				require.Equal(t, c.status, out.Status, out.Reason)
				require.Equal(t, c.class, string(out.Class))
				require.Contains(t, out.Reason, c.reason)
				last := w.nextID
				require.Len(t, eventsOf(w, last), c.events)
				f := w.finishes[last]
				require.Equal(t, c.status, f.Status)
				require.Len(t, w.todos, len(w.finishes), "every terminal message is backfilled")
				if out.Refused() {
					require.True(t, f.Bind == nil || f.Bind.IdentityKey == "", "a refused message binds no identity")
				}
				if c.name == "a repeated identity is a duplicate" {
					require.Equal(t, last-1, *out.DuplicateOf)
					require.Equal(t, last-1, w.holders[f.Bind.IdentityKey].MsgID, "the first keeps the identity")
				}
			})
		}
	}
}

// setupWorld is the world of TestBatchableRules: flights 1 (STND 201) and
// 2 of a DNLD, flight 2 then deleted; the setup's own outcomes are cleared.
func setupWorld(t *testing.T, a *Applier) *world {
	w := newWorld(t)
	out, err := w.one(a, schd("DNLD", fltr(1, "<STND>201</STND>"), fltr(2)))
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, out.Status)
	out, err = w.one(a, envelope("FDEL", "NONE", "<FDEL><FLID>2</FLID></FDEL>"))
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, out.Status)
	w.events, w.todos, w.finishes = nil, nil, map[int64]vocab.Finish{}
	return w
}

func eventsOf(w *world, msgID int64) []vocab.NewEvent {
	var out []vocab.NewEvent
	for _, e := range w.events {
		if e.MsgID == msgID {
			out = append(out, e)
		}
	}
	return out
}

// An event over kafka.max-record-bytes refuses its message, alone or in a
// batch, and nothing of it is written; shadow mode writes no events, so
// the limit does not apply, nor is anything backfilled.
func TestRecordLimitAndShadow(t *testing.T) {
	t.Parallel()
	big := flop("VIPF", 1, sistest.VIPList(200))
	a := New(Config{Prune: true, Location: shanghai, MaxRecordBytes: 4000})
	w := setupWorld(t, a)
	outs := w.batch(a, flop("STND", 1, "<STND>5</STND>"), big, flop("STND", 1, "<STND>6</STND>"))
	require.Equal(t, vocab.StatusDead, outs[1].Status)
	require.Contains(t, outs[1].Reason, "over kafka.max-record-bytes 4000")
	require.Equal(t, vocab.StatusSucceeded, outs[2].Status)
	require.Len(t, w.events, 3, "the two small messages' KAFKA:msg events only, and the flight's one mark")
	require.Equal(t, "6", w.flights[1].Scalars["STND"].Raw)
	require.Empty(t, w.flights[1].Payloads["VIPF"].Content)

	shadow := New(Config{Prune: true, Shadow: true, Location: shanghai, MaxRecordBytes: 4000})
	w = setupWorld(t, shadow)
	out, err := w.one(shadow, big)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, out.Status)
	require.NotEmpty(t, w.flights[1].Payloads["VIPF"].Content, "state is kept whole")
	require.Empty(t, w.events)
	require.Empty(t, w.todos, "shadow mode backfills nothing")
}

// A replayed message's backfill may overwrite msgx's own DEAD backfill
// (rule 18); a first one writes only a row never backfilled.
func TestReplayedMessageOverwritesItsDeadBackfill(t *testing.T) {
	t.Parallel()
	a := New(Config{Location: shanghai})
	in := newWorld(t).input(flop("STND", 1, "<STND>5</STND>"))
	in.Msg.ReplayCount = 1
	w, _, err := a.Batch([]Input{in}, map[string]vocab.Holder{}, map[int64]*flight.State{}, start)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusDead, w.Backfills[0].OverwritesStatus)
	in.Msg.ReplayCount = 0
	w, _, err = a.Batch([]Input{in}, map[string]vocab.Holder{}, map[int64]*flight.State{}, start)
	require.NoError(t, err)
	require.Empty(t, w.Backfills[0].OverwritesStatus)
}

// Messages settled alone: snapshots, RESPs, reference lists, unsupported
// kinds, missing rows.
func TestAloneRules(t *testing.T) {
	t.Parallel()
	// An Applier per subtest: it serves one caller at a time (they run in parallel).
	applier := func() *Applier { return New(Config{Prune: true, Location: shanghai}) }

	t.Run("a DNLD prunes the members it lacks, a later one from before is stale, a replay advances nothing", func(t *testing.T) {
		t.Parallel()
		a := applier()
		w := newWorld(t)
		first, err := w.one(a, schdAt("20261202080000", "DNLD", fltr(1), fltr(2)))
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSucceeded, first.Status)
		firstID := w.nextID
		out, err := w.one(a, schdAt("20261202090000", "DNLD", fltr(1)))
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSucceeded, out.Status)
		require.Equal(t, "DELETED", string(w.flights[2].Lifecycle), "pruned")
		require.EqualValues(t, 2, w.gens["2026-12-02"].Version)
		newer := w.nextID
		out, err = w.one(a, schdAt("20261202085900", "DNLD", fltr(1), fltr(2)))
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSkipped, out.Status)
		require.Equal(t, fmt.Sprintf("stale-snapshot:%d", newer), out.Reason)
		require.Equal(t, "DELETED", string(w.flights[2].Lifecycle), "a stale snapshot changes nothing")
		require.NotEqual(t, firstID, newer)
	})

	t.Run("a RESP without a request is skipped and writes nothing", func(t *testing.T) {
		t.Parallel()
		a := applier()
		w := newWorld(t)
		out, err := w.one(a, schd("RESP", fltr(1)))
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSkipped, out.Status)
		require.Equal(t, respmatch.ReasonNoMatch, out.Reason)
		require.Equal(t, RespUnmatched, out.Resp)
		require.Empty(t, w.flights)
		require.Zero(t, w.emits-1, "only the final status is written")
	})

	t.Run("a RESP answering the open request completes it and prunes only its range", func(t *testing.T) {
		t.Parallel()
		a := applier()
		w := newWorld(t)
		_, err := w.one(a, schdAt("20261202070000", "DNLD", fltr(1), `<FLTR><FLID>2</FLID><ALCD>CA</ALCD><FLNO>CA2</FLNO><MVIN>D</MVIN><SODT>02DEC260700</SODT></FLTR>`))
		require.NoError(t, err)
		sent := time.Date(2026, 12, 2, 7, 30, 0, 0, shanghai)
		begin, end := time.Date(2026, 12, 2, 10, 0, 0, 0, shanghai), time.Date(2026, 12, 3, 23, 59, 0, 0, shanghai)
		w.open = &vocab.Request{ID: 7, Status: vocab.RequestSent, SentAt: &sent, ExpiresAt: sent.Add(time.Hour), RangeBegin: &begin, RangeEnd: &end}
		out, err := w.one(a, schd("RESP", fltr(3)))
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSucceeded, out.Status)
		require.Equal(t, "request:7 (degraded)", out.Reason)
		require.Equal(t, RespMatched, out.Resp)
		require.Nil(t, w.open, "the request is done")
		require.Equal(t, "DELETED", string(w.flights[1].Lifecycle), "10:30 is in the range: pruned")
		require.Equal(t, "ACTIVE", string(w.flights[2].Lifecycle), "07:00 is before it: kept")
		require.ElementsMatch(t, []int64{3, 2}, w.members["2026-12-02"])
		require.Contains(t, w.gens, "2026-12-03", "the range's day without records advances too")
	})

	t.Run("reference lists: upsert, delete, a RESP replaces the list", func(t *testing.T) {
		t.Parallel()
		a := applier()
		w := newWorld(t)
		for _, m := range []string{refList("20261202080000", "UPD", "CA", "MU", "CZ"), refList("20261202080000", "DEL", "MU")} {
			out, err := w.one(a, m)
			require.NoError(t, err)
			require.Equal(t, vocab.StatusSucceeded, out.Status)
		}
		require.Len(t, w.refs, 2)
		sent := time.Date(2026, 12, 2, 15, 0, 0, 0, shanghai)
		w.open = &vocab.Request{ID: 8, Status: vocab.RequestSent, SentAt: &sent, ExpiresAt: sent.Add(time.Hour)}
		out, err := w.one(a, refList("20261202160000", "RESP", "HU"))
		require.NoError(t, err)
		require.Equal(t, "request:8 (degraded)", out.Reason)
		require.Equal(t, RespMatched, out.Resp, "counted as a matched RESP")
		require.Equal(t, map[RefKey]string{{"AIRL", "HU"}: w.refs[RefKey{"AIRL", "HU"}]}, w.refs, "keys the RESP lacks are deleted")
	})

	t.Run("guard off: every RESP applies and upserts only", func(t *testing.T) {
		t.Parallel()
		off := New(Config{Prune: true, Location: shanghai, Guard: respmatch.ModeOff})
		w := newWorld(t)
		_, err := w.one(off, refList("20261202080000", "UPD", "CA"))
		require.NoError(t, err)
		out, err := w.one(off, refList("20261202160000", "RESP", "HU"))
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSucceeded, out.Status)
		require.Equal(t, RespNone, out.Resp, "applied, but it answered no request")
		require.Len(t, w.refs, 2)
	})

	t.Run("an unsupported kind is a retryable failure that writes nothing", func(t *testing.T) {
		t.Parallel()
		a := applier()
		w := newWorld(t)
		_, err := w.one(a, envelope("SCHD", "SCHS", "<SCHD><RECS>0</RECS></SCHD>"))
		var f *Failure
		require.ErrorAs(t, err, &f)
		require.Equal(t, "UNSUPPORTED", string(f.Class))
		require.Empty(t, w.finishes)
	})

	t.Run("a row missing from the mailbox is DEAD MALFORMED", func(t *testing.T) {
		t.Parallel()
		a := applier()
		w := newWorld(t)
		res, err := a.One(t.Context(), w, Input{Msg: vocab.QueueEntry{ID: 5}, Missing: true}, start, w.write)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusDead, res.Outcome.Status)
		require.Equal(t, "MALFORMED", string(res.Outcome.Class))
		require.True(t, CanBatch(&Input{Missing: true}), "settled in a batch too")
	})

	t.Run("a RESP and a snapshot are never batched", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		for _, raw := range []string{schd("RESP", fltr(1)), refList("20261202160000", "RESP", "CA"), schd("DNLD", fltr(1))} {
			in := w.input(raw)
			require.False(t, CanBatch(&in))
		}
	})
}

// A message of more records than SliceRecords is applied a slice at a
// time: each slice is emitted before the next is computed (a flight a later
// slice names again is emitted there), the outcome is the one-piece
// apply's, and a refusal in a later slice refuses it whole.
func TestManyRecordsAreEmittedInSlices(t *testing.T) {
	t.Parallel()
	a := New(Config{Location: shanghai})
	w := newWorld(t)
	_, err := w.one(a, schd("DNLD", fltr(1), fltr(2), fltr(3)))
	require.NoError(t, err)
	n := 2*SliceRecords + 2
	var recs strings.Builder
	for r := range n - 2 {
		fmt.Fprintf(&recs, "<FLOP><FLID>%d</FLID><STND>%d</STND></FLOP>", r%3+1, r)
	}
	recs.WriteString("<FLOP><FLID>77</FLID><STND>1</STND></FLOP><FLOP><FLID>78</FLID><STND>1</STND></FLOP>")
	in := w.input(envelope("FLOP", "STND", recs.String()))
	require.False(t, CanBatch(&in), "too many records for a batch")
	w.emits = 0
	res, err := a.One(t.Context(), w, in, start, w.write)
	require.NoError(t, err)
	require.Equal(t, 3, w.emits, "one emit per slice")
	require.Equal(t, "no-match:flight:77,78", res.Outcome.Reason)
	require.Equal(t, "1998", w.flights[1].Scalars["STND"].Raw)
	require.Equal(t, int64(2), w.flights[1].StateVersion, "every slice names flight 1: it changes once (rule 8)")
	require.Len(t, eventsOf(w, in.Msg.ID), 2*3, "each flight's events once, from the slice that names it last")

	var bad []string
	for r := range 2 * SliceRecords {
		bad = append(bad, fmt.Sprintf("<FLTR><FLID>%d</FLID><STND>x%d</STND></FLTR>", r%3+1, r))
	}
	bad = append(bad, "<FLTR><FLID>99</FLID><STND>1</STND></FLTR>") // a new flight without SODT
	out, err := w.one(a, schd("UPD", bad...))
	require.NoError(t, err)
	require.True(t, out.Refused())
	require.Contains(t, out.Reason, "flight 99: a new flight needs SODT")
	require.Equal(t, "1998", w.flights[1].Scalars["STND"].Raw, "the earlier slices are undone by the caller")
}
