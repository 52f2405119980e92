package app

// Requests to the AODB through the real binary (docs/design.md §7): the
// crash window between the coutmsgs insert and the SENT mark, and a request
// answered by a RESP that `msgx serve` applies.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// runBinary runs the real msgx with env and returns its exit code and output.
func runBinary(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(msgxBinary(t), args...)
	cmd.Env = env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); !ok {
		require.NoError(t, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// The process dies right after the insert into coutmsgs, before it marks
// the request SENT. The next request first finds that row by SNDR + SEQN
// and marks the request SENT from it: the row is never written twice.
func TestRequestCrashWindowRealBinary(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	st := pgstore.New(pg.Pool)
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_AIRPORT_TZ=Asia/Shanghai")
	rows := func() int {
		var n int
		require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM coutmsgs").Scan(&n))
		return n
	}

	code, out, stderr := runBinary(t, append(env, "MSGX_FAILPOINT=request-after-insert"),
		"request", "flights", "--from", "2026-12-04T00:00", "--to", "2026-12-04T23:59")
	require.Equal(t, 86, code, "killed by the failpoint: %s", stderr)
	require.Empty(t, out)
	require.Equal(t, 1, rows(), "the insert happened")
	open, err := st.OpenRequests(t.Context())
	require.NoError(t, err)
	require.Len(t, open, 1)
	crashed := open[0]
	require.Equal(t, vocab.RequestRegistered, crashed.Status, "the mark did not")

	code, out, stderr = runBinary(t, env, "request", "ref", "AIRL")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 2, rows(), "one new row: the RQRD; the RQFD is not sent again")
	got, err := st.Request(t.Context(), crashed.ID)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestSent, got.Status, "recovered from its own row")
	var first int64
	require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT MIN(COUTMSGS_ID) FROM coutmsgs").Scan(&first))
	require.Equal(t, first, *got.OutboundID)
	require.True(t, strings.HasSuffix(strings.TrimSpace(out), "\t"+strconv.FormatInt(first+1, 10)), "the RQRD is the new row: %q", out)
}

// `msgx serve` answers a request end to end: POST /admin/requests writes
// the RQFD to coutmsgs; the AODB's RESP is applied, pruning inside the
// range only, and the request becomes DONE. A RESP sent before the request
// is SKIPPED.
func TestRequestAnsweredThroughServe(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	st := pgstore.New(pg.Pool)
	mb := mailbox.New(mbdb, mailbox.WithZone(shanghai))
	addr := freeAddr(t)
	const token = "request-test-admin-token"
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_ADMIN_TOKEN="+token)
	p := startProc(t, env, addr)

	// Today has no generation: the leader asked for it at start.
	eventually(t, 30*time.Second, "the on-start request", func() bool {
		open, err := st.OpenRequests(t.Context())
		require.NoError(t, err)
		return len(open) == 1 && open[0].Status == vocab.RequestSent
	})

	_, err := mb.Insert(t.Context(), []byte(dnld(1, fltr(1, ""), fltr(2, ""))), time.Now())
	require.NoError(t, err)
	unsolicitedID, err := mb.Insert(t.Context(), []byte(resp(2, time.Now().Add(-time.Hour), fltr(1, ""))), time.Now())
	require.NoError(t, err)
	eventually(t, 30*time.Second, "the DNLD and the early RESP", func() bool {
		m, err := st.Message(t.Context(), unsolicitedID)
		return err == nil && m.Status == vocab.StatusSkipped
	})
	m, err := st.Message(t.Context(), unsolicitedID)
	require.NoError(t, err)
	require.Equal(t, "no-match:request", m.Reason)

	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, p.base+"/admin/requests",
		strings.NewReader(`{"kind":"RQFD","from":"2026-12-02T00:00","to":"2026-12-02T23:59"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var sent vocab.Request
	require.NoError(t, json.NewDecoder(res.Body).Decode(&sent))
	res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)
	require.Equal(t, vocab.RequestSent, sent.Status)

	respID, err := mb.Insert(t.Context(), []byte(resp(3, time.Now().Add(time.Second), fltr(1, "<STND>R1</STND>"))), time.Now())
	require.NoError(t, err)
	eventually(t, 30*time.Second, "the RESP applied", func() bool {
		m, err := st.Message(t.Context(), respID)
		return err == nil && m.Status == vocab.StatusSucceeded
	})
	m, err = st.Message(t.Context(), respID)
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf("request:%d (degraded)", sent.ID), m.Reason)
	done, err := st.Request(t.Context(), sent.ID)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestDone, done.Status)
	require.Equal(t, respID, *done.ResponseMsgID)
	flights, err := st.Flights(t.Context(), []int64{1, 2})
	require.NoError(t, err)
	require.Equal(t, "DELETED", string(flights[2].Lifecycle), "2 is in the range and absent: pruned")
	require.Equal(t, "R1", flights[1].Scalars["STND"].Raw)

	code, _ := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code, p.stderr.String())
}

// The reproduction on the real binary: every leader start wrote a
// new RQFD for a day without a generation (33 in 32 restarts). Three starts
// now send one: the later leaders find it waiting for its answer.
func TestLeaderRestartsSendOneRequest(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	st := pgstore.New(pg.Pool)
	addr := freeAddr(t)
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms")
	for start := range 3 {
		p := startProc(t, env, addr)
		eventually(t, 30*time.Second, "the leader's start trigger", func() bool {
			return strings.Contains(p.stderr.String(), "at leader start")
		})
		if start > 0 {
			require.Contains(t, p.stderr.String(), "no request at leader start", "start %d", start)
		}
		code, _ := p.terminate(t, 10*time.Second)
		require.Equal(t, 0, code, p.stderr.String())
	}
	var rows int
	require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM coutmsgs").Scan(&rows))
	require.Equal(t, 1, rows, "one RQFD in three leader starts")
	all, err := st.Requests(t.Context(), 1<<62, 10)
	require.NoError(t, err)
	require.Len(t, all, 1)
	require.Equal(t, vocab.RequestSent, all[0].Status)
	require.Equal(t, vocab.OriginOnStart, all[0].Origin)
}

// resp is a SCHD/RESP sent at dttm (airport time).
func resp(seqn int, dttm time.Time, records ...string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><MSG><META><SNDR>AODB</SNDR><SEQN>%d</SEQN>`+
		`<DTTM>%s</DTTM><TYPE>SCHD</TYPE><STYP>RESP</STYP></META><SCHD><RECS>%d</RECS>%s</SCHD></MSG>`,
		seqn, dttm.In(shanghai).Format("20060102150405"), len(records), strings.Join(records, ""))
}
