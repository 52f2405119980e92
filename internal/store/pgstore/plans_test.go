package pgstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Issue #35: a DNLD on a new day ran its snapshot statements on statistics
// that knew none of the day's rows (too few for autovacuum to re-analyze),
// and the planner joined the day's members with the day's flights by
// comparing every pair: seconds per snapshot. Here the statistics are as
// stale (analyzed before the new day, autovacuum off) and each statement's
// plan, run, may compare each row with a few others only (Rows Removed by
// Join Filter bounded by the day's size, not its square).
func TestNewDayStatementsStayLinearOnStaleStatistics(t *testing.T) {
	t.Parallel()
	const perDay = 400
	ctx := t.Context()
	conn := planConn(t)
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := conn.Exec(ctx, sql, args...)
		require.NoError(t, err, sql)
	}
	exec("ALTER TABLE flight_schd SET (autovacuum_enabled = false)")
	exec("ALTER TABLE schd_gen_flid SET (autovacuum_enabled = false)")
	// 14 old days, analyzed; then the new day's flights and members.
	seed := `INSERT INTO flight_schd (flid, operation_day, last_message_id)
		SELECT i, DATE '2026-11-17' + i % 14, 1 FROM generate_series(1, $1::int) i`
	exec(seed, 14*150)
	exec("INSERT INTO schd_gen_flid (fday, flid) SELECT operation_day, flid FROM flight_schd")
	exec("ANALYZE flight_schd, schd_gen_flid")
	exec(`INSERT INTO flight_schd (flid, operation_day, last_message_id)
		SELECT 100000 + i, DATE '2026-12-02', 1 FROM generate_series(1, $1::int) i`, perDay)
	exec("INSERT INTO schd_gen_flid (fday, flid) SELECT DATE '2026-12-02', 100000 + i FROM generate_series(1, $1::int) i", perDay)

	resent := make([]int64, perDay) // the resend: one member dropped, one new flight
	for i := range resent {
		resent[i] = int64(100002 + i)
	}
	day := "2026-12-02"
	for _, c := range []struct {
		file, name string
		args       map[string]any
	}{
		{"flight.sql", "FlightListPruneCandidates", map[string]any{"fday": day, "keep_flids": resent}},
		{"snapshot.sql", "SchdGenFlidReplace", map[string]any{"fday": day, "flids": resent}},
	} {
		t.Run(c.name, func(t *testing.T) {
			query, args := namedQuery(t, c.file, c.name, c.args)
			removed := joinFilterRemoved(t, conn, query, args...)
			require.LessOrEqual(t, removed, 4*perDay, "rows compared and dropped by a join filter: the day's members each compared with the day's flights")
		})
	}
}

// namedQuery is the query "-- name: NAME" of sql/postgres/queries/FILE with
// its sqlc parameters (sqlc.arg(x), sqlc.narg(x), @x) numbered in order of
// first use, and the values of named in that order.
func namedQuery(t *testing.T, file, name string, named map[string]any) (string, []any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "sql", "postgres", "queries", file))
	require.NoError(t, err)
	text := string(data)
	at := strings.Index(text, "-- name: "+name+" ")
	require.GreaterOrEqual(t, at, 0, name)
	text = text[at:]
	if end := strings.Index(text[1:], "-- name: "); end >= 0 {
		text = text[:end+1]
	}
	var lines []string // without the comments, which may name parameters too
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			lines = append(lines, l)
		}
	}
	text = strings.Join(lines, "\n")
	nums := map[string]int{}
	param := regexp.MustCompile(`sqlc\.n?arg\((\w+)\)|@(\w+)`)
	var args []any
	query := param.ReplaceAllStringFunc(text, func(m string) string {
		sub := param.FindStringSubmatch(m)
		p := sub[1] + sub[2]
		if _, ok := nums[p]; !ok {
			v, ok := named[p]
			require.True(t, ok, "no value for parameter %s of %s", p, name)
			nums[p] = len(nums) + 1
			args = append(args, v)
		}
		return fmt.Sprintf("$%d", nums[p])
	})
	return query, args
}

