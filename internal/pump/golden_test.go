package pump

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var update = flag.Bool("update", false, "rewrite testdata/golden-tables.json from the current pump")

// goldenFile pins what msgx stores after the corpus of TestStoredTablesMatchGolden.
const goldenFile = "testdata/golden-tables.json"

// The pump's effects pinned: a fixed corpus covering every kind of effect
// (snapshots, FLOPs of every field family, deletes, schedule changes,
// reference lists, RESPs with and without a request, refusals, failures,
// exhaustion, a replay, a stale snapshot, an over-large event, a FLOP applied
// in slices) leaves every table of msgx's schema and the mailbox rows msgx
// writes back exactly as the golden file says, whatever the run length. A
// refactor that changes what is stored fails here; one that means to
// changes the golden file with -update and says why.
func TestStoredTablesMatchGolden(t *testing.T) {
	t.Parallel()
	want := readGolden(t)
	for _, runLength := range []int{1000, 1} {
		t.Run(fmt.Sprintf("RunLength=%d", runLength), func(t *testing.T) {
			t.Parallel()
			if *update && runLength != 1000 {
				t.Skip("-update: the golden file is rewritten from RunLength=1000")
			}
			got := runGoldenCorpus(t, runLength)
			if *update {
				writeGolden(t, got)
				return
			}
			require.NotEmpty(t, want, "no golden file: run with -update")
			require.Equal(t, slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)), "the tables dumped")
			for _, table := range slices.Sorted(maps.Keys(want)) {
				if want[table] != got[table] {
					t.Errorf("table %s differs from %s (a wanted change: go test ./internal/pump -run TestStoredTablesMatchGolden -update):\n%s",
						table, goldenFile, strings.Join(rowDiff(t, want[table], got[table]), "\n"))
				}
			}
		})
	}
}

// goldenLimit is the kafka.max-record-bytes of the corpus: every event fits
// but that of the VIP list of a hundred entries.
const goldenLimit = 16384

// corpus numbers its messages itself (SEQN), so the identities and the META
// backfilled are the same in every run whatever other tests send.
type corpus struct {
	t   *testing.T
	e   *env
	seq int
}

// send writes a message whose SEQN and DTTM are set here, advancing the
// clock a second after it so each row is received at its own instant.
func (c *corpus) send(dttm, typ, styp, body string) int64 {
	c.seq++
	return c.sendSeq(c.seq, dttm, typ, styp, body)
}

