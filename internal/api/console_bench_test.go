package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Size of the database the console must stay fast on (issue #18): every page
// renders in at most consoleBudget server-side.
const (
	benchFlights  = 10_000
	benchMessages = 100_000
	benchDays     = 10 // 1 000 flights a day
	consoleBudget = 100 * time.Millisecond
)

// BenchmarkConsolePages renders every console page over a database of
// 10 000 flights and 100 000 messages (each message one version of a flight,
// with its outbox event), and fails a page slower than consoleBudget.
func BenchmarkConsolePages(b *testing.B) {
	st := pgstore.New(testdb.Postgres(b).Pool)
	now := time.Date(2026, 12, 12, 8, 0, 0, 0, time.UTC)
	dead := seedConsole(b, st, now)
	clk := clock.NewFake(now)
	met := metrics.New(nil, clk)
	for i := range metrics.HistorySamples {
		for range 20 {
			met.MessageFinished("FLIGHT_OPS", vocab.StatusSucceeded, "", time.Second)
		}
		met.Sample(now.Add(time.Duration(i-metrics.HistorySamples)*metrics.HistoryInterval), &status.Report{Head: &status.Head{AgeSeconds: float64(i)}})
	}
	h := api.NewRouter(api.Deps{Store: st, Clock: clk, Log: quiet, Metrics: met,
		Mode: func() (string, bool) { return string(leader.Leader), false }})

	day := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	pages := []struct{ name, path string }{
		{"overview", "/console/"},
		{"dead-letters", "/console/dead-letters"},
		{"dead-letters-class", "/console/dead-letters?class=EXHAUSTED"},
		{"message", fmt.Sprintf("/console/messages/%d", dead)},
		{"flights-day", "/console/flights?day=" + day},
		{"flights-number", "/console/flights?q=CA0777&day=" + day},
		{"flight", "/console/flights/777"},
		{"outbox", "/console/outbox"},
		{"requests", "/console/requests"},
	}
	for _, p := range pages {
		b.Run(p.name, func(b *testing.B) {
			var worst time.Duration
			for b.Loop() {
				began := time.Now()
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequestWithContext(b.Context(), http.MethodGet, p.path, nil))
				worst = max(worst, time.Since(began))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", p.path, rec.Code, rec.Body.String())
				}
			}
			if per := b.Elapsed() / time.Duration(b.N); per > consoleBudget {
				b.Errorf("%s renders in %s on average, over the budget of %s", p.path, per, consoleBudget)
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
		})
	}
}

// seedConsole writes the flights, messages and events through the store in
// large batches and returns a DEAD message's id.
func seedConsole(b *testing.B, s store.Store, now time.Time) int64 {
	b.Helper()
	ctx := b.Context()
	states := make([]*flight.State, benchFlights)
	var writes []vocab.FlightWrite
	for i := range benchFlights {
		d := time.Date(2026, 12, 3+i%benchDays, 0, 0, 0, 0, time.UTC)
		sodt := d.Add(time.Duration(6*60+i%900) * time.Minute)
		states[i] = &flight.State{FLID: int64(i + 1), OperationDay: d, Lifecycle: flight.Active, StateVersion: 1,
			LastMessageID: int64(i + 1), CreatedAt: now, UpdatedAt: now,
			Scalars: map[string]flight.Value{
				"ALCD": {Raw: "CA"}, "FLNO": {Raw: fmt.Sprintf("CA%04d", i)}, "MVIN": {Raw: "D"},
				"SODT": {Raw: sodt.Format("02Jan061504"), Time: &sodt}, "STND": {Raw: "101"}, "ACFT": {Raw: "738"},
			},
			Groups: map[string][]flight.Item{flight.GroupGates: {
				{Fields: map[string]flight.Value{"GATE": {Raw: "A1"}}}, {Fields: map[string]flight.Value{"GATE": {Raw: "B2"}}},
			}},
		}
		writes = append(writes, vocab.FlightWrite{State: states[i], Changes: flight.Replaced(1, []string{flight.GroupGates}, nil), New: true})
		if len(writes) == 1000 || i == benchFlights-1 {
			require.NoError(b, s.WriteFlights(ctx, writes, now))
			writes = writes[:0]
		}
	}

	// Every message is one version of a flight (message m: flight m mod
	// 10 000), with its KAFKA:msg event; 1 % are DEAD, 1 % SKIPPED, the
	// last 100 still PENDING.
	const batch = 10_000
	var dead int64
	for from := 1; from <= benchMessages; from += batch {
		ids := make([]int64, 0, batch)
		var finishes []vocab.Finish
		var events []vocab.NewEvent
		for id := int64(from); id < int64(from+batch); id++ {
			ids = append(ids, id)
			f := vocab.Finish{MsgID: id, Status: vocab.StatusSucceeded, Now: now}
			switch {
			case id > benchMessages-100:
				continue
			case id%100 == 7:
				f.Status, f.ErrorClass, f.Reason, dead = vocab.StatusDead, "EXHAUSTED", "UNSUPPORTED: element XXXX", id
			case id%100 == 13:
				f.Status, f.Reason = vocab.StatusSkipped, "no-match:flight"
			default:
				st := states[(id-1)%benchFlights]
				version := (id-1)/benchFlights + 1
				st.Scalars["STND"] = flight.Value{Raw: fmt.Sprint(100 + version)}
				st.StateVersion, st.LastMessageID = version, id
				payload, err := flight.EventPayload(st)
				require.NoError(b, err)
				events = append(events, vocab.NewEvent{Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: id,
					FLID: st.FLID, StateVersion: version, IdempotencyKey: vocab.IdempotencyKey(id, st.FLID, version, vocab.TargetMsg),
					Payload: payload, CreatedAt: now})
			}
			finishes = append(finishes, f)
		}
		_, err := s.Enqueue(ctx, ids, now)
		require.NoError(b, err)
		require.NoError(b, s.FinishMessages(ctx, finishes))
		require.NoError(b, s.InsertEvents(ctx, events))
	}
	return dead
}