// joinFilterRemoved runs query under EXPLAIN ANALYZE in a transaction it
// rolls back and returns the rows its join filters removed, summed over the
// plan.
func joinFilterRemoved(t *testing.T, conn *pgx.Conn, query string, args ...any) int {
	t.Helper()
	removed := 0
	for _, n := range planNodes(t, conn, nil, "EXPLAIN (ANALYZE, FORMAT JSON) "+query, args...) {
		v, _ := n["Rows Removed by Join Filter"].(float64)
		removed += int(v)
	}
	t.Logf("%d rows removed by join filters", removed)
	return removed
}

// Issue #35: the pump's reads of a run's flight details (GateListByFlights,
// ...) ran as sequential scans of their whole tables, 20 000 live flights
// over a site's fortnight, for a run touching a few hundred: each must probe
// the primary key once per flight whatever the statistics say.
func TestRunReadsOnlyTheFlightsAsked(t *testing.T) {
	t.Parallel()
	const asked = 200
	conn := planConn(t)
	live := fortnightOfGates(t, conn)
	flids := make([]int64, asked)
	for i := range flids {
		flids[i] = int64(live - 14*i) // one day's flights, spread over the table
	}
	for _, c := range []struct{ file, name, table string }{
		{"flight_detail.sql", "GateListByFlights", "flight_gate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			query, args := namedQuery(t, c.file, c.name, map[string]any{"flids": flids, "span_first": 1, "span_last": 0})
			read := rowsRead(t, conn, c.table, query, args...)
			require.LessOrEqual(t, read, 2*asked, "rows of %s read for %d flights of %d", c.table, asked, live)
		})
	}
}

// Issue #34: a resend of a day downloaded at once read its flights' detail
// rows back by one descent of the index per flight and table. 2 000 flights
// numbered in a row, as the AODB schedules a day, are one span, read as one
// range: their rows alone, the table scanned once, in far fewer blocks than
// a probe per flight.
func TestDaySpanReadsOneRange(t *testing.T) {
	t.Parallel()
	const day = 2000
	conn := planConn(t)
	fortnightOfGates(t, conn)
	first, last := int64(8000), int64(8000+day-1)
	probes := make([]int64, day)
	for i := range probes {
		probes[i] = first + int64(i)
	}
	read := func(named map[string]any) (rows, loops, blocks int) {
		query, args := namedQuery(t, "flight_detail.sql", "GateListByFlights", named)
		num := func(n map[string]any, k string) int { v, _ := n[k].(float64); return int(v) }
		for _, n := range planNodes(t, conn, nil, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+query, args...) {
			if n["Relation Name"] == "flight_gate" {
				rows += num(n, "Actual Rows") * num(n, "Actual Loops")
				loops += num(n, "Actual Loops")
				blocks += num(n, "Shared Hit Blocks") + num(n, "Shared Read Blocks")
			}
		}
		return rows, loops, blocks
	}
	spanRows, spanLoops, spanBlocks := read(map[string]any{"flids": []int64{}, "span_first": first, "span_last": last})
	probeRows, _, probeBlocks := read(map[string]any{"flids": probes, "span_first": 1, "span_last": 0})
	t.Logf("span: %d rows, %d scans, %d blocks; probes: %d rows, %d blocks", spanRows, spanLoops, spanBlocks, probeRows, probeBlocks)
	require.Equal(t, 2*day, spanRows, "the span's rows")
	require.Equal(t, probeRows, spanRows, "the same rows as probing each flight")
	require.Equal(t, 1, spanLoops, "one scan of the table")
	require.Less(t, 4*spanBlocks, probeBlocks, "blocks: a quarter of probing each flight, or less")
}

// fortnightOfGates fills flight_schd with a site's fortnight of live
// flights (1 to the count it returns, the days interleaved) and flight_gate
// with two gates each, analyzed.
func fortnightOfGates(t *testing.T, conn *pgx.Conn) (live int) {
	t.Helper()
	mustExec(t, conn,
		`INSERT INTO flight_schd (flid, operation_day, last_message_id)
		 SELECT i, DATE '2026-11-20' + i % 14, 1 FROM generate_series(1, 20000) i`,
		`INSERT INTO flight_gate (flid, ordinal, record_version)
		 SELECT f, o, 1 FROM generate_series(1, 20000) f, generate_series(1, 2) o`,
		"ANALYZE flight_schd, flight_gate",
	)
	return 20000
}

