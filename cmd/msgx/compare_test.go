package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/compare"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const sampleDNLD = "../../testdata/sample-day/001-dnld.xml"

// dbOfSnapshot is a database holding the flights of a DNLD file.
func dbOfSnapshot(t *testing.T, mutate func(map[int64]*flight.State)) string {
	t.Helper()
	raw, err := os.ReadFile(sampleDNLD)
	require.NoError(t, err)
	snap, err := compare.FromSnapshot(raw, sis.DefaultOptions())
	require.NoError(t, err)
	if mutate != nil {
		mutate(snap.States)
	}
	pg := testdb.Postgres(t)
	var writes []vocab.FlightWrite
	for _, s := range snap.States {
		writes = append(writes, vocab.FlightWrite{State: s, New: true, Changes: flight.Replaced(1, flight.Groups, flight.PayloadKinds)})
	}
	require.NoError(t, pgstore.New(pg.Pool).WriteFlights(t.Context(), writes, time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)))
	return pg.URL
}

func TestCompareCommand(t *testing.T) {
	t.Parallel()
	a := dbOfSnapshot(t, nil)
	b := dbOfSnapshot(t, nil)
	c := dbOfSnapshot(t, func(m map[int64]*flight.State) {
		m[30001].Scalars["REMC"] = flight.Value{Raw: ""}
		delete(m, 30002)
	})

	// A password in a URL is never printed (trust authentication ignores it).
	withPassword := strings.Replace(a, "postgres@", "postgres:secret@", 1)
	require.NotEqual(t, a, withPassword)
	code, out, stderr := runMsgx(t, "compare", "--a", withPassword, "--b", b)
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "ignored: created_at, deleted_at, last_message_id, state_version, updated_at (bookkeeping: each site's own versions, message ids and write times; --strict compares them)\n")
	require.Contains(t, stderr, "flights 12: equal 12, differing 0, only in A 0, only in B 0; differences 0\n")
	require.NotContains(t, stderr, "secret")

	code, out, stderr = runMsgx(t, "compare", "--a", a, "--b", c, "--day", "2026-12-03")
	require.Equal(t, exitFailure, code, stderr)
	require.True(t, strings.HasPrefix(out,
		`flight=30001 group=FLIGHT field=REMC kind=null a=NULL b=""`+"\n"+
			`flight=30002 group=FLIGHT field=flight kind=only_in_a a="ACTIVE" b=NULL`+"\n"), out)
	require.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 2, out)
	require.Contains(t, stderr, "; operation day 2026-12-03\n")
	require.Contains(t, stderr, "flights 12: equal 10, differing 1, only in A 1, only in B 0; differences 2\n")

	code, out, stderr = runMsgx(t, "compare", "--a", a, "--b", c, "--json", "--strict", "--ignore", "updated_at,created_at")
	require.Equal(t, exitFailure, code, stderr)
	var rep compare.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.Equal(t, []string{"created_at", "updated_at"}, rep.Ignored)
	require.True(t, rep.Strict)
	require.Equal(t, 2, rep.Summary.Differences)
	require.Len(t, rep.Diffs, 2)
	require.Equal(t, compare.KindNull, rep.Diffs[0].Kind)
	require.Nil(t, rep.Diffs[0].A)
	require.Equal(t, "", *rep.Diffs[0].B)

	// Against the file itself: equal, and the summary says what was compared.
	code, _, stderr = runMsgx(t, "compare", "--a", a, "--dnld", sampleDNLD)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, "note: B is a DNLD/RESP file: per flight only the elements its record carries are compared")
	require.Contains(t, stderr, "operation days of the file: 2026-12-03\n")
	require.Contains(t, stderr, "flights 12: equal 12")
	code, _, _ = runMsgx(t, "compare", "--a", c, "--dnld", sampleDNLD)
	require.Equal(t, exitFailure, code)
}

func TestCompareUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"compare"},
		{"compare", "--a", "postgres://x/y"},
		{"compare", "--a", "postgres://x/y", "--b", "postgres://x/z", "--dnld", sampleDNLD},
		{"compare", "--a", "postgres://x/y", "--b", "postgres://x/z", "--day", "03DEC26"},
		{"compare", "--a", "postgres://x/y", "--b", "postgres://x/z", "--ignore", "GATE"},
		{"compare", "--a", "postgres://x/y", "--dnld", "../../testdata/sample-day/002-estt-ca1501.xml"},
		{"compare", "--a", "postgres://x/y", "--b", "postgres://x/z", "extra"},
		{"compare", "--a", "postgres://x/y", "--dnld", sampleDNLD, "--payloads"},
	} {
		code, _, stderr := runMsgx(t, args...)
		require.Equal(t, exitUsage, code, "%q: %s", args, stderr)
		require.NotEmpty(t, stderr)
	}
	code, _, stderr := runMsgx(t, "compare", "--a", "postgres://postgres@127.0.0.1:1/none?sslmode=disable", "--b", "postgres://x/z")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "PostgreSQL unreachable (check --a)")
}

// A and B the same database (A defaulted from the configuration, B the same
// URL written otherwise) is refused before either is read: it would always
// agree.
func TestCompareRefusesTheSameDatabase(t *testing.T) {
	t.Parallel()
	for _, ab := range [][2]string{
		{"postgres://postgres@127.0.0.1:1/msgx?sslmode=disable", "postgres://other:pw@127.0.0.1:1/msgx"},
		{"postgres://127.0.0.1:1/msgx", "host=127.0.0.1 port=1 dbname=msgx"},
	} {
		code, out, stderr := runMsgx(t, "compare", "--a", ab[0], "--b", ab[1])
		require.Equal(t, exitUsage, code, "%q", ab)
		require.Empty(t, out)
		require.Contains(t, stderr, "--a and --b name the same database")
		require.NotContains(t, stderr, "pw")
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	}
	cfg := writeConfig(t, "postgres:\n  url: postgres://127.0.0.1:1/msgx\n")
	code, _, stderr := runMsgx(t, "compare", "--config", cfg, "--b", "postgres://127.0.0.1:1/msgx?sslmode=disable")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "same database")
}

