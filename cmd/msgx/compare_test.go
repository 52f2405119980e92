package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/compare"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
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
	var writes []store.FlightWrite
	for _, s := range snap.States {
		writes = append(writes, store.FlightWrite{State: s, New: true, Changes: flight.Replaced(1, flight.Groups, flight.PayloadKinds)})
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
	require.Contains(t, stderr, "ignored: nothing\n")
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

	code, out, stderr = runMsgx(t, "compare", "--a", a, "--b", c, "--json", "--ignore", "updated_at,created_at")
	require.Equal(t, exitFailure, code, stderr)
	var rep compare.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	require.Equal(t, []string{"created_at", "updated_at"}, rep.Ignored)
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
	} {
		code, _, stderr := runMsgx(t, args...)
		require.Equal(t, exitUsage, code, "%q: %s", args, stderr)
		require.NotEmpty(t, stderr)
	}
	code, _, stderr := runMsgx(t, "compare", "--a", "postgres://postgres@127.0.0.1:1/none?sslmode=disable", "--b", "postgres://x/z")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "PostgreSQL unreachable (check --a)")
}