// rowsRead runs query under EXPLAIN ANALYZE (rolled back) and returns the
// rows its scans of table read: returned plus removed by a filter, over all
// loops.
func rowsRead(t *testing.T, conn *pgx.Conn, table, query string, args ...any) int {
	t.Helper()
	num := func(n map[string]any, k string) float64 { v, _ := n[k].(float64); return v }
	total := 0
	for _, n := range planNodes(t, conn, nil, "EXPLAIN (ANALYZE, FORMAT JSON) "+query, args...) {
		if n["Relation Name"] == table {
			// EXPLAIN gives both per loop.
			read := int((num(n, "Actual Rows") + num(n, "Rows Removed by Filter")) * num(n, "Actual Loops"))
			t.Logf("%s on %s: %d rows read", n["Node Type"], table, read)
			total += read
		}
	}
	return total
}

// Issue #34: a snapshot's prune read probed every member's flight, and on a
// flight table never analyzed (a new install, the first days) each probe on
// flid alone went through the day index (operation_day, flid) whole: blocks
// quadratic in the day's flights, seconds for a resend of 10 000. The
// statement reads the day's members and the flights of the difference only:
// for a resend lacking two members, blocks linear in the day's size and far
// below one per member.
func TestPruneReadsOnlyTheDifference(t *testing.T) {
	t.Parallel()
	const perDay = 2000
	conn := planConn(t)
	mustExec(t, conn,
		"ALTER TABLE flight_schd SET (autovacuum_enabled = false)",
		"ALTER TABLE schd_gen_flid SET (autovacuum_enabled = false)",
		`INSERT INTO flight_schd (flid, operation_day, last_message_id)
		 SELECT i, DATE '2026-12-02', 1 FROM generate_series(1, 2000) i`,
		"INSERT INTO schd_gen_flid (fday, flid) SELECT operation_day, flid FROM flight_schd",
	)
	keep := make([]int64, perDay-2)
	for i := range keep {
		keep[i] = int64(i + 3)
	}
	query, args := namedQuery(t, "flight.sql", "FlightListPruneCandidates", map[string]any{"fday": "2026-12-02", "keep_flids": keep})
	require.LessOrEqual(t, blocksRead(t, conn, query, args...), perDay/10, "blocks read to find 2 candidates among %d members", perDay)
}

