package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// call sends a request with headers and returns the answer and its body.
func call(t *testing.T, method, url string, hdr http.Header, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	require.NoError(t, err)
	for k, v := range hdr {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	requireUTCTimes(t, res, b)
	return res, b
}

// getJSON GETs a URL answering 200 JSON and decodes it into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, body := call(t, http.MethodGet, url, nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", url, body)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	require.NoError(t, json.Unmarshal(body, v), "%s", body)
}

// requireBadParam checks a 400 whose message names the parameter.
func requireBadParam(t *testing.T, url, param string) {
	t.Helper()
	res, body := call(t, http.MethodGet, url, nil, nil)
	requireError(t, res, body, http.StatusBadRequest)
	var e struct{ Error string }
	require.NoError(t, json.Unmarshal(body, &e))
	require.Contains(t, e.Error, param, "the error names the parameter: %s", body)
}

// fltrRec is one FLTR of a schedule message for the 2 Dec 2026 (or another day).
func fltrRec(flid int64, sodt string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>%s</SODT></FLTR>`, flid, flid, sodt)
}

func schdMsg(styp string, seqn int, recs ...string) string {
	return sisMsg("SCHD", styp, seqn, fmt.Sprintf("<SCHD><RECS>%d</RECS>%s</SCHD>", len(recs), strings.Join(recs, "")))
}

type flightsPage struct {
	Day        string            `json:"day"`
	Flights    []json.RawMessage `json:"flights"`
	Count      int               `json:"count"`
	NextCursor *string           `json:"next_cursor"`
}

// pageAll follows next_cursor from the first page and returns the FLIDs in
// order, failing on a duplicate.
func pageAll(t *testing.T, base, day string, limit int) ([]int64, int) {
	t.Helper()
	var flids []int64
	seen := map[int64]bool{}
	pages := 0
	cursor := ""
	for {
		q := url.Values{"day": {day}, "limit": {fmt.Sprint(limit)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var p flightsPage
		getJSON(t, base+"/all/flights?"+q.Encode(), &p)
		pages++
		require.Equal(t, day, p.Day)
		require.Equal(t, len(p.Flights), p.Count)
		require.LessOrEqual(t, p.Count, limit)
		for _, raw := range p.Flights {
			var st flight.State
			require.NoError(t, json.Unmarshal(raw, &st))
			require.False(t, seen[st.FLID], "flight %d on two pages", st.FLID)
			seen[st.FLID] = true
			flids = append(flids, st.FLID)
		}
		if p.NextCursor == nil {
			return flids, pages
		}
		require.Equal(t, limit, p.Count, "only a full page has a next page")
		cursor = *p.NextCursor
		require.Less(t, pages, 100)
	}
}

func TestAllFlightsPages(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	day2 := []int64{31, 4, 17, 8, 25, 12, 3}
	var recs []string
	for _, f := range day2 {
		recs = append(recs, fltrRec(f, "02DEC261030"))
	}
	sendID(t, base, schdMsg("DNLD", 1, recs...))
	sendID(t, base, schdMsg("ADFT", 2, fltrRec(9, "03DEC260100"), fltrRec(10, "01DEC262330")))
	sendID(t, base, sisMsg("FLOP", "STND", 3, "<FLOP><FLID>8</FLID><STND>201</STND></FLOP>"))
	e.process(t)

	want := []int64{3, 4, 8, 12, 17, 25, 31}
	for _, limit := range []int{1, 2, 3, 7, 1000} {
		got, pages := pageAll(t, base, "2026-12-02", limit)
		require.Equal(t, want, got, "limit %d: FLID order, no gaps, no duplicates, other days left out", limit)
		require.Equal(t, (len(want)+limit-1)/limit, pages, "limit %d: no empty last page", limit)
	}

	// Each flight is the document GET /flights/{flid} answers.
	var p flightsPage
	getJSON(t, base+"/all/flights?day=2026-12-02&limit=3&cursor=4", &p)
	require.Len(t, p.Flights, 3)
	require.NotNil(t, p.NextCursor)
	require.Equal(t, "17", *p.NextCursor, "the cursor is the last FLID of the page")
	states, err := e.st.Flights(t.Context(), []int64{8})
	require.NoError(t, err)
	doc, err := flight.EventPayload(states[8])
	require.NoError(t, err)
	require.JSONEq(t, string(doc), string(p.Flights[0]))
	res, one := call(t, http.MethodGet, base+"/flights/8", nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, string(one), string(p.Flights[0]))

	// A flight added between two pages shows up exactly once, on the page its FLID belongs to.
	getJSON(t, base+"/all/flights?day=2026-12-02&limit=2", &p)
	require.Equal(t, "4", *p.NextCursor)
	sendID(t, base, schdMsg("ADFT", 4, fltrRec(5, "02DEC260800"), fltrRec(2, "02DEC260800")))
	e.process(t)
	var rest []int64
	cursor := *p.NextCursor
	for cursor != "" {
		var next flightsPage
		getJSON(t, base+"/all/flights?day=2026-12-02&limit=2&cursor="+cursor, &next)
		for _, raw := range next.Flights {
			var st flight.State
			require.NoError(t, json.Unmarshal(raw, &st))
			rest = append(rest, st.FLID)
		}
		cursor = ""
		if next.NextCursor != nil {
			cursor = *next.NextCursor
		}
	}
	require.Equal(t, []int64{5, 8, 12, 17, 25, 31}, rest, "2 is behind the cursor, 5 ahead of it")

	// A day without flights is an empty page, not an error.
	var empty flightsPage
	getJSON(t, base+"/all/flights?day=2027-01-01", &empty)
	require.Empty(t, empty.Flights)
	require.NotNil(t, empty.Flights, "[] not null")
	require.Nil(t, empty.NextCursor)
}

func TestAllFlightsDefaultLimit(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	var recs []string
	for f := int64(1); f <= 101; f++ {
		recs = append(recs, fltrRec(f, "02DEC261030"))
	}
	sendID(t, base, schdMsg("DNLD", 1, recs...))
	e.process(t)

	var p flightsPage
	getJSON(t, base+"/all/flights?day=2026-12-02", &p)
	require.Equal(t, 100, p.Count, "default limit 100")
	require.Equal(t, "100", *p.NextCursor)
	getJSON(t, base+"/all/flights?day=2026-12-02&cursor=100", &p)
	require.Equal(t, 1, p.Count)
	require.Nil(t, p.NextCursor)
}

func TestListsRefuseBadParams(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	for _, q := range []string{"", "?limit=10", "?day=", "?day=2026-13-01", "?day=02DEC26", "?day=2026-12-2"} {
		requireBadParam(t, base+"/all/flights"+q, "day")
	}
	for _, path := range []string{"/all/flights?day=2026-12-02&", "/dead-letters?"} {
		for _, q := range []string{"limit=0", "limit=1001", "limit=-5", "limit=abc", "limit=1.5"} {
			requireBadParam(t, base+path+q, "limit")
		}
		for _, q := range []string{"cursor=-1", "cursor=abc", "cursor=99999999999999999999"} {
			requireBadParam(t, base+path+q, "cursor")
		}
	}
	requireBadParam(t, base+"/dead-letters?class=WHATEVER", "class")
	requireBadParam(t, base+"/dead-letters?class=protocol", "class")

	var p flightsPage
	getJSON(t, base+"/all/flights?day=2026-12-02&limit=1000", &p)
	require.Zero(t, p.Count, "the maximum limit is accepted")
}

type deadPage struct {
	Class       *string          `json:"class"`
	DeadLetters []map[string]any `json:"dead_letters"`
	Count       int              `json:"count"`
	NextCursor  *string          `json:"next_cursor"`
}

func deadIDs(t *testing.T, base, query string) ([]int64, deadPage) {
	t.Helper()
	var p deadPage
	getJSON(t, base+"/dead-letters?"+query, &p)
	ids := make([]int64, len(p.DeadLetters))
	for i, m := range p.DeadLetters {
		ids[i] = int64(m["msg_id"].(float64))
		require.Equal(t, vocab.StatusDead, m["status"])
	}
	return ids, p
}

func TestDeadLettersPages(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	ctx := t.Context()
	_, err := e.st.Enqueue(ctx, []int64{1, 2, 3, 4, 5, 6, 7, 8}, t0)
	require.NoError(t, err)
	dead := map[int64]string{1: "PROTOCOL", 3: "MALFORMED", 4: "PROTOCOL", 6: "EXHAUSTED", 7: "PROTOCOL"}
	for id, class := range dead {
		require.NoError(t, e.st.FinishMessages(ctx, []vocab.Finish{{MsgID: id, Status: vocab.StatusDead, ErrorClass: class, Reason: "r" + class, Now: t0}}))
	}
	require.NoError(t, e.st.FinishMessages(ctx, []vocab.Finish{{MsgID: 2, Status: vocab.StatusSucceeded, Now: t0}}))
	_, err = e.st.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 5, ErrorClass: "INFRA", Reason: "down", NextAttemptAt: t0, Now: t0})
	require.NoError(t, err)

	// Paged two at a time: every dead letter once, in MSG_ID order; FAILED is not dead.
	var all []int64
	cursor := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 10)
		ids, p := deadIDs(t, base, "limit=2&cursor="+cursor)
		all = append(all, ids...)
		if p.NextCursor == nil {
			require.Equal(t, 2, pages, "5 letters in pages of 2, 2, 1")
			break
		}
		cursor = *p.NextCursor
	}
	require.Equal(t, []int64{1, 3, 4, 6, 7}, all)

	ids, p := deadIDs(t, base, "class=PROTOCOL&limit=2")
	require.Equal(t, []int64{1, 4}, ids)
	require.Equal(t, "PROTOCOL", *p.Class)
	require.Equal(t, "4", *p.NextCursor)
	ids, p = deadIDs(t, base, "class=PROTOCOL&limit=2&cursor=4")
	require.Equal(t, []int64{7}, ids)
	require.Nil(t, p.NextCursor)
	ids, _ = deadIDs(t, base, "class=CODEC_ERROR")
	require.Empty(t, ids)

	// Each entry is what GET /messages/{id} answers.
	_, p = deadIDs(t, base, "class=EXHAUSTED")
	require.Len(t, p.DeadLetters, 1)
	require.Equal(t, message(t, base, 6), p.DeadLetters[0])
	require.Equal(t, "rEXHAUSTED", p.DeadLetters[0]["reason"])
}
