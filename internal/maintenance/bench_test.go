package maintenance

import (
	"fmt"

	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const (
	benchFlights  = 100_000
	benchMessages = 20000 // per pump measurement
)

// benchFlight is a flight of an old operation day with 15 detail rows.
func benchFlight(flid int64, day time.Time) *flight.State {
	v := func(s string) flight.Value { return flight.Value{Raw: s} }
	items := func(n int, field, prefix string) []flight.Item {
		out := make([]flight.Item, n)
		for i := range out {
			seq := int64(i + 1)
			out[i] = flight.Item{SourceSeq: &seq, Fields: map[string]flight.Value{field: v(fmt.Sprintf("%s%d", prefix, i+1))}}
		}
		return out
	}
	return &flight.State{
		FLID:    flid,
		Scalars: map[string]flight.Value{"ALCD": v("CA"), "FLNO": v(fmt.Sprintf("CA%d", flid)), "MVIN": v("D"), "STND": v("101")},
		Structs: map[string]flight.Struct{},
		Groups: map[string][]flight.Item{
			flight.GroupGates: items(3, "GATE", "G"), flight.GroupCheckins: items(4, "CHKC", "C"),
			flight.GroupBelts: items(2, "BELT", "B"), flight.GroupStandPlans: items(2, "PSST", "S"),
			flight.GroupChutes: items(2, "CHUT", "U"), flight.GroupRoute: items(2, "APCD", "A"),
		},
		Payloads:     map[string]flight.Payload{},
		OperationDay: day, Lifecycle: flight.Active, StateVersion: 1, LastMessageID: flid,
	}
}

// seedFlights writes n old flights through the store (COPY), in chunks.
func seedFlights(b *testing.B, st store.Store, n int, at time.Time) {
	b.Helper()
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	changed := flight.Replaced(1, flight.Groups, flight.PayloadKinds)
	const chunk = 5000
	for lo := 0; lo < n; lo += chunk {
		ws := make([]vocab.FlightWrite, 0, chunk)
		for i := lo; i < min(lo+chunk, n); i++ {
			ws = append(ws, vocab.FlightWrite{State: benchFlight(int64(1_000_000+i), day), Changes: changed, New: true})
		}
		require.NoError(b, st.WriteFlights(b.Context(), ws, at))
	}
}

// flopSTND moves the stand of a flight of today.
func flopSTND(flid int64, i int) string {
	return envelope("FLOP", "STND", fmt.Sprintf("<FLOP><FLID>%d</FLID><STND>%d</STND></FLOP>", flid, 100+i%500))
}

// queueFLOPs writes n FLOPs on live flights into the mailbox and enqueues them.
func queueFLOPs(b *testing.B, e *env, n int) {
	b.Helper()
	ids := make([]int64, n)
	for i := range ids {
		id, err := e.Mailbox.Insert(b.Context(), []byte(flopSTND(int64(1+i%200), i)), e.Clock.Now())
		require.NoError(b, err)
		ids[i] = id
	}
	_, err := e.Store.Enqueue(b.Context(), ids, e.Clock.Now())
	require.NoError(b, err)
}

// BenchmarkHistorySweep sweeps 100 000 flights with 15 detail rows each
// (flights/s, rows/s) on an empty queue, and reports the pump alone in the
// same run beside it. A sweep batch commits only while no message is
// unfinished (History's doc): it never runs beside a backlog, so the pump's
// throughput during a sweep is not a figure any more (it was pump_ratio).
func BenchmarkHistorySweep(b *testing.B) {
	e := newEnv(b)
	e.Send(b, adft(benchLive()...))
	e.Drain(b)
	seedStart := time.Now()
	seedFlights(b, e.Store, benchFlights, e.Clock.Now().Add(-30*day))
	b.Logf("seeded %d flights in %s", benchFlights, time.Since(seedStart).Round(time.Millisecond))

	queueFLOPs(b, e, benchMessages/5) // warm up after the bulk load
	pumpFor(b, e)
	queueFLOPs(b, e, benchMessages)
	alone := pumpFor(b, e)

	h := e.history()
	h.Batch = 200
	// The sweep's own work rate: no pause between batches, no yield (a
	// scheduled sweep yields four times each batch's time, HistoryYield: a
	// pacing decision, not a cost).
	h.Pause, h.Yield = 0, 0
	h.Clock = fixedNow{Clock: clock.Real{}, now: e.Clock.Now()} // candidates as of the fake now
	t0 := time.Now()
	res, err := h.Run(b.Context(), false)
	took := time.Since(t0)
	require.NoError(b, err)
	require.Equal(b, benchFlights, res.Rows, res.Note)
	b.ReportMetric(float64(res.Rows)/took.Seconds(), "flights/s")
	b.ReportMetric(float64(res.Rows*16)/took.Seconds(), "rows/s") // flight + 15 details
	b.ReportMetric(alone, "pump_alone_msg/s")
	b.Logf("swept %d flights in %s; the pump alone %.0f msg/s", res.Rows, took.Round(time.Millisecond), alone)
}

// pumpFor drains the queue: messages per second.
func pumpFor(b *testing.B, e *env) float64 {
	b.Helper()
	counts := func() int64 {
		cs, err := e.Store.QueueCounts(b.Context())
		require.NoError(b, err)
		var n int64
		for _, c := range cs {
			if c.Status == vocab.StatusPending || c.Status == vocab.StatusFailed {
				n += c.Messages
			}
		}
		return n
	}
	n := counts()
	t0 := time.Now()
	e.Drain(b)
	return float64(n) / time.Since(t0).Seconds()
}

// benchLive are the flights the pump's messages change (today's, not swept).
func benchLive() []int64 {
	out := make([]int64, 200)
	for i := range out {
		out[i] = int64(i + 1)
	}
	return out
}

// fixedNow is a wall clock for waits whose Now is fixed.
type fixedNow struct {
	clock.Clock
	now time.Time
}

func (f fixedNow) Now() time.Time { return f.now }