// blocksRead runs query under EXPLAIN (ANALYZE, BUFFERS) (rolled back) and
// returns the shared blocks its plan hit or read.
func blocksRead(t *testing.T, conn *pgx.Conn, query string, args ...any) int {
	t.Helper()
	root := planNodes(t, conn, nil, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "+query, args...)[0] // counts its children's
	hit, _ := root["Shared Hit Blocks"].(float64)
	read, _ := root["Shared Read Blocks"].(float64)
	t.Logf("%d blocks hit, %d read", int(hit), int(read))
	return int(hit + read)
}

// Issue #35: counting the messages by status for `msgx status` and every
// /metrics scrape read all of PROC_STATE, the archive.after week of finished
// messages (190 000 rows on site). The counts of the backlog and the dead
// letters must read those rows only, however many finished rows the week
// holds, with statistics that know them.
func TestStatusCountsReadOnlyTheBacklogAndTheDead(t *testing.T) {
	t.Parallel()
	const finished, pending, failed, dead = 20000, 30, 5, 20
	ctx := t.Context()
	conn := planConn(t)
	for _, c := range []struct {
		sql string
		n   int
	}{
		{`INSERT INTO proc_state (msg_id, status, first_seen_at, finished_at, reason)
		  SELECT i, CASE WHEN i % 100 = 7 THEN 'SKIPPED' ELSE 'SUCCEEDED' END, now(), now(),
		    CASE WHEN i % 100 = 7 THEN 'ignored:ABCD' END
		  FROM generate_series(1, $1::int) i`, finished},
		{`INSERT INTO proc_state (msg_id, status, first_seen_at, finished_at, error_class)
		  SELECT 1000000 + i, 'DEAD', now(), now(), CASE WHEN i % 2 = 0 THEN 'MALFORMED' ELSE 'EXHAUSTED' END
		  FROM generate_series(1, $1::int) i`, dead},
		{`INSERT INTO proc_state (msg_id, status, first_seen_at, attempts, error_class)
		  SELECT 2000000 + i, 'FAILED', now(), 1, 'INFRA' FROM generate_series(1, $1::int) i`, failed},
		{`INSERT INTO proc_state (msg_id, status, first_seen_at)
		  SELECT 3000000 + i, 'PENDING', now() FROM generate_series(1, $1::int) i`, pending},
	} {
		_, err := conn.Exec(ctx, c.sql, c.n)
		require.NoError(t, err, c.sql)
	}
	_, err := conn.Exec(ctx, "VACUUM ANALYZE proc_state")
	require.NoError(t, err)
	query, args := namedQuery(t, "proc_state.sql", "ProcStateCountBacklogAndDead", nil)
	read := rowsRead(t, conn, "proc_state", query, args...)
	require.LessOrEqual(t, read, pending+failed+dead, "rows of proc_state read to count a backlog of %d and %d dead letters among %d finished messages",
		pending+failed, dead, finished)
}

// Issue #35: the identity conflicts of the last 24 h (msgx status, /metrics)
// read every row the hourly archive moved in those 24 h (27 000 on site) to
// find the archived duplicates finished in them, which are none unless
// archive.after is under a day. They must read those duplicates only.
func TestIdentityConflictsReadOnlyTheDaysDuplicates(t *testing.T) {
	t.Parallel()
	const archived = 20000 // a day's archive: finished a week ago, moved today
	ctx := t.Context()
	conn := planConn(t)
	_, err := conn.Exec(ctx, `INSERT INTO proc_state_hst (msg_id, status, attempts, first_seen_at, reason, duplicate_of,
		  replay_count, finished_at, created_at, archived_at)
		SELECT i, CASE WHEN i % 100 = 7 THEN 'SKIPPED' ELSE 'SUCCEEDED' END, 0, t,
		  CASE WHEN i % 100 = 7 THEN 'duplicate-of:' || (i - 1) || ':content-differs' END,
		  CASE WHEN i % 100 = 7 THEN i - 1 END, 0, t, t, t + interval '7 days'
		FROM generate_series(1, $1::int) i,
		  LATERAL (SELECT now() - interval '7 days 23 hours' + i * interval '86000 seconds' / $1::int AS t) x`, archived)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "VACUUM ANALYZE proc_state_hst")
	require.NoError(t, err)
	since := time.Now().Add(-24 * time.Hour)
	for _, name := range []string{"IdentityConflictCountSince", "IdentityConflictsSince"} {
		t.Run(name, func(t *testing.T) {
			query, args := namedQuery(t, "pipeline.sql", name, map[string]any{"since": since, "max_rows": 5})
			read := rowsRead(t, conn, "proc_state_hst", query, args...)
			require.LessOrEqual(t, read, 10, "archived rows read to find the duplicates finished in the last 24 h, among %d archived in them", archived)
		})
	}
}

// Issue #35: with a year in the archive, the identity lookup (a UNION ALL
// of the live and the archived holders) became a Parallel Append under a
// Gather, and starting the workers cost more than the lookup (74 ms per
// run of 1 000 keys under load against 2-7 ms): a table's parallel_workers
// = 0 does not stop an Append of two tables from running in parallel. Here
// every parallel plan looks free to the planner, as a big enough archive
// makes it, and the lookup must still probe the unique indexes in the
// session's own process.
func TestIdentityLookupNeverRunsParallel(t *testing.T) {
	t.Parallel()
	conn := planConn(t)
	mustExec(t, conn,
		`INSERT INTO proc_state_hst (msg_id, status, identity_key, attempts, first_seen_at, replay_count, created_at)
		 SELECT i, 'SUCCEEDED', 'AODB|FLOP|STND|' || i, 0, now(), 0, now() FROM generate_series(1, 20000) i`,
		`INSERT INTO proc_state (msg_id, status, identity_key, first_seen_at)
		 SELECT i, 'SUCCEEDED', 'AODB|FLOP|STND|' || i, now() FROM generate_series(20001, 22000) i`,
		"ANALYZE proc_state, proc_state_hst",
	)
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("AODB|FLOP|STND|%d", 21500+i) // live, then new
	}
	query, args := namedQuery(t, "proc_state.sql", "ProcStateFindIdentities", map[string]any{"identity_keys": keys})
	nodes := planNodes(t, conn, []string{
		"SET LOCAL parallel_setup_cost = 0", "SET LOCAL parallel_tuple_cost = 0",
		"SET LOCAL min_parallel_index_scan_size = 0", "SET LOCAL min_parallel_table_scan_size = 0",
	}, query, args...)
	for _, n := range nodes {
		require.NotContains(t, []string{"Gather", "Gather Merge"}, n["Node Type"], "a parallel plan")
		require.NotEqual(t, true, n["Parallel Aware"], "%s runs in parallel", n["Node Type"])
		if rel, ok := n["Relation Name"].(string); ok {
			require.Contains(t, []string{"Index Scan", "Index Only Scan"}, n["Node Type"], "%s read without its unique index", rel)
		}
	}
}

