package api_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/readiness"
)

func TestHealthzAlwaysAnswers(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	// Even without a database, a mailbox or a readiness hook, the process is alive.
	base := e.serve(t, func(d *api.Deps) { d.Store = nil; d.Mailbox = nil })
	res, body := call(t, http.MethodGet, base+"/healthz", nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	require.JSONEq(t, `{"status":"ok"}`, string(body))
}

type readyAnswer struct {
	Ready  bool                    `json:"ready"`
	Role   string                  `json:"role"`
	Shadow bool                    `json:"shadow"`
	Checks []readiness.CheckResult `json:"checks"`
}

func readyz(t *testing.T, base string) (int, readyAnswer) {
	t.Helper()
	res, body := call(t, http.MethodGet, base+"/readyz", nil, nil)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	var a readyAnswer
	require.NoError(t, json.Unmarshal(body, &a), "%s", body)
	return res.StatusCode, a
}

// kafkaCheck dials a TCP address as a broker check would.
func kafkaCheck(addr string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err != nil {
			return err
		}
		return c.Close()
	}
}

func TestReadyzChecksTheDependencies(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	broker, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { broker.Close() })
	gone, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	goneAddr := gone.Addr().String()
	require.NoError(t, gone.Close())

	// The state the hook reads; the server reads it on its own goroutines.
	var mu sync.Mutex
	role, shadow, kafkaAddr := string(leader.Leader), false, broker.Addr().String()
	set := func(r string, sh bool, k string) { mu.Lock(); role, shadow, kafkaAddr = r, sh, k; mu.Unlock() }
	mode := func() (string, bool) { mu.Lock(); defer mu.Unlock(); return role, shadow }
	kafka := func(ctx context.Context) error {
		mu.Lock()
		addr := kafkaAddr
		mu.Unlock()
		return kafkaCheck(addr)(ctx)
	}
	base := e.serve(t, func(d *api.Deps) {
		d.Ready = readiness.Prober(mode, time.Second,
			readiness.Check{Name: "postgres", Run: e.pg.Pool.Ping},
			readiness.Check{Name: "mailbox", Run: e.mb.Ping},
			readiness.Check{Name: "kafka", Run: kafka})
	})

	code, a := readyz(t, base)
	require.Equal(t, http.StatusOK, code, "%+v", a)
	require.True(t, a.Ready)
	require.Equal(t, string(leader.Leader), a.Role)
	require.Equal(t, []readiness.CheckResult{{Name: "postgres", OK: true}, {Name: "mailbox", OK: true}, {Name: "kafka", OK: true}}, a.Checks)

	// A standby in shadow mode is ready too, and says so.
	set(string(leader.Standby), true, broker.Addr().String())
	code, a = readyz(t, base)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, string(leader.Standby), a.Role)
	require.True(t, a.Shadow)

	// Kafka unreachable: 503, the failing check named with its error.
	set(string(leader.Leader), false, goneAddr)
	code, a = readyz(t, base)
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.False(t, a.Ready)
	require.True(t, a.Checks[0].OK)
	require.Equal(t, "kafka", a.Checks[2].Name)
	require.False(t, a.Checks[2].OK)
	require.Equal(t, "connection refused", a.Checks[2].Error)
	require.NotContains(t, a.Checks[2].Error, goneAddr, "no address on a public route")

	// Still starting (the leader lock not decided): 503 even with every check ok.
	set(string(leader.Starting), false, broker.Addr().String())
	code, a = readyz(t, base)
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Equal(t, string(leader.Starting), a.Role)
	require.True(t, a.Checks[0].OK && a.Checks[1].OK && a.Checks[2].OK)
}

func TestReadyzDatabaseDownOrHung(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	closed, err := pgxpool.New(t.Context(), e.pg.URL)
	require.NoError(t, err)
	closed.Close()
	hung := make(chan struct{})
	t.Cleanup(func() { close(hung) })
	base := e.serve(t, withAdmin, func(d *api.Deps) {
		d.Ready = readiness.Prober(func() (string, bool) { return string(leader.Leader), false }, 300*time.Millisecond,
			readiness.Check{Name: "postgres", Run: closed.Ping},
			readiness.Check{Name: "mailbox", Run: func(context.Context) error { <-hung; return nil }})
	})
	start := time.Now()
	code, a := readyz(t, base)
	require.Less(t, time.Since(start), 10*time.Second, "bounded by the check timeout")
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.False(t, a.Checks[0].OK)
	require.Equal(t, "connection lost", a.Checks[0].Error, "the kind of failure, not the driver's words")
	require.False(t, a.Checks[1].OK)
	require.Contains(t, a.Checks[1].Error, "timed out")
	// The admin route shows the driver's words.
	res, body := call(t, http.MethodGet, base+"/admin/readyz", bearer(adminToken), nil)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	require.Contains(t, string(body), "closed pool")

	// Without a hook the instance never claims readiness.
	code, a = readyz(t, e.serve(t))
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.False(t, a.Ready)
	require.Equal(t, string(leader.Starting), a.Role)
}

func TestMetricsRoute(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	m := metrics.New(e.st, e.clk, metrics.WithLogger(quiet))
	base := e.serve(t, func(d *api.Deps) { d.Metrics = m })
	scrape := func() map[string]float64 {
		res, body := call(t, http.MethodGet, base+"/metrics", nil, nil)
		require.Equal(t, http.StatusOK, res.StatusCode)
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
		require.NoError(t, err)
		out := map[string]float64{}
		for name, f := range fams {
			if len(f.GetMetric()) == 1 && f.GetMetric()[0].GetGauge() != nil {
				out[name] = f.GetMetric()[0].GetGauge().GetValue()
			}
		}
		return out
	}

	v := scrape()
	require.Equal(t, 1.0, v["msgx_status_up"])
	require.Zero(t, v["msgx_queue_backlog"])
	require.Zero(t, v["msgx_leader"])

	// Messages sent through the API are the backlog until the pump runs.
	sendID(t, base, sisMsg("SCHD", "DNLD", 1, dnld7))
	sendID(t, base, sisMsg("FLOP", "STND", 2, "<FLOP><FLID>7</FLID><STND>201</STND></FLOP>"))
	e.enqueue(t)
	e.clk.Advance(time.Minute)
	m.SetLeader(true)
	v = scrape()
	require.Equal(t, 2.0, v["msgx_queue_backlog"])
	require.Equal(t, 60.0, v["msgx_queue_head_age_seconds"])
	require.Equal(t, 1.0, v["msgx_leader"])
	e.process(t)
	v = scrape()
	require.Zero(t, v["msgx_queue_backlog"])
	require.Equal(t, 2.0, v["msgx_backfill_todos"], "the backfiller has not run")

	// Not mounted without metrics.
	res, body := call(t, http.MethodGet, e.serve(t)+"/metrics", nil, nil)
	requireError(t, res, body, http.StatusNotFound)
}
