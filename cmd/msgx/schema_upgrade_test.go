package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/pgadmin"
	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/schema"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// previousRelease is the last migration of the release a site upgrades from
// in TestUpgradeFromPreviousRelease. No release is tagged yet, so it names
// an earlier migration (req_track_origin, the schema of 3 Dec afternoon);
// when a release is tagged, set it to that tag's last migration
// (docs/upgrade.md, "What the upgrade test covers").
const previousRelease = "20261203135423"

// The upgrade a DBA runs (docs/upgrade.md), with the real command functions:
// a database at the previous release's migrations, with a day of flights,
// a dead letter and its history as that release's pipeline wrote them, is brought to this
// release by `msgx schema migrate --yes`; the data is all there, the
// declarative plan has nothing left to do, the pipeline goes on and
// `msgx status` reads it all.
func TestUpgradeFromPreviousRelease(t *testing.T) {
	t.Parallel()
	pg := testdb.PostgresEmpty(t)
	code, out, stderr := runMsgx(t, "schema", "migrate", "--yes", "--to", previousRelease, "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.True(t, strings.HasSuffix(strings.TrimSpace(out), previousRelease+"_req_track_origin.sql"), out)

	// The previous release's data, as that release's pipeline wrote it
	// (testdata/previous_release.sql; this release's statements may name
	// columns the old schema lacks), and its three mailbox rows.
	data, err := os.ReadFile("testdata/previous_release.sql")
	require.NoError(t, err)
	_, err = pg.Pool.Exec(t.Context(), string(data))
	require.NoError(t, err)
	db, dsn := testdb.Mailbox(t)
	e := &opsEnv{pgURL: pg.URL, dsn: dsn, st: pgstore.New(pg.Pool), mb: mailbox.New(db, mailbox.WithZone(opsZone))}
	e.config = writeConfig(t, fmt.Sprintf("postgres:\n  url: %q\nmailbox:\n  dsn: %q\nairport:\n  timezone: Asia/Shanghai\n", pg.URL, dsn))
	h := newHistory(e)
	for i, xml := range []string{schdDNLD(101, 102), flopSTND(101, "12"), flopSTND(102, "7")} {
		id, err := e.mb.Insert(t.Context(), []byte(xml), h.clk.Now())
		require.NoError(t, err)
		require.Equal(t, int64(i+1), id, "the mailbox ids the fixture's PROC_STATE rows name")
	}
	const dead = 3

	code, out, stderr = runMsgx(t, "schema", "status", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "pending ", "this release has migrations the previous one had not")
	require.NotContains(t, out, "pending   "+previousRelease)

	code, out, stderr = runMsgx(t, "schema", "migrate", "--yes", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "applied ")
	require.NotContains(t, out, previousRelease, "what the previous release applied is not run again")

	code, out, stderr = runMsgx(t, "schema", "status", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, ", 0 pending", out)
	code, out, stderr = runMsgx(t, "schema", "plan", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, out, "the migrated schema is the desired one (and msgx_schema_version is not planned away)")

	// This release's msgx starts on the upgraded schema (the package's
	// restart): new connections. The old ones would fail on statements
	// whose result type a migration changed ("cached plan must not change
	// result type", docs/upgrade.md).
	pool, err := pgxpool.New(t.Context(), pg.URL)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	e.st = pgstore.New(pool)
	h = newHistory(e)
	states, err := e.st.Flights(t.Context(), []int64{101, 102})
	require.NoError(t, err)
	require.Len(t, states, 2)
	require.Equal(t, "12", states[101].Scalars["STND"].Raw)
	require.Equal(t, "DEAD", string(e.message(t, dead).Status))

	// The previous release's PENDING KAFKA:schd rows (one per change) are
	// marks now, per flight the latest change; a mark is sent with its
	// change's KAFKA:msg EVENT_ID (the schd row's was the one after it).
	due, err := e.st.DueSchdMarks(t.Context(), store.DueSchdMarksParams{Now: time.Now(), Max: 10})
	require.NoError(t, err)
	marked := map[int64][2]int64{}
	for _, m := range due {
		marked[m.FLID] = [2]int64{m.StateVersion, m.ID}
		require.NotEmpty(t, m.Payload, "the mark reads its KAFKA:msg twin's payload")
	}
	require.Equal(t, map[int64][2]int64{101: {2, 5}, 102: {1, 3}}, marked)

	// Upgraded mid-stream: the previous release's three messages are
	// committed, their backfills registered as todos and not yet done. The
	// backfill mark starts at the newest terminal message, so each is
	// counted once, as its todo.
	mark, err := e.st.BackfillMark(t.Context())
	require.NoError(t, err)
	require.Equal(t, int64(dead), mark)
	st, err := e.st.BackfillStats(t.Context())
	require.NoError(t, err)
	require.Equal(t, int64(3), st.Todos)

	fourth := h.send(t, flopSTND(102, "8"), false) // this release's pipeline on the upgraded schema
	states, err = e.st.Flights(t.Context(), []int64{102})
	require.NoError(t, err)
	require.Equal(t, "8", states[102].Scalars["STND"].Raw)
	st, err = e.st.BackfillStats(t.Context())
	require.NoError(t, err)
	require.Equal(t, int64(4), st.Todos, "the new message is above the mark: outstanding without a todo")
	todos, err := e.st.DueBackfills(t.Context(), time.Now().Add(time.Hour), 10)
	require.NoError(t, err)
	require.Len(t, todos, 3)

	// The sweep backfills the old todos and the new message; none is lost.
	h.clk.Advance(time.Minute) // every todo due
	done, failed, err := backfill.New(e.st, e.mb, h.clk, nil, backfill.Config{}).Sweep(t.Context())
	require.NoError(t, err)
	require.Equal(t, [2]int{4, 0}, [2]int{done, failed})
	for id := int64(1); id <= fourth; id++ {
		row, err := e.mb.Get(t.Context(), id)
		require.NoError(t, err)
		require.NotNil(t, row.ProcessedAt, "mailbox row %d backfilled", id)
	}
	st, err = e.st.BackfillStats(t.Context())
	require.NoError(t, err)
	require.Zero(t, st.Todos)

	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "EXHAUSTED 1", "the previous release's dead letter")
	require.Contains(t, out, "none (queue empty)")
}