// Issue #35: the enqueue looked every new id up in the archive's primary
// key, though the poll's new ids are above every archived one (a B-tree
// descent per id into a year of messages). Only the archive's largest id
// may be read then.
func TestEnqueueReadsTheArchiveOnlyBelowItsLargestID(t *testing.T) {
	t.Parallel()
	conn := planConn(t)
	mustExec(t, conn,
		`INSERT INTO proc_state_hst (msg_id, status, attempts, first_seen_at, replay_count, created_at)
		 SELECT i, 'SUCCEEDED', 0, now(), 0, now() FROM generate_series(1, 20000) i`,
		"ANALYZE proc_state_hst",
	)
	for _, c := range []struct {
		ids      []int64
		archived int // reads of proc_state_hst: its maximum, then one per id at or below it
	}{
		{[]int64{20001, 20002, 20003, 20500}, 1},
		{[]int64{19999, 20000, 20001}, 3},
	} {
		for _, name := range []string{"ProcStateEnqueue", "ProcStateEnqueueCheck"} {
			t.Run(fmt.Sprint(name, c.ids), func(t *testing.T) {
				query, args := namedQuery(t, "proc_state.sql", name, map[string]any{"msg_ids": c.ids, "now": time.Now()})
				loops := 0
				for _, n := range planNodes(t, conn, nil, "EXPLAIN (ANALYZE, FORMAT JSON) "+query, args...) {
					if n["Relation Name"] == "proc_state_hst" {
						l, _ := n["Actual Loops"].(float64)
						loops += int(l)
					}
				}
				require.Equal(t, c.archived, loops, "reads of the archive")
			})
		}
	}
}

// planNodes runs the setup statements and EXPLAIN (FORMAT JSON) of query
// (or query itself when it is an EXPLAIN) in a transaction it rolls back,
// and returns every node of the plan, the root first.
func planNodes(t *testing.T, conn *pgx.Conn, setup []string, query string, args ...any) []map[string]any {
	t.Helper()
	ctx := context.WithoutCancel(t.Context())
	tx, err := conn.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	for _, s := range setup {
		_, err := tx.Exec(ctx, s)
		require.NoError(t, err, s)
	}
	if !strings.HasPrefix(query, "EXPLAIN") {
		query = "EXPLAIN (FORMAT JSON) " + query
	}
	var out []byte
	require.NoError(t, tx.QueryRow(ctx, query, args...).Scan(&out))
	var plans []struct{ Plan map[string]any }
	require.NoError(t, json.Unmarshal(out, &plans))
	var nodes []map[string]any
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		nodes = append(nodes, n)
		if subs, ok := n["Plans"].([]any); ok {
			for _, s := range subs {
				walk(s.(map[string]any))
			}
		}
	}
	walk(plans[0].Plan)
	return nodes
}

// Issue #35: the backfill's list of due todos joined PROC_STATE, and with
// the plan made at a drain's start, while PROC_STATE was small (pgx prepares
// each statement once per connection; nothing invalidates the plan as the
// table grows, without autovacuum nothing ever does), the join compared
// every due todo with every message. Each todo listed must read its own
// message only, whatever PROC_STATE held when the plan was made.
func TestDueBackfillsReadOnlyTheirMessages(t *testing.T) {
	t.Parallel()
	const messages, todos = 20000, 300
	ctx := t.Context()
	conn := planConn(t)
	query, _ := namedQuery(t, "pipeline.sql", "BackfillTodoListDue", map[string]any{"now": nil, "max_rows": nil})
	mustExec(t, conn,
		"ALTER TABLE proc_state SET (autovacuum_enabled = false)",
		"ALTER TABLE backfill_todo SET (autovacuum_enabled = false)",
		`INSERT INTO proc_state (msg_id, status, first_seen_at) SELECT i, 'SUCCEEDED', now() FROM generate_series(1, 2) i`,
		// The drain's start: the plan is made once and kept.
		"SET plan_cache_mode = force_generic_plan",
		"PREPARE due(timestamptz, int) AS "+query,
		"EXECUTE due(now(), 1000)",
		`INSERT INTO proc_state (msg_id, status, first_seen_at) SELECT i, 'SUCCEEDED', now() FROM generate_series(3, 20000) i`,
		`INSERT INTO backfill_todo (msg_id, mailbox_status, processed_at, next_attempt_at, created_at)
		 SELECT i, 'SUCCEEDED', now(), now(), now() FROM generate_series(20000 - 299, 20000) i`,
	)
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), "DEALLOCATE due; RESET plan_cache_mode") }()
	read := rowsRead(t, conn, "proc_state", "EXECUTE due(now(), 1000)")
	require.LessOrEqual(t, read, todos, "rows of proc_state read for %d todos among %d messages", todos, messages)
}

