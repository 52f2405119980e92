package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// enqueue runs the poller once: sends leave the enqueue to it.
func (e *sendEnv) enqueue(t *testing.T) {
	t.Helper()
	_, err := ingress.NewPoller(e.st, e.mb, e.clk, quiet, ingress.Config{}).PollOnce(t.Context())
	require.NoError(t, err)
}

// process enqueues what was sent and runs the pump over it, as the service would.
func (e *sendEnv) process(t *testing.T) {
	t.Helper()
	e.enqueue(t)
	cfg := pump.DefaultConfig()
	cfg.Decode.Location = airport
	p := pump.New(e.st, e.mb, nil, e.clk, quiet, cfg)
	for range 100 {
		wait, err := p.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			return
		}
	}
	t.Fatal("pump did not settle")
}

func sisMsg(typ, styp string, seqn int, body string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><MSG><META><SNDR>AODB</SNDR><SEQN>%d</SEQN>`+
		`<DTTM>20261202083000</DTTM><TYPE>%s</TYPE><STYP>%s</STYP></META>%s</MSG>`, seqn, typ, styp, body)
}

func sendID(t *testing.T, base, xml string) int64 {
	t.Helper()
	res, body := send(t, base, "application/xml", strings.NewReader(xml))
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	id, err := strconv.ParseInt(string(body), 10, 64)
	require.NoError(t, err)
	return id
}

const dnld7 = `<SCHD><RECS>1</RECS><FLTR><FLID>7</FLID><ALCD>CA</ALCD><FLNO>CA7</FLNO><MVIN>D</MVIN>` +
	`<SODT>02DEC261030</SODT><STND>100</STND>` +
	`<GTDT GTNO="1"><GATE>A1</GATE><GTYP>D</GTYP></GTDT><GTDT GTNO="4"><GATE>A1</GATE><GTYP>I</GTYP></GTDT>` +
	`<GTDT GTNO="2"><GATE>B2</GATE><PGOT>02DEC261000</PGOT></GTDT>` +
	`<DELY CODE="WX" STRT="02DEC261030" DURA="0045">天气</DELY></FLTR></SCHD>`

func TestReadFlightIsTheEventPayload(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	sendID(t, base, sisMsg("SCHD", "DNLD", 1, dnld7))
	stnd := sendID(t, base, sisMsg("FLOP", "STND", 2, "<FLOP><FLID>7</FLID><STND>201</STND></FLOP>"))
	e.process(t)

	res, body := do(t, http.MethodGet, base+"/flights/7", "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	states, err := e.st.Flights(t.Context(), []int64{7})
	require.NoError(t, err)
	want, err := flight.EventPayload(states[7])
	require.NoError(t, err)
	require.Equal(t, string(want), string(body), "exactly the documented payload of the stored state")

	var got flight.State
	require.NoError(t, json.Unmarshal(body, &got))
	require.Equal(t, int64(7), got.FLID)
	require.Equal(t, "201", got.Scalars["STND"].Raw, "the FLOP's value")
	require.Equal(t, "CA7", got.Scalars["FLNO"].Raw, "the DNLD's value")
	require.Equal(t, time.Date(2026, 12, 2, 10, 30, 0, 0, airport), got.Scalars["SODT"].Time.In(airport), "raw + parsed")
	require.Equal(t, int64(2), got.StateVersion)
	require.Equal(t, stnd, got.LastMessageID)
	require.Equal(t, flight.Active, got.Lifecycle)
	sent := time.Date(2026, 12, 2, 8, 30, 0, 0, airport) // both messages' DTTM
	stndAt, ok := got.Stamps.Of("STND")
	require.True(t, ok && sent.Equal(stndAt), "the stamps: when each value was set (rule 19)")
	require.Equal(t, flight.Stamps{flight.StampDefault: sent.UTC()}, got.Stamps, "the DNLD's one stamp for the flight it described; the FLOP of the same DTTM adds none")
	require.Contains(t, string(body), `"stamps":{`)
	gates := got.Groups[flight.GroupGates]
	require.Len(t, gates, 3)
	var seqs, codes, types []string
	for _, g := range gates {
		seqs = append(seqs, strconv.FormatInt(*g.SourceSeq, 10))
		codes = append(codes, g.Fields["GATE"].Raw)
		types = append(types, g.Fields["GTYP"].Raw)
	}
	require.Equal(t, []string{"1", "4", "2"}, seqs, "input order, source numbers kept")
	require.Equal(t, []string{"A1", "A1", "B2"}, codes)
	require.Equal(t, []string{"D", "I", ""}, types)
	dely := got.Groups[flight.GroupDelays]
	require.Len(t, dely, 1)
	require.Equal(t, "天气", dely[0].Fields["REASON"].Raw)
	require.Equal(t, int32(45), *dely[0].Fields["DURA"].Minutes)
}

// A deleted flight is still the current state until the history sweep:
// answered with its lifecycle and deletion time, and listed with its day.
func TestReadDeletedFlight(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	sendID(t, base, sisMsg("SCHD", "DNLD", 1, dnld7))
	sendID(t, base, sisMsg("FDEL", "NONE", 2, "<FDEL><FLID>7</FLID></FDEL>"))
	e.process(t)

	res, body := do(t, http.MethodGet, base+"/flights/7", "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	var got flight.State
	require.NoError(t, json.Unmarshal(body, &got))
	require.Equal(t, flight.Deleted, got.Lifecycle)
	require.NotNil(t, got.DeletedAt)
	ids, _ := pageAll(t, base, "2026-12-02", 10)
	require.Equal(t, []int64{7}, ids, "the day's list shows it too")
}

// A flight the history sweep purged is answered from the history store,
// marked archived.
func TestReadArchivedFlight(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	sendID(t, base, sisMsg("SCHD", "DNLD", 1, dnld7))
	e.process(t)
	_, live := do(t, http.MethodGet, base+"/flights/7", "", nil)

	states, err := e.st.Flights(t.Context(), []int64{7})
	require.NoError(t, err)
	f := states[7]
	require.NoError(t, e.st.WriteFlightHistory(t.Context(), []store.FlightHistory{{FLID: 7, OperationDay: f.OperationDay,
		Lifecycle: f.Lifecycle, StateVersion: f.StateVersion, LastMessageID: f.LastMessageID, State: live,
		CreatedAt: f.CreatedAt, PurgedAt: f.UpdatedAt}}))
	n, err := e.st.DeleteFlights(t.Context(), store.DeleteFlightsParams{FLIDs: []int64{7}, Max: 1})
	require.NoError(t, err)
	require.Equal(t, 1, n)

	res, body := do(t, http.MethodGet, base+"/flights/7", "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	var got, want map[string]any
	require.NoError(t, json.Unmarshal(body, &got))
	require.NoError(t, json.Unmarshal(live, &want))
	require.Equal(t, true, got["archived"])
	delete(got, "archived")
	require.Equal(t, want, got, "the last state, details and all")
	_, isLive := want["archived"]
	require.False(t, isLive, "a live flight carries no archived field")
}

func TestReadFlightErrors(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	res, body := do(t, http.MethodGet, base+"/flights/424242", "", nil)
	requireError(t, res, body, http.StatusNotFound)
	for _, bad := range []string{"abc", "-1", "0", "1.5", "99999999999999999999"} {
		res, body := do(t, http.MethodGet, base+"/flights/"+bad, "", nil)
		requireError(t, res, body, http.StatusBadRequest)
	}
	res, body = do(t, http.MethodPost, base+"/flights/1", "application/xml", strings.NewReader(xmlBody))
	requireError(t, res, body, http.StatusMethodNotAllowed)
}

// message reads GET /messages/{id} as a generic JSON object.
func message(t *testing.T, base string, id int64) map[string]any {
	t.Helper()
	res, body := do(t, http.MethodGet, base+"/messages/"+strconv.FormatInt(id, 10), "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m))
	return m
}

func TestReadMessage(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	ok := sendID(t, base, sisMsg("SCHD", "DNLD", 11, dnld7))
	dup := sendID(t, base, sisMsg("SCHD", "DNLD", 11, dnld7))
	refused := sendID(t, base, sisMsg("FLOP", "STND", 12, "<FLOP><FLID>x</FLID><STND>1</STND></FLOP>"))
	pending := sendID(t, base, sisMsg("FLOP", "STND", 13, "<FLOP><FLID>7</FLID><STND>2</STND></FLOP>"))
	e.enqueue(t)

	// Before processing: queued, nothing decoded yet.
	m := message(t, base, pending)
	keys := []string{"msg_id", "status", "error_class", "reason", "attempts", "next_attempt_at", "first_seen_at",
		"finished_at", "identity_key", "kind", "duplicate_of", "archived", "meta", "replay_count", "late",
		"prev_error_class", "prev_reason"}
	require.Len(t, m, len(keys))
	for _, k := range keys {
		require.Contains(t, m, k)
	}
	require.Equal(t, float64(pending), m["msg_id"])
	require.Equal(t, vocab.StatusPending, m["status"])
	require.Nil(t, m["identity_key"])
	require.Nil(t, m["finished_at"])
	require.Nil(t, m["meta"].(map[string]any)["type"])
	first, err := time.Parse(time.RFC3339Nano, m["first_seen_at"].(string))
	require.NoError(t, err)
	require.True(t, first.Equal(t0), "first seen at the clock's time: %v", first)

	e.clk.Advance(time.Minute)
	e.process(t)

	m = message(t, base, ok)
	require.Equal(t, vocab.StatusSucceeded, m["status"])
	require.Equal(t, "AODB|SCHD|DNLD|11", m["identity_key"])
	require.Equal(t, "SCHEDULE", m["kind"])
	require.Nil(t, m["error_class"])
	require.Nil(t, m["duplicate_of"])
	require.Equal(t, false, m["archived"])
	require.Equal(t, float64(0), m["attempts"])
	fin, err := time.Parse(time.RFC3339Nano, m["finished_at"].(string))
	require.NoError(t, err)
	require.True(t, fin.Equal(t0.Add(time.Minute)), "finished at %v", fin)
	meta := m["meta"].(map[string]any)
	require.Equal(t, "AODB", meta["sndr"])
	require.Equal(t, float64(11), meta["seqn"])
	require.Equal(t, "SCHD", meta["type"])
	require.Equal(t, "DNLD", meta["styp"])
	require.Equal(t, "20261202083000", meta["dttm_raw"])
	dttm, err := time.Parse(time.RFC3339, meta["dttm"].(string))
	require.NoError(t, err)
	require.True(t, dttm.Equal(time.Date(2026, 12, 2, 8, 30, 0, 0, airport)))

	m = message(t, base, dup)
	require.Equal(t, vocab.StatusSkipped, m["status"])
	require.Equal(t, float64(ok), m["duplicate_of"])
	require.Equal(t, fmt.Sprintf("duplicate-of:%d", ok), m["reason"])

	m = message(t, base, refused)
	require.Equal(t, vocab.StatusDead, m["status"])
	require.Equal(t, "PROTOCOL", m["error_class"])
	require.NotEmpty(t, m["reason"])

	require.Equal(t, vocab.StatusSucceeded, message(t, base, pending)["status"])

	// Archived rows are still answered, marked as such.
	_, err = e.pg.Pool.Exec(t.Context(), "DELETE FROM backfill_todo")
	require.NoError(t, err)
	require.NoError(t, e.st.PassBackfillMark(t.Context(), 1<<40, e.clk.Now())) // every mailbox row backfilled
	n, err := e.st.ArchiveMessages(t.Context(), store.ArchiveMessagesParams{Before: e.clk.Now().Add(time.Hour), Max: 100, Now: e.clk.Now()})
	require.NoError(t, err)
	require.Equal(t, 4, n.Rows)
	m = message(t, base, ok)
	require.Equal(t, true, m["archived"])
	require.Equal(t, vocab.StatusSucceeded, m["status"])
	require.Equal(t, "AODB|SCHD|DNLD|11", m["identity_key"])
}

func TestReadMessageErrors(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	res, body := do(t, http.MethodGet, base+"/messages/987654", "", nil)
	requireError(t, res, body, http.StatusNotFound)
	for _, bad := range []string{"x1", "-5", "0"} {
		res, body := do(t, http.MethodGet, base+"/messages/"+bad, "", nil)
		requireError(t, res, body, http.StatusBadRequest)
	}
}
