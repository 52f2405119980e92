package apply

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/sis/sistest"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// shanghai is the airport zone of the examples; start their clock.
var (
	shanghai = time.FixedZone("Asia/Shanghai", 8*60*60)
	start    = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	dec2     = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC) // flight days are dates at UTC midnight (flight.LocalDay)
	dec3     = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
)

var (
	envelope = sistest.Envelope
	fltr     = sistest.Fltr
	schd     = sistest.Schd
	schdAt   = sistest.SchdAt
	flop     = sistest.Flop
	refList  = sistest.RefList
)

// world is an in-memory store for the rules' tests: Reader over maps, and
// the Writes applied to them as the store would. Test support only; the
// conformance suite (internal/store/storetest) holds the real stores to the
// same contract.
type world struct {
	t        testing.TB
	flights  map[int64]*flight.State
	holders  map[string]vocab.Holder
	gens     map[string]vocab.SnapshotGen // by flight day, YYYY-MM-DD
	members  map[string][]int64
	refs     map[RefKey]string
	open     *vocab.Request // the open request of every kind (request mode)
	outbound []respmatch.Outbound
	events   []vocab.NewEvent
	finishes map[int64]vocab.Finish
	todos    []vocab.Backfill
	logs     []vocab.SnapshotLog
	nextID   int64
	emits    int // emit calls of the last One
}

func newWorld(t testing.TB) *world {
	return &world{t: t, flights: map[int64]*flight.State{}, holders: map[string]vocab.Holder{}, gens: map[string]vocab.SnapshotGen{},
		members: map[string][]int64{}, refs: map[RefKey]string{}, finishes: map[int64]vocab.Finish{}}
}

func (w *world) IdentityHolders(_ context.Context, keys []string) (map[string]vocab.Holder, error) {
	out := map[string]vocab.Holder{}
	for _, k := range keys {
		if h, ok := w.holders[k]; ok {
			out[k] = h
		}
	}
	return out, nil
}

func (w *world) Flights(_ context.Context, flids []int64) (map[int64]*flight.State, error) {
	out := map[int64]*flight.State{}
	for _, id := range flids {
		if s, ok := w.flights[id]; ok {
			out[id] = s
		}
	}
	return out, nil
}

func (w *world) SnapshotGen(_ context.Context, fday time.Time) (vocab.SnapshotGen, error) {
	g, ok := w.gens[day(fday)]
	if !ok {
		return vocab.SnapshotGen{}, vocab.ErrNotFound
	}
	return g, nil
}

func (w *world) PruneCandidates(_ context.Context, fday time.Time, keep []int64) ([]*flight.State, error) {
	var out []*flight.State
	for _, id := range w.members[day(fday)] {
		if s := w.flights[id]; s != nil && s.Lifecycle != flight.Deleted && !slices.Contains(keep, id) {
			out = append(out, s)
		}
	}
	return out, nil
}

func (w *world) RespCandidates(context.Context, string, time.Time) (respmatch.Candidates, error) {
	return respmatch.Candidates{Open: w.open, Outbound: w.outbound}, nil
}

// write applies what a message wrote.
func (w *world) write(wr *Writes) error {
	w.emits++
	for _, a := range wr.Advances {
		g := w.gens[day(a.FDay)]
		require.Equal(w.t, g.Version, a.ExpectedVersion, "compare-and-set of %s", a.FDay)
		w.gens[day(a.FDay)] = vocab.SnapshotGen{Version: a.ExpectedVersion + 1, LastMessageID: a.MessageID, Dttm: a.Dttm}
	}
	w.logs = append(w.logs, wr.SnapshotLogs...)
	for _, r := range wr.RefUpserts {
		w.refs[RefKey{r.RType, r.RKey}] = r.Record
	}
	for _, k := range wr.RefDeletes {
		delete(w.refs, k)
	}
	if l := wr.RefList; l != nil {
		for k := range w.refs {
			if k.RType == l.RType && !slices.Contains(l.Keep, k.RKey) {
				delete(w.refs, k)
			}
		}
	}
	for _, f := range wr.Flights {
		w.flights[f.State.FLID] = f.State
	}
	for _, e := range wr.Events { // copied, as a store writes them: the payloads are the Applier's
		e.Payload = bytes.Clone(e.Payload)
		w.events = append(w.events, e)
	}
	for _, m := range wr.SchdMarks { // a flight's mark as the record it sends
		w.events = append(w.events, schdRecord(m))
	}
	for _, m := range wr.Members {
		w.members[day(m.FDay)] = m.FLIDs
	}
	if d := wr.RequestDone; d != nil {
		require.Equal(w.t, w.open.ID, d.ID)
		w.open = nil
	}
	for _, f := range wr.Finishes {
		w.finishes[f.MsgID] = f
		if f.Bind != nil && f.Bind.IdentityKey != "" && f.DuplicateOf == nil {
			w.holders[f.Bind.IdentityKey] = vocab.Holder{MsgID: f.MsgID, Digest: f.Bind.Digest}
		}
	}
	w.todos = append(w.todos, wr.Backfills...)
	return nil
}

// input decodes raw as the pump does, as the next message id.
func (w *world) input(raw string) Input {
	w.nextID++
	m, err := decode.Message([]byte(raw), sis.Options{Location: shanghai})
	return Input{Msg: vocab.QueueEntry{ID: w.nextID, Status: vocab.StatusPending}, Decoded: m, Err: err, Digest: vocab.RawDigest([]byte(raw))}
}

// one settles a message alone: like the pump, a refusal keeps nothing but
// its status.
func (w *world) one(a *Applier, raw string) (Outcome, error) {
	w.t.Helper()
	before := w.snapshot()
	w.emits = 0
	res, err := a.One(context.Background(), w, w.input(raw), start, w.write)
	if err != nil {
		w.restore(before)
		return Outcome{}, err
	}
	if res.Discard {
		w.restore(before)
	}
	require.NoError(w.t, w.write(res.Final))
	return res.Outcome, nil
}

// batch settles messages CanBatch takes in one batch.
func (w *world) batch(a *Applier, raws ...string) []Outcome {
	w.t.Helper()
	ins := make([]Input, len(raws))
	for i, raw := range raws {
		ins[i] = w.input(raw)
		require.True(w.t, CanBatch(&ins[i]), "message %d can be batched", i)
	}
	keys, flids := Needs(ins)
	holders, _ := w.IdentityHolders(context.Background(), keys)
	states, _ := w.Flights(context.Background(), flids)
	wr, outs, err := a.Batch(ins, holders, states, start)
	require.NoError(w.t, err)
	require.NoError(w.t, w.write(wr))
	return outs
}

type worldState struct {
	flights map[int64]*flight.State
	events  int
}

func (w *world) snapshot() worldState {
	flights := make(map[int64]*flight.State, len(w.flights))
	for k, v := range w.flights {
		flights[k] = v
	}
	return worldState{flights: flights, events: len(w.events)}
}

func (w *world) restore(s worldState) {
	w.flights, w.events = s.flights, w.events[:s.events]
}

// day is a flight day's map key (the same day may come in different zones).
func day(fday time.Time) string { return fday.Format(time.DateOnly) }