// Issue #34: every enqueued row also probed PROC_STATE's primary key for its
// id (NOT EXISTS) before the insert's ON CONFLICT probed it again, and the
// check before the enqueue probed it for every id of the poll, though those
// are above every queued one: a B-tree descent per message each. The
// enqueue may read the live queue only for the largest finished id above
// the smallest new one (rule 17; a rescan's ids already queued are skipped
// by the insert's arbiter alone), the check for the largest id and then
// once per id at or below it.
func TestEnqueueReadsTheQueueOnlyBelowItsLargestID(t *testing.T) {
	t.Parallel()
	conn := planConn(t)
	mustExec(t, conn,
		`INSERT INTO proc_state (msg_id, status, first_seen_at)
		 SELECT i, CASE WHEN i % 2 = 0 THEN 'SUCCEEDED' ELSE 'PENDING' END, now() FROM generate_series(1, 20000) i`,
		"ANALYZE proc_state",
	)
	for _, c := range []struct {
		name  string
		ids   []int64
		reads int
	}{
		{"ProcStateEnqueue", []int64{20001, 20002, 20003, 20500}, 1},
		{"ProcStateEnqueue", []int64{15000, 19999, 20000, 20001, 25000}, 1},
		{"ProcStateEnqueueCheck", []int64{20001, 20002, 20003, 20500}, 1},
		{"ProcStateEnqueueCheck", []int64{19999, 20000, 20001}, 3},
	} {
		t.Run(fmt.Sprint(c.name, c.ids), func(t *testing.T) {
			query, args := namedQuery(t, "proc_state.sql", c.name, map[string]any{"msg_ids": c.ids, "now": time.Now()})
			loops := 0
			for _, n := range planNodes(t, conn, nil, "EXPLAIN (ANALYZE, FORMAT JSON) "+query, args...) {
				if n["Relation Name"] == "proc_state" && n["Node Type"] != "ModifyTable" {
					l, _ := n["Actual Loops"].(float64)
					loops += int(l)
				}
			}
			require.Equal(t, c.reads, loops, "reads of proc_state")
		})
	}
}

// Issue #34: a PENDING row has no identity yet (NULL until decoded), and
// proc_state_identity_uq took an entry for it on enqueue that the finish
// replaced at once: an index insert per message for nothing, and a dead
// entry for vacuum. Enqueued rows must leave the index empty; bound keys
// are still unique and looked up through it (TestIdentityLookupNeverRunsParallel,
// TestCollateCKeysStayIndexed).
func TestEnqueueAddsNoIdentityEntries(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	ctx := t.Context()
	ids := make([]int64, 5000)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	query, args := namedQuery(t, "proc_state.sql", "ProcStateEnqueue", map[string]any{"msg_ids": ids, "now": time.Now()})
	_, err := pool.Exec(ctx, query, args...)
	require.NoError(t, err)
	var pages int
	require.NoError(t, pool.QueryRow(ctx,
		"SELECT pg_relation_size('proc_state_identity_uq') / current_setting('block_size')::int").Scan(&pages))
	require.LessOrEqual(t, pages, 1, "pages of proc_state_identity_uq after enqueueing %d messages (the metapage alone)", len(ids))
	_, err = pool.Exec(ctx, "UPDATE proc_state SET identity_key = 'A|FLOP|U|' || msg_id WHERE msg_id <= 2")
	require.NoError(t, err)
	_, err = pool.Exec(ctx, "UPDATE proc_state SET identity_key = 'A|FLOP|U|1' WHERE msg_id = 3")
	require.Error(t, err, "a second holder of a bound identity")
}

