package replay_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/testenv"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var (
	shanghai = testenv.Zone
	start    = testenv.Start
)

// env is the real pipeline on real databases; reads of the raw messages
// named in down fail with an error of that message (INFRA; an outage would
// pause the pump instead).
type env struct {
	*testenv.Env
	dec sis.Options

	mu   sync.Mutex
	down map[int64]bool
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{Env: testenv.New(t), down: map[int64]bool{}}
	cfg := pump.DefaultConfig()
	cfg.Decode.Location = shanghai
	cfg.MaxAttempts = 1
	e.dec = cfg.Decode
	e.Pump = pump.New(e.Store, e, nil, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
	return e
}

// ReadRaws is the pump's raw reader: the mailbox, unless an id is down.
func (e *env) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, id := range ids {
		if e.down[id] {
			return nil, fmt.Errorf("read %d: injected failure", id)
		}
	}
	return e.Mailbox.ReadRaws(ctx, ids)
}

// RawSizes are the mailbox's (a down id fails its read, not its size).
func (e *env) RawSizes(ctx context.Context, ids []int64) (map[int64]int, error) {
	return e.Mailbox.RawSizes(ctx, ids)
}

func (e *env) setDown(id int64, down bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.down[id] = down
}

func (e *env) msg(t *testing.T, id int64) vocab.QueueEntry {
	t.Helper()
	m, err := e.Store.Message(t.Context(), id)
	require.NoError(t, err)
	return m
}

// seq numbers the messages; parallel tests share it.
var seq atomic.Int64

func envelope(typ, styp, body string) string {
	return fmt.Sprintf(`<MSG><META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>20261202080000</DTTM><TYPE>%s</TYPE><STYP>%s</STYP></META>%s</MSG>`,
		5000+seq.Add(1), typ, styp, body)
}

