package pump

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// The same input gives the same database whatever the run length: batching
// is an optimisation, never a difference in what is stored (a detail row's
// RECORD_VERSION is the state version that wrote it, not the last version of
// its batch).
func TestRunLengthDoesNotChangeWhatIsStored(t *testing.T) {
	t.Parallel()
	dnld := schd("DNLD", fltr(1, gates("A1", "A2"), `<CKDT CKNO="1"><CHKC>101</CHKC></CKDT>`), fltr(2, gates("B1")))
	msgs := []string{
		flop("CKDT", 1, `<CKDT CKNO="1"><CHKC>111</CHKC></CKDT><CKDT CKNO="2"><CHKC>112</CHKC></CKDT>`),
		flop("STND", 1, "<STND>201</STND>"),
		flop("GTDT", 2, gates("B7", "B8")),
		flop("SRVT", 2, "<SRVT><SRTC>WCH</SRTC></SRVT>"),
		flop("STND", 2, "<STND>202</STND>"),
		flop("GTDT", 1, gates("A9")),
		flop("STND", 1, "<STND>203</STND>"),
		// One flight twice in a message: one change (rule 8), in a batch or not.
		envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>14</STND></FLOP><FLOP><FLID>1</FLID><STND>15</STND></FLOP>"),
		schd("UPD", fltr(1, gates("A3")), fltr(1, "<STND>16</STND>")),
		envelope("FDEL", "NONE", "<FDEL><FLID>2</FLID></FDEL>"),
		schd("UPD", fltr(2, gates("B2"))),
	}
	dump := func(runLength int) map[string]string {
		e := newEnv(t, func(c *Config) { c.RunLength = runLength })
		e.Send(t, dnld)
		e.StepUntilWait(t)
		for _, m := range msgs {
			e.Send(t, m)
		}
		e.StepUntilWait(t)
		return dumpTables(t, e)
	}
	whole, single := dump(1000), dump(1)
	require.Equal(t, whole, single)
	require.Contains(t, whole["flight_checkin"], `"record_version": 2`, "the CKDT FLOP wrote version 2 of flight 1; later changes left the check-in rows alone")
}

// dumpTables returns every table of msgx's schema as JSON rows in a stable
// order. Every time msgx writes comes from the injected clock, so two runs
// of the same input compare column for column.
func dumpTables(t *testing.T, e *env) map[string]string {
	t.Helper()
	e.needPostgres(t)
	ctx := t.Context()
	// Times as UTC text whatever the server's TimeZone, so a golden dump
	// compares on any machine.
	tx, err := e.PG.Pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }() // read only
	_, err = tx.Exec(ctx, "SET LOCAL TimeZone = 'UTC'")
	require.NoError(t, err)
	rows, err := tx.Query(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`)
	require.NoError(t, err)
	var tables []string
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		tables = append(tables, name)
	}
	require.NoError(t, rows.Err())
	require.NotEmpty(t, tables)
	out := map[string]string{}
	for _, table := range tables {
		var rows []json.RawMessage
		err := tx.QueryRow(ctx, `SELECT coalesce(jsonb_agg(r ORDER BY r::text), '[]') FROM (
			SELECT to_jsonb(t) AS r FROM `+table+` t) x`).Scan(&rows)
		require.NoError(t, err, table)
		b, err := json.MarshalIndent(rows, "", " ")
		require.NoError(t, err)
		out[table] = string(b)
	}
	return out
}