// Issue #34: a resend reads every flight's detail rows back, and each
// *ListByFlights statement hashed its list (DISTINCT), sorted the rows and
// returned three columns no state holds: a third of its time. Each now
// probes the flights in the list's order and returns what it probes, in
// whatever order (pgstore orders the rows itself, details_test.go).
func TestDetailReadsNeitherHashNorSort(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	conn := planConn(t)
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "sql", "postgres", "queries", "flight_detail.sql"))
	require.NoError(t, err)
	names := regexp.MustCompile(`-- name: (\w+ListByFlights) `).FindAllStringSubmatch(string(data), -1)
	require.Len(t, names, 10, "a *ListByFlights per detail table and the payloads")
	for _, n := range names {
		t.Run(n[1], func(t *testing.T) {
			query, args := namedQuery(t, "flight_detail.sql", n[1], map[string]any{"flids": []int64{3, 1, 2}, "span_first": 5, "span_last": 9})
			for _, node := range planNodes(t, conn, nil, query, args...) {
				require.NotContains(t, []string{"Sort", "Incremental Sort", "Aggregate", "Unique", "Hash"}, node["Node Type"], "%s", query)
			}
			rows, err := conn.Query(ctx, query, args...)
			require.NoError(t, err)
			rows.Close()
			for _, f := range rows.FieldDescriptions() {
				require.NotContains(t, []string{"record_version", "created_at", "updated_at"}, f.Name)
			}
		})
	}
}

// planConn is a connection to a new test database of its own, for the
// plan tests' setup statements and EXPLAINs (session settings stay on it).
func planConn(t *testing.T) *pgx.Conn {
	t.Helper()
	c, err := testdb.Postgres(t).Pool.Acquire(t.Context())
	require.NoError(t, err)
	t.Cleanup(c.Release)
	return c.Conn()
}

// mustExec runs setup statements in order, failing the test on the first
// error.
func mustExec(t *testing.T, conn *pgx.Conn, stmts ...string) {
	t.Helper()
	for _, sql := range stmts {
		_, err := conn.Exec(t.Context(), sql)
		require.NoError(t, err, sql)
	}
}

// Issue #34: the mark of a change was upserted with its twin's EVENT_ID,
// looked up by the twin's text key at every change of a flight (half the
// statement's blocks); the relay reads the twin once per delivered flight
// instead. The upsert reads no msg_event row.
func TestSchdMarkUpsertReadsNoEvent(t *testing.T) {
	t.Parallel()
	conn := planConn(t)
	_, err := conn.Exec(t.Context(), `INSERT INTO msg_event (target, partition_key, event_type, cminmsgs_id, flid, state_version,
		idempotency_key, payload, created_at)
		SELECT 'KAFKA:msg', i::text, 'UPSERT', 7, i, 1, '7:' || i || ':1:KAFKA:msg', '{}', now() FROM generate_series(1, 100) i`)
	require.NoError(t, err)
	flids, msgs, versions, types, ats := []int64{}, []int64{}, []int64{}, []string{}, []time.Time{}
	for i := int64(1); i <= 100; i++ {
		flids, msgs, versions, types, ats = append(flids, i), append(msgs, 7), append(versions, 1), append(types, "UPSERT"), append(ats, time.Now())
	}
	query, args := namedQuery(t, "outbox.sql", "SchdMarkUpsert", map[string]any{
		"flids": flids, "cminmsgs_ids": msgs, "state_versions": versions, "event_types": types, "created_ats": ats})
	require.Zero(t, rowsRead(t, conn, "msg_event", query, args...), "rows of msg_event read to mark 100 changes")
}