func fltr(flid int64, extra ...string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT>%s</FLTR>`,
		flid, flid, strings.Join(extra, ""))
}

func schd(styp string, records ...string) string {
	return envelope("SCHD", styp, fmt.Sprintf("<SCHD><RECS>%d</RECS>%s</SCHD>", len(records), strings.Join(records, "")))
}

func flop(styp string, flid int64, elems ...string) string {
	return envelope("FLOP", styp, fmt.Sprintf("<FLOP><FLID>%d</FLID>%s</FLOP>", flid, strings.Join(elems, "")))
}

// history is a day with replayable dead letters behind which later messages
// changed the same flights and the same snapshot day.
type history struct {
	dnld1, stnd1, stnd2, unsup, stnd3, badXML, dnld2 int64
}

func makeHistory(t *testing.T, e *env) history {
	// One message at a time, so an outage of one read fails only that one.
	send := func(xml string, down bool) int64 {
		id := e.Send(t, xml)
		e.setDown(id, down)
		e.DrainPastBackoff(t)
		e.setDown(id, false)
		return id
	}
	var h history
	h.dnld1 = send(schd("DNLD", fltr(101), fltr(102)), false)
	h.stnd1 = send(flop("STND", 101, "<STND>11</STND>"), true)                // its read fails: INFRA → DEAD EXHAUSTED
	h.stnd2 = send(flop("STND", 101, "<STND>12</STND>"), false)               // changes 101 after stnd1
	h.unsup = send(flop("STND", 102, "<STND>21</STND><XXXX>1</XXXX>"), false) // this codec refuses it: UNSUPPORTED → EXHAUSTED
	h.stnd3 = send(flop("STND", 102, "<STND>22</STND>"), false)               // changes 102 after unsup
	h.badXML = send("<MSG><META>", false)                                     // MALFORMED: never replayable
	// A snapshot of the day that dies, then a later one that applies.
	h.dnld2 = send(schd("DNLD", fltr(101, "<STND>31</STND>"), fltr(102)), true)
	send(schd("DNLD", fltr(101, "<STND>41</STND>"), fltr(102)), false)

	for _, id := range []int64{h.stnd1, h.unsup, h.dnld2} {
		m := e.msg(t, id)
		require.Equal(t, vocab.StatusDead, m.Status, "message %d", id)
		require.Equal(t, "EXHAUSTED", m.ErrorClass, "message %d", id)
	}
	require.Equal(t, "MALFORMED", e.msg(t, h.badXML).ErrorClass)
	for _, id := range []int64{h.dnld1, h.stnd2, h.stnd3} {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, "message %d", id)
	}
	return h
}

func warningsOf(p replay.Plan, msgID int64) []replay.Warning {
	var out []replay.Warning
	for _, w := range p.Warnings {
		if w.MsgID == msgID {
			out = append(out, w)
		}
	}
	return out
}

func TestPreviewWarnsOfLaterState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h := makeHistory(t, e)

	p, err := replay.Preview(t.Context(), e.Store, e.Mailbox, replay.Filter{Class: "EXHAUSTED"}, replay.Options{Decode: e.dec})
	require.NoError(t, err)
	require.Equal(t, 3, p.Total)
	require.False(t, p.Truncated)
	require.Len(t, p.Messages, 3)
	require.Equal(t, []int64{h.stnd1, h.unsup, h.dnld2}, []int64{p.Messages[0].ID, p.Messages[1].ID, p.Messages[2].ID})
	m := p.Messages[0]
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, "EXHAUSTED", m.Class)
	require.NotEmpty(t, m.Reason)
	require.Equal(t, 1, m.Attempts)
	require.True(t, strings.HasPrefix(m.Identity, "AODB|FLOP|STND|"), "identity learnt by decoding: %q", m.Identity)
	require.Equal(t, []int64{101}, m.Flights)

	// stnd1: flight 101 was changed since by later messages.
	ws := warningsOf(p, h.stnd1)
	require.Len(t, ws, 1, "%+v", ws)
	require.Equal(t, replay.WarnFlight, ws[0].Kind)
	require.Equal(t, int64(101), ws[0].FLID)
	require.Greater(t, ws[0].ByMsgID, h.stnd1)
	require.Contains(t, ws[0].Text, fmt.Sprintf("replaying %d would apply an older message over flight 101's state from message %d", h.stnd1, ws[0].ByMsgID))

	// unsup: this codec refuses it; its flight is still found (leniently) and warned about.
	require.Equal(t, []int64{102}, p.Messages[1].Flights)
	ws = warningsOf(p, h.unsup)
	require.Len(t, ws, 2, "%+v", ws)
	require.Equal(t, replay.WarnWouldFail, ws[0].Kind)
	require.Contains(t, ws[0].Text, "UNSUPPORTED")
	require.Equal(t, replay.WarnFlight, ws[1].Kind)
	require.Equal(t, int64(102), ws[1].FLID)

	// dnld2: flight 101 and the snapshot day moved on after it; 102 did not
	// (the later snapshot left it unchanged, so its state is still older).
	require.Equal(t, []int64{101, 102}, p.Messages[2].Flights)
	kinds := map[string]int{}
	for _, w := range warningsOf(p, h.dnld2) {
		kinds[w.Kind]++
		if w.Kind == replay.WarnFlight {
			require.Equal(t, int64(101), w.FLID)
		}
		if w.Kind == replay.WarnSnapshot {
			require.Equal(t, "day 2026-12-02", w.Subject)
			require.Greater(t, w.ByMsgID, h.dnld2)
			require.Equal(t, int64(2), w.Version, "the later snapshot made generation 2")
		}
	}
	require.Equal(t, map[string]int{replay.WarnFlight: 1, replay.WarnSnapshot: 1}, kinds)

	for _, id := range []int64{h.stnd1, h.unsup, h.dnld2} {
		require.Equal(t, vocab.StatusDead, e.msg(t, id).Status, "a preview changes nothing")
	}
}

func TestPreviewByIDsRejectsWhatIsNotReplayable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h := makeHistory(t, e)

	p, err := replay.Preview(t.Context(), e.Store, e.Mailbox, replay.Filter{IDs: []int64{h.stnd2, h.stnd1, h.badXML, 999999, h.stnd1}}, replay.Options{Decode: e.dec})
	require.NoError(t, err)
	require.Equal(t, 1, p.Total)
	require.Equal(t, h.stnd1, p.Messages[0].ID)
	require.Len(t, p.Rejected, 3)
	reasons := map[int64]string{}
	for _, r := range p.Rejected {
		reasons[r.ID] = r.Reason
	}
	require.Contains(t, reasons[h.stnd2], "SUCCEEDED")
	require.Contains(t, reasons[h.badXML], "DEAD MALFORMED: never replayed")
	require.Contains(t, reasons[999999], "not found")

	// A class that is never replayed, and filters that name nothing or both.
	_, err = replay.Preview(t.Context(), e.Store, e.Mailbox, replay.Filter{Class: "PROTOCOL"}, replay.Options{Decode: e.dec})
	require.ErrorIs(t, err, replay.ErrNotReplayable)
	for _, f := range []replay.Filter{{}, {IDs: []int64{1}, Class: "INFRA"}, {IDs: []int64{0}}} {
		_, err = replay.Preview(t.Context(), e.Store, e.Mailbox, f, replay.Options{})
		require.ErrorIs(t, err, replay.ErrInvalidFilter, "%+v", f)
		_, err = replay.Apply(t.Context(), e.Store, f, start, nil)
		require.ErrorIs(t, err, replay.ErrInvalidFilter, "%+v", f)
	}
}

// brokenMailbox is a mailbox that cannot be reached.
type brokenMailbox struct{}

func (brokenMailbox) ReadRaws(context.Context, []int64) (map[int64][]byte, error) {
	return nil, mailbox.ErrUnavailable
}

func TestPreviewWithoutMailbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h := makeHistory(t, e)
	p, err := replay.Preview(t.Context(), e.Store, brokenMailbox{}, replay.Filter{IDs: []int64{h.stnd1}}, replay.Options{Decode: e.dec})
	require.NoError(t, err, "the plan is still listed")
	require.Len(t, p.Messages, 1)
	require.Len(t, p.Warnings, 1)
	require.Equal(t, replay.WarnRawUnreadable, p.Warnings[0].Kind)
	require.Contains(t, p.Warnings[0].Text, "nothing checked")
}

func TestApplyReplaysAndThePumpReappliesOlderState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h := makeHistory(t, e)

	var calls [][2]int
	moved, err := replay.Apply(t.Context(), e.Store, replay.Filter{IDs: []int64{h.stnd1, h.badXML}}, e.Clock.Now(), func(done, total int) {
		calls = append(calls, [2]int{done, total})
	})
	require.NoError(t, err)
	require.Equal(t, []int64{h.stnd1}, moved, "only the replayable id moves")
	require.Equal(t, [][2]int{{0, 1}, {1, 1}}, calls)
	m := e.msg(t, h.stnd1)
	require.Equal(t, vocab.StatusPending, m.Status)
	require.Equal(t, "EXHAUSTED", m.PrevClass)
	require.Equal(t, 1, m.ReplayCount)
	require.Equal(t, vocab.StatusDead, e.msg(t, h.badXML).Status)

	// What the preview warned about happens: the older message is applied
	// over flight 101's newer state.
	e.DrainPastBackoff(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, h.stnd1).Status)
	marks, err := e.Store.FlightMarks(t.Context(), []int64{101})
	require.NoError(t, err)
	require.Equal(t, h.stnd1, marks[101].LastMessageID)
	fl, err := e.Store.Flights(t.Context(), []int64{101})
	require.NoError(t, err)
	require.Equal(t, "11", fl[101].Scalars["STND"].Raw)

	// Nothing left of the class but the two still dead ones.
	p, err := replay.Preview(t.Context(), e.Store, e.Mailbox, replay.Filter{Class: "EXHAUSTED"}, replay.Options{Decode: e.dec})
	require.NoError(t, err)
	require.Equal(t, 2, p.Total)
}

func TestApplyInBatchesWithProgress(t *testing.T) {
	t.Parallel()
	te := testenv.New(t)
	st, mb := te.Store, te.Mailbox
	const n = 2*replay.BatchSize + 7
	ids := make([]int64, n)
	finishes := make([]vocab.Finish, n)
	for i := range ids {
		ids[i] = int64(i + 1)
		finishes[i] = vocab.Finish{MsgID: ids[i], Status: vocab.StatusDead, ErrorClass: "EXHAUSTED", Reason: "5 attempts", Now: start}
	}
	_, err := st.Enqueue(t.Context(), ids, start)
	require.NoError(t, err)
	require.NoError(t, st.FinishMessages(t.Context(), finishes))

	// The preview lists at most Limit messages but counts them all; the
	// mailbox has none of these rows.
	p, err := replay.Preview(t.Context(), st, mb, replay.Filter{Class: "EXHAUSTED"}, replay.Options{Limit: 3})
	require.NoError(t, err)
	require.Equal(t, n, p.Total)
	require.True(t, p.Truncated)
	require.Len(t, p.Messages, 3)
	require.Len(t, p.Warnings, 3)
	require.Equal(t, replay.WarnRawMissing, p.Warnings[0].Kind)

	var calls [][2]int
	moved, err := replay.Apply(t.Context(), st, replay.Filter{Class: "EXHAUSTED"}, start, func(done, total int) {
		calls = append(calls, [2]int{done, total})
	})
	require.NoError(t, err)
	require.Equal(t, ids, moved)
	require.Equal(t, [][2]int{{0, n}, {replay.BatchSize, n}, {2 * replay.BatchSize, n}, {n, n}}, calls)
	left, err := st.ReplayCandidates(t.Context(), store.ReplayCandidatesParams{Limit: 10})
	require.NoError(t, err)
	require.Empty(t, left)

	// A cancelled context stops it with an error, nothing hidden.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = replay.Apply(ctx, st, replay.Filter{Class: "INFRA"}, start, nil)
	require.Error(t, err)
	require.True(t, errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "cancel"), "%v", err)
}

func city(name string) string {
	return envelope("CITY", "UPD", fmt.Sprintf("<RECS>1</RECS><CITY><ITCD>SHA</ITCD><CNAM>%s</CNAM></CITY>", name))
}

func TestPreviewWarnsOfLaterReference(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	send := func(xml string, down bool) int64 {
		id := e.Send(t, xml)
		e.setDown(id, down)
		e.DrainPastBackoff(t)
		e.setDown(id, false)
		return id
	}
	send(city("SHANGHAI"), false)
	old := send(city("SHANGHAI HONGQIAO"), true)
	later := send(city("SHANGHAI PUDONG"), false)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, later).Status)

	p, err := replay.Preview(t.Context(), e.Store, e.Mailbox, replay.Filter{IDs: []int64{old}}, replay.Options{Decode: e.dec})
	require.NoError(t, err)
	require.Len(t, p.Messages, 1)
	require.Empty(t, p.Messages[0].Flights)
	require.Len(t, p.Warnings, 1, "%+v", p.Warnings)
	w := p.Warnings[0]
	require.Equal(t, replay.WarnReference, w.Kind)
	require.Equal(t, "reference CITY/SHA", w.Subject)
	require.Equal(t, later, w.ByMsgID)
}