// Issue #21 item 7: two sites fed the same input at different times agree
// on every flight and on what they published; only --strict reports their
// own write times.
func TestCompareSitesFedAtDifferentTimes(t *testing.T) {
	t.Parallel()
	ea, eb := newOpsEnv(t), newOpsEnv(t)
	ha, hb := newHistory(ea), newHistory(eb)
	hb.clk.Advance(3 * time.Hour)
	for _, xml := range []string{schdDNLD(51, 52, 53), flopSTND(52, "207"),
		sisMessage("FDEL", "NONE", "<FLOP><FLID>53</FLID></FLOP>")} {
		ha.send(t, xml, false)
		hb.send(t, xml, false)
		ha.clk.Advance(time.Minute)
		hb.clk.Advance(2 * time.Minute)
	}

	code, out, stderr := runMsgx(t, "compare", "--a", ea.pgURL, "--b", eb.pgURL, "--payloads")
	require.Equal(t, exitOK, code, "%s%s", out, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "ignored: created_at, deleted_at, last_message_id, state_version, updated_at (bookkeeping")
	require.Contains(t, stderr, "note: each flight's latest KAFKA:msg event is compared too")
	require.Contains(t, stderr, "flights 3: equal 3, differing 0, only in A 0, only in B 0; differences 0\n")

	code, out, stderr = runMsgx(t, "compare", "--a", ea.pgURL, "--b", eb.pgURL, "--strict", "--payloads")
	require.Equal(t, exitFailure, code, stderr)
	require.Contains(t, stderr, "ignored: nothing (--strict)\n")
	require.Contains(t, out, "flight=51 group=FLIGHT field=created_at kind=value")
	require.Contains(t, out, "flight=52 group=FLIGHT field=updated_at kind=value")
	require.Contains(t, out, "flight=53 group=FLIGHT field=deleted_at kind=value")
	require.Contains(t, out, "flight=52 group=KAFKA:msg field=updated_at kind=value")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		require.Regexp(t, `field=(created_at|updated_at|deleted_at) `, line, "only write times differ")
	}

	// What B published differs from its state: found with --payloads only.
	pool, err := pgxpool.New(t.Context(), eb.pgURL)
	require.NoError(t, err)
	defer pool.Close()
	side, err := compare.Load(t.Context(), pool, compare.LoadOptions{Payloads: true})
	require.NoError(t, err)
	payload := strings.Replace(*side.Outbound[52].Payload, `"raw":"207"`, `"raw":"999"`, 1)
	require.Contains(t, payload, `"raw":"999"`)
	require.NoError(t, eb.st.InsertEvents(t.Context(), []vocab.NewEvent{{
		Target: vocab.TargetMsg, EventType: "UPSERT", MsgID: 2, FLID: 52, StateVersion: 9,
		IdempotencyKey: vocab.IdempotencyKey(2, 52, 9, vocab.TargetMsg), Payload: []byte(payload), CreatedAt: hb.clk.Now(),
	}}))
	code, _, stderr = runMsgx(t, "compare", "--a", ea.pgURL, "--b", eb.pgURL)
	require.Equal(t, exitOK, code, "the states agree: %s", stderr)
	code, out, _ = runMsgx(t, "compare", "--a", ea.pgURL, "--b", eb.pgURL, "--payloads")
	require.Equal(t, exitFailure, code)
	require.Equal(t, `flight=52 group=KAFKA:msg field=scalars.STND.raw kind=value a="\"207\"" b="\"999\""`+"\n", out)
}

// A comparison of no flight is no verdict: exit 2, and it says so.
func TestCompareNothingCompared(t *testing.T) {
	t.Parallel()
	empty := testdb.Postgres(t).URL
	code, _, stderr := runMsgx(t, "compare", "--a", empty, "--b", testdb.Postgres(t).URL)
	require.Equal(t, exitUsage, code, stderr)
	require.Contains(t, stderr, "flights 0: equal 0")
	require.Contains(t, stderr, "nothing was compared: neither side has a flight in scope, so no verdict\n")

	full, twin := dbOfSnapshot(t, nil), dbOfSnapshot(t, nil)
	code, _, stderr = runMsgx(t, "compare", "--a", full, "--b", twin, "--day", "2026-12-04")
	require.Equal(t, exitUsage, code, "an empty day: %s", stderr)
	require.Contains(t, stderr, "nothing was compared")
	code, out, stderr := runMsgx(t, "compare", "--a", full, "--b", twin, "--day", "2026-12-04", "--json")
	require.Equal(t, exitUsage, code)
	require.Contains(t, out, `"flights": 0`)
	require.Equal(t, "msgx compare: nothing was compared: neither side has a flight in operation day 2026-12-04\n", stderr)

	noRecords := filepath.Join(t.TempDir(), "dnld.xml")
	require.NoError(t, os.WriteFile(noRecords, []byte(schdDNLD()), 0o600))
	code, _, stderr = runMsgx(t, "compare", "--a", full, "--dnld", noRecords)
	require.Equal(t, exitUsage, code, "a DNLD without records: %s", stderr)
	require.Contains(t, stderr, "nothing was compared")
}