// A site set up with `msgx schema apply` has no version record: migrate
// refuses until --baseline records where it is, then runs nothing more.
func TestMigrateNeedsBaselineAfterApply(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t) // built with schema.Apply
	code, _, stderr := runMsgx(t, "schema", "migrate", "--yes", "--url", pg.URL)
	require.Equal(t, exitFailure, code)
	require.Contains(t, stderr, "--baseline VERSION")

	code, out, stderr := runMsgx(t, "schema", "status", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := strings.Fields(lines[len(lines)-2])[1] // the newest migration's file name
	version, _, _ := strings.Cut(last, "_")

	code, out, stderr = runMsgx(t, "schema", "migrate", "--yes", "--baseline", version, "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "recorded "+last)
	code, out, stderr = runMsgx(t, "schema", "migrate", "--yes", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, out)
	require.Equal(t, "-- schema is up to date\n", stderr)
	code, out, _ = runMsgx(t, "schema", "status", "--url", pg.URL)
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "baseline  "+last)
	require.Contains(t, out, ", 0 pending")

	// A newer msgx migrated this database: this one shows it and will not
	// migrate (a rolled-back binary, docs/upgrade.md "Roll back").
	db, err := schema.Open(t.Context(), pg.URL)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, pgadmin.New().SchemaVersionAdd(t.Context(), db, pgadmin.SchemaVersionAddParams{
		Version: "29990101000000", Name: "29990101000000_future.sql", Sha256: "x", AppliedAt: time.Now()}))
	code, out, _ = runMsgx(t, "schema", "status", "--url", pg.URL)
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "UNKNOWN   29990101000000_future.sql")
	code, _, stderr = runMsgx(t, "schema", "migrate", "--yes", "--url", pg.URL)
	require.Equal(t, exitFailure, code)
	require.Contains(t, stderr, "older than the schema")
}

// schema plan drops a table the DBA added to msgx's schema; --keep-unowned
// leaves it (and its view) alone, and apply with it keeps them.
func TestSchemaKeepUnowned(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	ddl, err := os.ReadFile("testdata/dba_objects.sql")
	require.NoError(t, err)
	_, err = pg.Pool.Exec(t.Context(), string(ddl))
	require.NoError(t, err)

	code, out, stderr := runMsgx(t, "schema", "plan", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, `DROP TABLE "public"."dba_notes"`)
	require.Contains(t, out, `DROP VIEW "public"."dba_busy_stands"`)
	require.Contains(t, stderr, `-- WARNING: this plan drops 2 objects msgx does not define: "public"."dba_busy_stands", "public"."dba_notes" (keep them with --keep-unowned)`,
		"said up front, on stderr")

	for _, sub := range []string{"plan", "apply"} {
		code, out, stderr = runMsgx(t, "schema", sub, "--yes", "--keep-unowned", "--url", pg.URL)
		require.Equal(t, exitOK, code, stderr)
		require.Empty(t, out, sub)
	}
	code, out, _ = runMsgx(t, "schema", "plan", "--url", pg.URL)
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "dba_notes", "still there")
}
