package app

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// sampleDay is testdata/sample-day, in file-name order (what `make run` sends).
func sampleDay(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sample-day", "*.xml"))
	require.NoError(t, err)
	sort.Strings(files)
	require.NotEmpty(t, files)
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out = append(out, string(b))
	}
	return out
}

type record struct {
	key, value string
	headers    map[string]string
}

// consume reads every record of a topic until want records arrived.
func consume(t *testing.T, brokers []string, topic string, want int) []record {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	require.NoError(t, err)
	defer cl.Close()
	var got []record
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for len(got) < want {
		fs := cl.PollFetches(ctx)
		require.NoError(t, ctx.Err(), "only %d of %d records on %s", len(got), want, topic)
		fs.EachRecord(func(r *kgo.Record) {
			h := map[string]string{}
			for _, x := range r.Headers {
				h[x.Key] = string(x.Value)
			}
			got = append(got, record{key: string(r.Key), value: string(r.Value), headers: h})
		})
	}
	return got
}

// The sample day through the whole service: mailbox → pump → PostgreSQL →
// Kafka (a kfake cluster), read back through the API, the topics, /readyz
// and /metrics.
func TestSampleDayEndToEnd(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	cfg := testConfig(pg.URL, dsn)
	emb, err := kafka.StartEmbedded(cfg.Kafka.TopicMsg, cfg.Kafka.TopicSchd)
	require.NoError(t, err)
	defer emb.Close()
	cfg.Kafka.Brokers = emb.Addrs()
	cfg.Schd.FlushPeriod = 100 * time.Millisecond
	cfg.AdminToken = "0123456789abcdef-admin"
	cfg.BackoffBase = 20 * time.Millisecond // the day's dead letter is retried to EXHAUSTED in ms
	s := startService(t, cfg)

	day := sampleDay(t)
	var ids []int64
	for _, x := range day {
		ids = append(ids, post(t, s.base, x))
	}
	eventually(t, 30*time.Second, "the day processed and backfilled", func() bool {
		_, m := getMessage(t, s.base, ids[len(ids)-1])
		var open int
		require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT count(*) FROM cminmsgs WHERE CMINMSGS_DATE_PROCESSED IS NULL").Scan(&open))
		return m.Status != "" && m.Status != "PENDING" && open == 0
	})
	statuses := map[string]int{}
	for _, id := range ids {
		_, m := getMessage(t, s.base, id)
		statuses[m.Status+" "+m.Reason]++
	}
	require.Equal(t, 1, statuses["SKIPPED ignored:LDM"], "%v", statuses)
	require.Equal(t, 1, statuses["SKIPPED no-match:flight"], "%v", statuses)
	// The day's dead letter (015): a FLOP subtype msgx does not know, retried
	// until EXHAUSTED, the one to replay from the console.
	require.Equal(t, 1, statuses["DEAD 5 attempts; last UNSUPPORTED: unsupported:FLOP/ETOT unknown subtype"], "%v", statuses)
	require.Equal(t, len(ids)-3, statuses["SUCCEEDED "], "%v", statuses)
	code, body := httpDo(t, http.MethodGet, s.base+"/dead-letters?class=EXHAUSTED", "", "")
	require.Equal(t, http.StatusOK, code, "%s", body)
	require.Contains(t, string(body), `"msg_id":`+strconv.FormatInt(ids[len(ids)-1], 10))

	// The day's flights, paged through the API.
	code, body = httpDo(t, http.MethodGet, s.base+"/all/flights?day=2026-12-03&limit=5", "", "")
	require.Equal(t, http.StatusOK, code, "%s", body)
	require.Contains(t, string(body), `"next_cursor"`)
	st, _ := getFlight(t, s.base, 30001)
	require.Equal(t, "103", st.Scalars["STND"].Raw)

	// Every change on the msg topic, in EVENT_ID order per flight, each with
	// its idempotency key; the deleted flight ends with a tombstone.
	events := count(t, pg.Pool, "SELECT count(*) FROM msg_event WHERE target = 'KAFKA:msg'")
	require.Positive(t, events)
	msgs := consume(t, cfg.Kafka.Brokers, cfg.Kafka.TopicMsg, events)
	require.Len(t, msgs, events)
	lastVersion := map[string]int{}
	keys := map[string]bool{}
	for _, r := range msgs {
		v, err := strconv.Atoi(r.headers["state-version"])
		require.NoError(t, err)
		require.Greater(t, v, lastVersion[r.key], "per-flight order on the msg topic")
		lastVersion[r.key] = v
		require.False(t, keys[r.headers["idempotency-key"]], "each event once")
		keys[r.headers["idempotency-key"]] = true
		if r.key == "30010" && r.headers["event-type"] == "TOMBSTONE" {
			require.Empty(t, r.value)
		}
	}
	require.Equal(t, "TOMBSTONE", lastHeader(msgs, "30010", "event-type"))
	eventually(t, 30*time.Second, "every event SENT", func() bool {
		// The effective status of docs/events.md (KAFKA:msg: by the watermark).
		return count(t, pg.Pool, `SELECT count(*) FROM msg_event e
			LEFT JOIN msg_event_cursor c ON c.target = e.target
			WHERE COALESCE(e.status, CASE WHEN e.event_id <= c.sent_through THEN 'SENT' ELSE 'PENDING' END) <> 'SENT'`) == 0
	})

	// schd carries the latest full state per flight.
	schd := consume(t, cfg.Kafka.Brokers, cfg.Kafka.TopicSchd, 13)
	var latest map[string]any
	for _, r := range schd {
		if r.key == "30005" {
			require.NoError(t, json.Unmarshal([]byte(r.value), &latest))
		}
	}
	require.NotNil(t, latest)
	require.Contains(t, string(mustJSON(t, latest)), `"307"`, "the latest stand of CZ3101")

	// Readiness names Kafka; metrics count the deliveries.
	code, body = httpDo(t, http.MethodGet, s.base+"/readyz", "", "")
	require.Equal(t, http.StatusOK, code, "%s", body)
	require.Contains(t, string(body), `"kafka"`)
	require.Contains(t, string(body), `"role":"leader"`)
	code, body = httpDo(t, http.MethodGet, s.base+"/metrics", "", "")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, string(body), `msgx_events_delivered_total{target="KAFKA:msg"} `+strconv.Itoa(events))
	require.Contains(t, string(body), "msgx_leader 1")
}

