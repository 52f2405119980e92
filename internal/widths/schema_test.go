package widths_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// msgxOwned are the VARCHAR columns no message value reaches: msgx writes
// them from its own vocabulary or values. A new VARCHAR column must go
// either here or into the widths table.
var msgxOwned = []widths.Column{
	{"proc_state", "status"}, {"proc_state", "kind"}, {"proc_state", "error_class"}, {"proc_state", "prev_error_class"},
	{"proc_state_hst", "status"}, {"proc_state_hst", "kind"}, {"proc_state_hst", "error_class"}, {"proc_state_hst", "prev_error_class"},
	{"ingress_mark", "source"}, {"ingress_gap", "source"},
	{"maintenance_run", "job"},                                           // a job's name
	{"pump_state", "paused_dependency"}, {"pump_state", "paused_reason"}, // the pump's own state
	{"backfill_todo", "mailbox_status"},
	{"flight_schd", "lifecycle"}, {"flight_hst", "lifecycle"},
	{"flight_schd", "stamps"},            // names and DTTMs msgx formats (flight.StampsMaxLen)
	{"flight_route_point", "route_kind"}, // ROUT or ERUT
	{"flight_payload", "kind"}, {"flight_payload", "format"},
	{"schd_gen", "content_digest"},
	{"schd_snap_log", "msg_subtype"}, // DNLD or RESP
	{"schd_snap_log", "outcome"},     // APPLIED or STALE
	{"msg_event", "target"}, {"msg_event", "partition_key"}, {"msg_event", "event_type"},
	{"schd_mark", "event_type"},
	{"msg_event", "idempotency_key"}, {"msg_event", "status"},
	{"msg_event_cursor", "target"},
	// Our own outbound requests; an inbound RQFD/RQRD is refused.
	{"req_track", "req_type"}, {"req_track", "req_key"}, {"req_track", "list_code"},
	{"req_track", "sender"}, {"req_track", "status"}, {"req_track", "note"}, {"req_track", "match_rule"}, {"req_track", "origin"},
}

// The widths table is the schema's: every column it names has that width,
// and every character column of the schema is either in it or msgx's own.
func TestWidthsMatchSchema(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	rows, err := pool.Query(t.Context(), `
		SELECT table_name, column_name, character_maximum_length
		FROM information_schema.columns
		WHERE table_schema = current_schema() AND data_type IN ('character varying', 'character')
		  -- tables only: a view's columns are its tables' (docs/reporting.md)
		  AND table_name IN (SELECT table_name FROM information_schema.tables
		                     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')`)
	require.NoError(t, err)
	schema := map[widths.Column]int{}
	for rows.Next() {
		var c widths.Column
		var n int
		require.NoError(t, rows.Scan(&c.Table, &c.Name, &n))
		schema[c] = n
	}
	require.NoError(t, rows.Err())
	require.NotEmpty(t, schema)

	owned := map[widths.Column]bool{}
	for _, c := range msgxOwned {
		_, ok := schema[c]
		require.True(t, ok, "%s is listed as msgx's own but is not in the schema", c)
		owned[c] = true
	}
	for _, c := range widths.Columns() {
		n, ok := schema[c]
		require.True(t, ok, "the widths table names %s, which the schema does not have", c)
		w, _ := widths.Width(c)
		require.Equal(t, n, w, "width of %s", c)
		require.False(t, owned[c], "%s is both limited and msgx's own", c)
	}
	for c := range schema {
		_, limited := widths.Width(c)
		require.True(t, limited || owned[c], "%s is in the schema but neither in the widths table nor msgx's own", c)
	}
}