func (c *corpus) sendSeq(seqn int, dttm, typ, styp, body string) int64 {
	return c.sendRaw(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<MSG>
 <META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>%s</DTTM><TYPE>%s</TYPE><STYP>%s</STYP></META>
 %s
</MSG>`, seqn, dttm, typ, styp, body))
}

func (c *corpus) sendRaw(xml string) int64 {
	id := c.e.Send(c.t, xml)
	c.e.Clock.Advance(time.Second)
	return id
}

// now is the clock as a DTTM (airport time).
func (c *corpus) now() string { return c.e.Clock.Now().In(shanghai).Format("20060102150405") }

func (c *corpus) schd(dttm, styp string, records ...string) int64 {
	return c.send(dttm, "SCHD", styp, fmt.Sprintf("<SCHD><RECS>%d</RECS>%s</SCHD>", len(records), strings.Join(records, "")))
}

func (c *corpus) flop(styp string, flid int64, elems ...string) int64 {
	return c.send("20261202090000", "FLOP", styp, fmt.Sprintf("<FLOP><FLID>%d</FLID>%s</FLOP>", flid, strings.Join(elems, "")))
}

func (c *corpus) refList(dttm, styp string, codes ...string) int64 {
	body := fmt.Sprintf("<RECS>%d</RECS>", len(codes))
	for _, code := range codes {
		body += "<AIRL><ALCD>" + code + "</ALCD><ALNM>" + code + " airline</ALNM></AIRL>"
	}
	return c.send(dttm, "AIRL", styp, body)
}

var (
	seqnElem = regexp.MustCompile(`<SEQN>\d+</SEQN>`)
	dttmElem = regexp.MustCompile(`<DTTM>\d+</DTTM>`)
	ffidElem = regexp.MustCompile(`\s*<FFID>[^<]*</FFID>`)
)

// sisFLOP sends a FLOP of the decoder's golden corpus (testdata/sis) on the
// given flights: flight 15 of the file is to, 16 is also. Its SEQN and DTTM
// are the corpus's; FFID (another flight's) is dropped.
func (c *corpus) sisFLOP(name string, to, also int64) int64 {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sis", name+".xml"))
	require.NoError(c.t, err)
	c.seq++
	xml := seqnElem.ReplaceAllString(string(b), fmt.Sprintf("<SEQN>%d</SEQN>", c.seq))
	xml = dttmElem.ReplaceAllString(xml, "<DTTM>20261202090000</DTTM>")
	xml = ffidElem.ReplaceAllString(xml, "")
	xml = strings.ReplaceAll(xml, "<FLID>15</FLID>", fmt.Sprintf("<FLID>%d</FLID>", to))
	xml = strings.ReplaceAll(xml, "<FLID>16</FLID>", fmt.Sprintf("<FLID>%d</FLID>", also))
	return c.sendRaw(xml)
}

// goldenFLOPs are the FLOPs of testdata/sis the corpus sends: every field
// family (scalars, gates, check-in counters, belts, chutes, stand plan,
// delays, bridge and chock operations, pushes, routes, services, VIPs,
// payload lists) and their clearing forms.
func goldenFLOPs(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sis", "flop_*.xml"))
	require.NoError(t, err)
	var out []string
	for _, n := range names {
		name := strings.TrimSuffix(filepath.Base(n), ".xml")
		if name == "flop_fdel" { // deletes its flight: sent on its own flight
			continue
		}
		out = append(out, name)
	}
	require.Greater(t, len(out), 50)
	return out
}

// runGoldenCorpus sends the corpus through a pump of the given run length
// and returns every PostgreSQL table (after the drain, before the backfill
// sweep empties BACKFILL_TODO) and the mailbox rows after the sweep.
func runGoldenCorpus(t *testing.T, runLength int) map[string]string {
	t.Helper()
	e := newEnv(t, func(cfg *Config) {
		cfg.RunLength = runLength
		cfg.MaxRecordBytes = goldenLimit
	})
	e.needPostgres(t)
	c := &corpus{t: t, e: e}

	// Snapshots over two flight days (one message), and a reference list.
	c.schd("20261202080000", "DNLD",
		fltrOn(1, "02DEC", "0830", gates("A1", "A2"), `<CKDT CKNO="1"><CHKC>101</CHKC></CKDT>`, "<STND>101</STND>"),
		fltrOn(2, "02DEC", "1030", gates("B1")),
		fltrOn(3, "02DEC", "1130"),
		fltrOn(4, "02DEC", "1230"),
		fltrOn(5, "02DEC", "1330"),
		fltrOn(6, "02DEC", "1430"),
		fltrOn(11, "03DEC", "0830"),
		fltrOn(12, "03DEC", "1030"),
		fltrOn(13, "03DEC", "1130"))
	c.refList("20261202080000", "DNLD", "CA", "MU", "CZ")
	e.StepUntilWait(t)

	// The bulk: FLOPs of every field family, on flights 1 and 2 in turn.
	for i, name := range goldenFLOPs(t) {
		to, also := int64(1), int64(2)
		if i%2 == 1 {
			to, also = 2, 1
		}
		c.sisFLOP(name, to, also)
	}
	c.sisFLOP("flop_fdel", 5, 5) // a FLOP deleting its flight
	// Skipped: on a deleted flight (no-match:flight-deleted), on an unknown
	// one (no-match:flight), a duplicate (same identity) of an applied FLOP,
	// an ignored type.
	c.flop("STND", 5, "<STND>501</STND>")
	c.flop("STND", 99, "<STND>991</STND>")
	dup := c.flop("STND", 3, "<STND>301</STND>")
	c.sendRaw(string(mustRaw(t, e, dup)))
	c.send("20261202090000", "LDM", "NONE", "<LDM>x</LDM>")
	// DEAD MALFORMED: broken XML, and a row the mailbox lost.
	c.sendRaw("<MSG><META>broken")
	gone := c.flop("STND", 3, "<STND>302</STND>")
	_, err := e.MailboxDB.ExecContext(t.Context(), "DELETE FROM cminmsgs WHERE CMINMSGS_ID = ?", gone)
	require.NoError(t, err)
	// DEAD PROTOCOL: a state rule broken (SODT moves the operation day), an
	// event over kafka.max-record-bytes, an outbound request inbound.
	c.schd("20261202090000", "UPD", fltrOn(4, "03DEC", "1230"))
	c.flop("VIPF", 4, vipList(100))
	c.send("20261202090000", "RQFD", "NONE", "<RQFD><STDB>02DEC260000</STDB><STDE>02DEC262359</STDE></RQFD>")
	// Deletes, schedule changes, reference changes.
	c.send("20261202090000", "FDEL", "NONE", "<FDEL><FLID>6</FLID></FDEL>")
	c.schd("20261202090000", "UPD", fltrOn(2, "02DEC", "1030", gates("B2")), fltrOn(7, "02DEC", "1530"))
	c.schd("20261202090000", "ADFT", fltrOn(8, "02DEC", "1630", "<STND>801</STND>"))
	c.schd("20261202090000", "DEL", `<FLTR><FLID>7</FLID></FLTR>`, `<FLTR><FLID>98</FLID></FLTR>`)
	c.refList("20261202090000", "UPD", "3U")
	c.refList("20261202090000", "DEL", "CZ")
	// More than apply.SliceRecords records: applied in slices.
	c.send("20261202090000", "FLOP", "STND", sliced())
	e.StepUntilWait(t)

	// An unsupported kind fails, holding the head, until exhausted; the
	// FLOP behind it waits. The clock moves past each backoff.
	unsupported := c.send("20261202090000", "SCHS", "DNLD", "<SCHS/>")
	c.flop("STND", 8, "<STND>802</STND>")
	e.DrainPastBackoff(t)
	require.Equal(t, "EXHAUSTED", e.msg(t, unsupported).ErrorClass)

	// Replayed under a configuration that ignores the kind: SKIPPED.
	e.Clock.Advance(time.Hour)
	_, err = replay.Apply(t.Context(), e.Store, replay.Filter{IDs: []int64{unsupported}}, e.Clock.Now(), nil)
	require.NoError(t, err)
	e.pump.cfg.Decode.IgnoreTypes = []string{"SCHS"}
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSkipped, e.msg(t, unsupported).Status)

	// A snapshot older than 2 Dec's generation: stale.
	c.schd("20261202070000", "DNLD", fltrOn(1, "02DEC", "0830"))
	// A RESP nothing asked for: SKIPPED.
	c.schd(c.now(), "RESP", fltrOn(1, "02DEC", "0830", "<STND>R1</STND>"))
	e.StepUntilWait(t)

	// A flight-range RESP answering its request (REQ_TRACK): 3 Dec is
	// replaced, 12 and 13 pruned, 14 added.
	_, err = e.requests(t).Flights(t.Context(), local(t, "2026-12-03T00:00"), local(t, "2026-12-03T23:59"))
	require.NoError(t, err)
	e.Clock.Advance(time.Minute)
	c.schd(c.now(), "RESP", fltrOn(11, "03DEC", "0830", "<STND>111</STND>"), fltrOn(14, "03DEC", "1230"))
	// A reference RESP answering its request: the whole AIRL list.
	_, err = e.requests(t).Reference(t.Context(), "airl")
	require.NoError(t, err)
	e.Clock.Advance(time.Minute)
	c.refList(c.now(), "RESP", "CA", "HU")
	e.StepUntilWait(t)

	tables := dumpTables(t, e)
	sweepBackfills(t, e)
	for name, rows := range dumpMailbox(t, e) {
		tables[name] = rows
	}
	return tables
}

// sliced is a FLOP body of 1202 STND records: flight 3's stand set at the
// first (slice 1) and changed at record 1101 (slice 2), where flight 4 and
// an unknown flight appear too; the other records repeat the stand.
func sliced() string {
	var b strings.Builder
	for i := range 1200 {
		stnd := "S1"
		if i >= 1100 {
			stnd = "S2"
		}
		fmt.Fprintf(&b, "<FLOP><FLID>3</FLID><STND>%s</STND></FLOP>", stnd)
		if i == 1100 {
			b.WriteString("<FLOP><FLID>4</FLID><STND>S4</STND></FLOP><FLOP><FLID>97</FLID><STND>S9</STND></FLOP>")
		}
	}
	return b.String()
}

// mustRaw is the XML of a mailbox row.
func mustRaw(t *testing.T, e *env, id int64) []byte {
	t.Helper()
	raws, err := e.Mailbox.ReadRaws(t.Context(), []int64{id})
	require.NoError(t, err)
	require.Contains(t, raws, id)
	return raws[id]
}

// sweepBackfills runs the backfill sweep until every todo is written to
// the mailbox.
func sweepBackfills(t *testing.T, e *env) {
	t.Helper()
	b := backfill.New(e.Store, e.Mailbox, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), backfill.Config{})
	for range 100 {
		done, failed, err := b.Sweep(t.Context())
		require.NoError(t, err)
		require.Zero(t, failed)
		if done == 0 {
			return
		}
	}
	t.Fatal("backfill sweep did not finish")
}

// dumpMailbox returns what msgx writes to the mailbox, as JSON rows by id:
// the backfilled columns of cminmsgs (not the XML, which the corpus wrote),
// and the outbound requests of coutmsgs. Datetimes are read as the text
// stored (airport wall time).
func dumpMailbox(t *testing.T, e *env) map[string]string {
	t.Helper()
	queries := map[string]string{
		"mailbox.cminmsgs": `SELECT CMINMSGS_ID,
			CAST(CMINMSGS_DATE_RECEIVED AS CHAR) AS CMINMSGS_DATE_RECEIVED,
			CAST(CMINMSGS_DATE_PROCESSED AS CHAR) AS CMINMSGS_DATE_PROCESSED,
			CMINMSGS_SUBSYSTEM_NAME,
			CMINMSGS_SUBSYSTEM_SEQUENCE,
			CAST(CMINMSGS_SUBSYSTEM_DATE_SENT AS CHAR) AS CMINMSGS_SUBSYSTEM_DATE_SENT,
			CMINMSGS_SUBSYSTEM_SUBTYPE, CMINMSGS_SUBSYSTEM_TYPE, CMINMSGS_STATUS
			FROM cminmsgs ORDER BY CMINMSGS_ID`,
		"mailbox.coutmsgs": `SELECT COUTMSGS_ID, COUTMSGS_CLOB_MSG,
			CAST(COUTMSGS_DATE_INSERTED AS CHAR) AS COUTMSGS_DATE_INSERTED,
			CAST(COUTMSGS_DATE_SENT AS CHAR) AS COUTMSGS_DATE_SENT, ROUTINGID
			FROM coutmsgs ORDER BY COUTMSGS_ID`,
	}
	out := map[string]string{}
	for name, q := range queries {
		rows, err := e.MailboxDB.QueryContext(t.Context(), q)
		require.NoError(t, err, name)
		dump := testdb.Rows(t, rows)
		b, err := json.MarshalIndent(dump, "", " ")
		require.NoError(t, err)
		out[name] = string(b)
	}
	return out
}

func readGolden(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(goldenFile)
	if os.IsNotExist(err) && *update {
		return nil
	}
	require.NoError(t, err)
	var tables map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &tables))
	out := map[string]string{}
	for name, raw := range tables {
		var rows []json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &rows), name)
		if rows == nil {
			rows = []json.RawMessage{}
		}
		pretty, err := json.MarshalIndent(rows, "", " ")
		require.NoError(t, err)
		out[name] = string(pretty)
	}
	return out
}

func writeGolden(t *testing.T, tables map[string]string) {
	t.Helper()
	raw := map[string]json.RawMessage{}
	for name, rows := range tables {
		raw[name] = json.RawMessage(rows)
	}
	b, err := json.MarshalIndent(raw, "", " ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(goldenFile, append(b, '\n'), 0o644))
}

// rowDiff describes the first rows where two dumps of a table differ: the
// row's place and the columns whose values differ (rows are in a stable
// order, so a row added or removed shows as the rows after it shifting).
func rowDiff(t *testing.T, want, got string) []string {
	t.Helper()
	var w, g []map[string]any
	require.NoError(t, json.Unmarshal([]byte(want), &w))
	require.NoError(t, json.Unmarshal([]byte(got), &g))
	out := []string{fmt.Sprintf("  %d rows wanted, %d got", len(w), len(g))}
	shown := 0
	for i := range max(len(w), len(g)) {
		if shown == 5 {
			out = append(out, "  ...")
			break
		}
		switch {
		case i >= len(g):
			out = append(out, fmt.Sprintf("  row %d missing: %s", i, compact(w[i])))
		case i >= len(w):
			out = append(out, fmt.Sprintf("  row %d extra: %s", i, compact(g[i])))
		default:
			var cols []string
			for _, k := range slices.Sorted(maps.Keys(w[i])) {
				if compact(w[i][k]) != compact(g[i][k]) {
					cols = append(cols, fmt.Sprintf("    %s: want %s, got %s", k, compact(w[i][k]), compact(g[i][k])))
				}
			}
			for _, k := range slices.Sorted(maps.Keys(g[i])) {
				if _, ok := w[i][k]; !ok {
					cols = append(cols, fmt.Sprintf("    %s: not wanted, got %s", k, compact(g[i][k])))
				}
			}
			if len(cols) == 0 {
				continue
			}
			out = append(out, fmt.Sprintf("  row %d%s:", i, rowKey(w[i])))
			out = append(out, cols...)
		}
		shown++
	}
	return out
}

// compact is a value as one line of JSON, cut to a readable length.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// rowKey names a row by its key column, where it has one of the usual.
func rowKey(row map[string]any) string {
	for _, k := range []string{"event_id", "msg_id", "req_id", "flid", "CMINMSGS_ID", "COUTMSGS_ID"} {
		if v, ok := row[k]; ok {
			return fmt.Sprintf(" (%s %s)", k, compact(v))
		}
	}
	return ""
}
