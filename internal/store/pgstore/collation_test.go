package pgstore_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
)

// The identifier columns are COLLATE "C" (docs/dev/performance-notes.md) while the
// queries compare them with values of the default collation: parameters and
// the twin's key built by concatenation. A comparison in another collation
// than the index's could not use it; "C" wins over the default, so each
// shape the queries use is still served by its index.
func TestCollateCKeysStayIndexed(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	conn, err := pool.Acquire(t.Context())
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(t.Context(), "SET enable_seqscan = off")
	require.NoError(t, err)
	for _, c := range []struct {
		name, stmt string
		args       []any
		index      string
	}{
		{"twin join (EventListSchdLatest, EventListDead, EventPurgeDelivered)",
			`SELECT t.payload FROM msg_event e LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
			   AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
			 WHERE e.event_id = $1`, []any{int64(1)}, "msg_event_idempotency_uq"},
		{"identity lookup (ProcStateFindIdentities)",
			`SELECT msg_id FROM proc_state WHERE identity_key = ANY($1::varchar[]) AND duplicate_of IS NULL`,
			[]any{[]string{"A|FLOP|U|1"}}, "proc_state_identity_uq"},
		{"archived identity lookup",
			`SELECT msg_id FROM proc_state_hst WHERE identity_key = ANY($1::varchar[]) AND duplicate_of IS NULL`,
			[]any{[]string{"A|FLOP|U|1"}}, "proc_state_hst_identity_uq"},
		{"superseded rows of a flight (EventMarkSupersededSent/Dead)",
			`SELECT event_id FROM msg_event WHERE target = $1 AND partition_key = ANY($2::text[]) AND status = 'PENDING'`,
			[]any{"KAFKA:schd", []string{"1001"}}, "msg_event_pending_key_ix"},
	} {
		rows, err := conn.Query(t.Context(), "EXPLAIN "+c.stmt, c.args...)
		require.NoError(t, err, c.name)
		var plan []string
		for rows.Next() {
			var line string
			require.NoError(t, rows.Scan(&line), c.name)
			plan = append(plan, line)
		}
		require.NoError(t, rows.Err(), c.name)
		require.Contains(t, strings.Join(plan, "\n"), "Index Cond", c.name)
		require.Contains(t, strings.Join(plan, "\n"), c.index, c.name)
	}
}