// Issue #34: the relay's reads of the KAFKA:msg head went through a partial
// index of every KAFKA:msg row with STATUS NULL (a copy of the primary key
// that cost every insert an entry); they read the rows above the watermark
// by the primary key. Above the watermark are the pending rows and the rare
// dead letters. A batch of the head must read its rows, not the backlog, on
// a table never analyzed (a new install: a plain row test is estimated at
// one row there, and the head was read whole by a bitmap or seq scan and a
// sort for every batch) as on an analyzed one.
func TestRelayReadsOnlyTheRowsAboveTheWatermark(t *testing.T) {
	t.Parallel()
	const delivered, backlog, batch = 20000, 5000, 100
	for _, analyzed := range []bool{false, true} {
		t.Run(fmt.Sprintf("analyzed=%v", analyzed), func(t *testing.T) {
			t.Parallel()
			conn := planConn(t)
			mustExec(t, conn,
				"ALTER TABLE msg_event SET (autovacuum_enabled = false)",
				fmt.Sprintf(`INSERT INTO msg_event (event_id, target, partition_key, event_type, cminmsgs_id, flid, state_version,
				  idempotency_key, payload, created_at)
				  SELECT i, 'KAFKA:msg', (i %% 500)::text, 'UPSERT', i, i %% 500, i, i || ':' || i %% 500 || ':' || i || ':KAFKA:msg',
				    repeat('x', 1600), now()
				  FROM generate_series(1, %d) i WHERE i NOT IN (%d, %d)`, delivered+backlog+2, delivered+5, delivered+6),
				fmt.Sprintf("INSERT INTO msg_event_cursor (target, sent_through, sent_at) VALUES ('KAFKA:msg', %d, now())", delivered),
				// Dead letters above the watermark, in the first batch: two
				// KAFKA:msg events and two KAFKA:schd ones (a mark's, an
				// EVENT_ID of its own).
				fmt.Sprintf("UPDATE msg_event SET status = 'DEAD' WHERE event_id IN (%d, %d)", delivered+10, delivered+20),
				fmt.Sprintf(`INSERT INTO msg_event (event_id, target, partition_key, event_type, cminmsgs_id, flid, state_version,
				  idempotency_key, status, created_at)
				  SELECT i, 'KAFKA:schd', '1', 'UPSERT', i, 1, i, i || ':1:' || i || ':KAFKA:schd', 'DEAD', now()
				  FROM generate_series(%d, %d) i`, delivered+5, delivered+6),
			)
			if analyzed {
				mustExec(t, conn, "VACUUM ANALYZE msg_event")
			}
			acked := make([]int64, 0, batch) // the first batch's events, dead ones ignored
			for id := int64(delivered + 1); id <= delivered+batch; id++ {
				acked = append(acked, id)
			}
			for _, c := range []struct {
				name string
				args map[string]any
				max  int
			}{
				{"EventListMsgPendingAfter", map[string]any{"after_event_id": 0, "max_rows": batch}, batch + 4},
				{"EventAdvanceMsgCursor", map[string]any{"event_ids": acked, "now": time.Now()}, batch},
				{"EventLag", nil, backlog + 2},
			} {
				query, args := namedQuery(t, "outbox.sql", c.name, c.args)
				require.LessOrEqual(t, rowsRead(t, conn, "msg_event", query, args...), c.max,
					"%s: rows of msg_event read, %d above the watermark among %d", c.name, backlog+2, delivered+backlog+2)
			}
		})
	}
}

// The run's read carries PIPELINE_LOCK's count of enqueues below the
// largest known id (the batch compares it under the lock): read once per
// statement, not once per message of the run, and the run still reads
// only the unfinished rows of PROC_STATE, not the finished ones before them.
func TestRunReadReadsTheLockRowOnce(t *testing.T) {
	t.Parallel()
	const finished, pending = 20000, 50
	conn := planConn(t)
	mustExec(t, conn,
		fmt.Sprintf(`INSERT INTO proc_state (msg_id, status, first_seen_at, finished_at)
		  SELECT i, 'SUCCEEDED', now(), now() FROM generate_series(1, %d) i`, finished),
		fmt.Sprintf(`INSERT INTO proc_state (msg_id, status, first_seen_at)
		  SELECT %d + i, 'PENDING', now() FROM generate_series(1, %d) i`, finished, pending),
		`INSERT INTO pipeline_lock (id, locked_at, enqueued_below) VALUES (1, now(), 3)`,
		"VACUUM ANALYZE proc_state")
	query, args := namedQuery(t, "proc_state.sql", "ProcStateListRun", map[string]any{"max_rows": int32(pending)})
	require.LessOrEqual(t, rowsRead(t, conn, "proc_state", query, args...), pending, "rows of proc_state read for a run of %d", pending)
	require.Equal(t, 1, rowsRead(t, conn, "pipeline_lock", query, args...), "the lock row is read once for the run")
	var below int64
	require.NoError(t, conn.QueryRow(t.Context(), query, args...).Scan(new(int64), new(string), new(int32), new(time.Time), new(*string), new(int32), &below))
	require.Equal(t, int64(3), below)
}
