package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
)

// metricName is a msgx series name in a PromQL expression.
var metricName = regexp.MustCompile(`\bmsgx_[a-z0-9_]+`)

// deployMetricNames are the msgx series the shipped alerts and dashboard
// query (deploy/prometheus, deploy/grafana), each with where it is used.
func deployMetricNames(t *testing.T) map[string]string {
	t.Helper()
	names := map[string]string{}
	add := func(where, expr string) {
		for _, n := range metricName.FindAllString(expr, -1) {
			names[n] = where
		}
	}
	b, err := os.ReadFile("../../deploy/prometheus/msgx-alerts.yml")
	require.NoError(t, err)
	rules, err := yaml.Parser().Unmarshal(b)
	require.NoError(t, err)
	for _, g := range rules["groups"].([]any) {
		for _, r := range g.(map[string]any)["rules"].([]any) {
			rule := r.(map[string]any)
			add("alert "+rule["alert"].(string), rule["expr"].(string))
		}
	}
	b, err = os.ReadFile("../../deploy/grafana/msgx.json")
	require.NoError(t, err)
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	require.NoError(t, json.Unmarshal(b, &dash))
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			add("dashboard panel "+p.Title, tg.Expr)
		}
	}
	require.Greater(t, len(names), 30, "the alerts and the dashboard were read")
	return names
}

// scrapedNames are the series names of one /metrics answer.
func scrapedNames(t *testing.T, base string) map[string]bool {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexAny(line, "{ "); i > 0 {
			names[line[:i]] = true
		}
	}
	return names
}

// Every metric an alert or the dashboard uses is one msgx serve exports: a
// real service, after a message went through, Kafka delivered its events
// and the maintenance jobs ran (series with labels appear on first use).
func TestDeployMetricsAreExported(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	_, dsn := testdb.Mailbox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, testConfig(pg.URL, dsn), slog.New(slog.NewJSONHandler(io.Discard, nil)),
			Options{Listener: ln, MaintenanceStagger: time.Millisecond})
	}()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	waitTerminal(t, base, post(t, base, dnld(1, fltr(41, ""))))

	want := deployMetricNames(t)
	var missing []string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got := scrapedNames(t, base)
		missing = missing[:0]
		for n, where := range want {
			if !got[n] {
				missing = append(missing, n+" ("+where+")")
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
	}
	slices.Sort(missing)
	require.Empty(t, missing, "used by the alerts or the dashboard, not exported by msgx serve")
}