func lastHeader(rs []record, key, header string) string {
	v := ""
	for _, r := range rs {
		if r.key == key {
			v = r.headers[header]
		}
	}
	return v
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// Shadow mode beside the system that owns the mailbox: rows that system
// already processed are read too, msgx's own state is built, but the mailbox
// is never written, nothing is produced (no Kafka at all) and send is refused.
func TestShadowModeService(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	owner := mailbox.New(mbdb, mailbox.WithZone(shanghai))
	day := sampleDay(t)[:5]
	var ids []int64
	for _, x := range day {
		id, err := owner.Insert(t.Context(), []byte(x), time.Now())
		require.NoError(t, err)
		ids = append(ids, id)
	}
	// The owning system has processed the first two already.
	for _, id := range ids[:2] {
		_, err := mbdb.ExecContext(t.Context(), "UPDATE cminmsgs SET CMINMSGS_DATE_PROCESSED = NOW(), CMINMSGS_STATUS = 'OWNER' WHERE CMINMSGS_ID = ?", id)
		require.NoError(t, err)
	}

	cfg := testConfig(pg.URL, dsn)
	cfg.Shadow = true
	cfg.Kafka.Brokers = []string{"127.0.0.1:1"} // never dialled in shadow mode
	s := startService(t, cfg)
	eventually(t, 30*time.Second, "all five processed", func() bool {
		return count(t, pg.Pool, "SELECT count(*) FROM proc_state WHERE status IN ('SUCCEEDED','SKIPPED')") == len(ids)
	})
	st, _ := getFlight(t, s.base, 30001)
	require.Equal(t, "103", st.Scalars["STND"].Raw)

	var owned, untouched int
	require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT count(*) FROM cminmsgs WHERE CMINMSGS_STATUS = 'OWNER'").Scan(&owned))
	require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT count(*) FROM cminmsgs WHERE CMINMSGS_DATE_PROCESSED IS NULL").Scan(&untouched))
	require.Equal(t, 2, owned, "the owner's backfill is left as it was")
	require.Equal(t, 3, untouched, "shadow mode never backfills")
	require.Zero(t, count(t, pg.Pool, "SELECT count(*) FROM msg_event"), "no outbox events")
	require.Zero(t, count(t, pg.Pool, "SELECT count(*) FROM backfill_todo"))

	code, body := sendWith(t, s.base, testSendToken, day[0])
	require.Equal(t, http.StatusConflict, code, "%s", body)
	code, body = httpDo(t, http.MethodGet, s.base+"/readyz", "", "")
	require.Equal(t, http.StatusOK, code, "%s", body)
	require.Contains(t, string(body), `"shadow":true`)
	require.NotContains(t, string(body), `"kafka"`)
	_, body = httpDo(t, http.MethodGet, s.base+"/metrics", "", "")
	require.Contains(t, string(body), "msgx_shadow 1")
	require.True(t, strings.Contains(s.logs.String(), `"shadow":true`), "logs say shadow")
}
