// Package deploy holds what a site installs besides the binary: the systemd
// units, /etc/msgx, the maintainer scripts (deploy/debian), the Prometheus
// alerts and the Grafana dashboard. Its tests check them, build the Debian
// package (`make package`) and look inside. That every metric the alerts
// and the dashboard use is one msgx exports is checked against a running
// service in internal/app (TestDeployMetricsAreExported).
package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/app"
)

// tool finds a command the test needs; without it the test skips with one
// line, except promtool under CI (.ci/run installs it).
func tool(t *testing.T, name string, requiredInCI bool) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if requiredInCI && os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing but CI=true: .ci/run installs it (apt-get install prometheus)", name)
	}
	t.Skipf("%s not installed: skipped", name)
	return ""
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
	return string(out)
}

func readYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := yaml.Parser().Unmarshal(b)
	require.NoError(t, err, path)
	return m
}

func list(v any) []any         { l, _ := v.([]any); return l }
func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

// The rules pass promtool's check and every unit test in
// msgx-alerts.test.yml.
func TestAlertRulesPromtool(t *testing.T) {
	t.Parallel()
	promtool := tool(t, "promtool", true)
	run(t, "prometheus", promtool, "check", "rules", "msgx-alerts.yml")
	out := run(t, "prometheus", promtool, "test", "rules", "msgx-alerts.test.yml")
	require.Contains(t, out, "SUCCESS")
}

// Every alert tells the operator what to do (summary, description naming
// its runbook section, which exists) and has a promtool case in which it
// fires.
func TestAlertsAreDocumentedAndTested(t *testing.T) {
	t.Parallel()
	runbook, err := os.ReadFile("../docs/alerts.md")
	require.NoError(t, err)
	anchors := map[string]bool{}
	for _, line := range strings.Split(string(runbook), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			anchors[strings.ToLower(strings.TrimSpace(h))] = true
		}
	}

	fired := map[string]bool{}
	for _, tc := range list(readYAML(t, "prometheus/msgx-alerts.test.yml")["tests"]) {
		for _, at := range list(obj(tc)["alert_rule_test"]) {
			if len(list(obj(at)["exp_alerts"])) > 0 {
				fired[obj(at)["alertname"].(string)] = true
			}
		}
	}

	var names []string
	for _, g := range list(readYAML(t, "prometheus/msgx-alerts.yml")["groups"]) {
		for _, r := range list(obj(g)["rules"]) {
			rule := obj(r)
			name, _ := rule["alert"].(string)
			require.NotEmpty(t, name, "every rule is an alert: %v", rule)
			names = append(names, name)
			ann := obj(rule["annotations"])
			require.NotEmpty(t, ann["summary"], name)
			desc, _ := ann["description"].(string)
			anchor := "docs/alerts.md#" + strings.ToLower(name)
			require.Contains(t, desc, "Runbook: "+anchor, "%s: the description links its runbook section", name)
			require.True(t, anchors[strings.ToLower(name)], "docs/alerts.md has no section ## %s", name)
			require.Contains(t, []string{"critical", "warning", "info"}, obj(rule["labels"])["severity"], name)
			require.True(t, fired[name], "%s: no promtool case in msgx-alerts.test.yml expects it to fire", name)
		}
	}
	// What the issue (#24) asks to be alerted on, at least.
	for _, want := range []string{"MsgxQueueHeadStuck", "MsgxDeadLettersIncreasing", "MsgxPumpPaused", "MsgxNoLeader",
		"MsgxNoStandby", "MsgxOutboxLag", "MsgxBackfillFailing", "MsgxKafkaDeliveryFailing", "MsgxIngressGaps",
		"MsgxIngressLateRows", "MsgxMaintenanceJobFailed", "MsgxMaintenanceJobNotRun", "MsgxNotReady"} {
		require.Contains(t, names, want)
	}
}

// The dashboard is valid JSON with a row per area and a query in every
// panel; its metric names are checked against msgx in internal/app.
func TestDashboard(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("grafana/msgx.json")
	require.NoError(t, err)
	var d struct {
		UID    string `json:"uid"`
		Panels []struct {
			ID      int    `json:"id"`
			Type    string `json:"type"`
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	require.NoError(t, json.Unmarshal(b, &d))
	require.Equal(t, "msgx", d.UID)
	var rows []string
	ids := map[int]bool{}
	for _, p := range d.Panels {
		require.False(t, ids[p.ID], "panel id %d twice", p.ID)
		ids[p.ID] = true
		if p.Type == "row" {
			rows = append(rows, p.Title)
			continue
		}
		require.NotEmpty(t, p.Targets, p.Title)
		for _, tg := range p.Targets {
			require.Contains(t, tg.Expr, `job="$job"`, "%s: every query is of the selected job", p.Title)
		}
	}
	require.Equal(t, []string{"Queue", "Outcomes", "Latency", "Outbox", "Backfill", "Requests", "Maintenance", "Leader"}, rows)
}

// The packaged /etc/msgx/config.yaml is production-safe: it holds no
// secret, sets env prod, and with the secrets msgx.env documents it is a
// valid production configuration, while without them msgx refuses to start
// naming each one.
func TestSiteConfig(t *testing.T) {
	t.Parallel()
	const path = "debian/config.yaml"
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, secret := range []string{"postgres.url", "mailbox.dsn", "oracle.dsn", "admin-token", "send-token", "password", "brokers:"} {
		key := secret[strings.LastIndex(secret, ".")+1:]
		require.NotRegexp(t, `(?m)^\s*`+regexp.QuoteMeta(strings.TrimSuffix(key, ":"))+`:`, string(raw), "%s belongs in msgx.env", secret)
	}

	_, err = app.LoadConfig(path, func(string) string { return "" })
	require.Error(t, err, "prod without the secrets is refused")
	for _, v := range []string{"MSGX_PG_URL", "MSGX_MAILBOX_DSN", "MSGX_KAFKA_BROKERS", "MSGX_ADMIN_TOKEN", "MSGX_HTTP_SEND_TOKEN"} {
		require.Contains(t, err.Error(), v)
	}

	env, err := os.ReadFile("debian/msgx.env")
	require.NoError(t, err)
	site := map[string]string{}
	for _, line := range strings.Split(string(env), "\n") {
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "#"), "=")
		if ok && strings.HasPrefix(k, "MSGX_") {
			site[k] = strings.Trim(v, "'")
		}
	}
	for _, v := range []string{"MSGX_PG_URL", "MSGX_MAILBOX_DSN", "MSGX_KAFKA_BROKERS", "MSGX_ADMIN_TOKEN", "MSGX_HTTP_SEND_TOKEN"} {
		require.Contains(t, site, v, "msgx.env documents %s", v)
	}
	site["MSGX_ADMIN_TOKEN"] = strings.Repeat("a", 32)
	site["MSGX_HTTP_SEND_TOKEN"] = strings.Repeat("s", 32)
	delete(site, "MSGX_ORACLE_DSN")
	delete(site, "MSGX_KAFKA_TLS")
	delete(site, "MSGX_KAFKA_SASL_MECHANISM")
	delete(site, "MSGX_KAFKA_SASL_USERNAME")
	delete(site, "MSGX_KAFKA_SASL_PASSWORD")
	cfg, err := app.LoadConfig(path, func(k string) string { return site[k] })
	require.NoError(t, err)
	require.Equal(t, "prod", cfg.Env)
}

// unit is a systemd unit file: section → key → values in order.
type unit map[string]map[string][]string

func parseUnit(t *testing.T, path string) unit {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	u, section := unit{}, ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			section = strings.Trim(line, "[]")
			u[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(line, "=")
			require.True(t, ok, "%s: %q", path, line)
			u[section][k] = append(u[section][k], v)
		}
	}
	return u
}

// checkUnits holds msgx.service to the list and msgx@.service to
// msgx.service; with systemd-analyze, the exposure score too.
func checkUnits(t *testing.T, dir string) {
	t.Helper()
	main := parseUnit(t, filepath.Join(dir, "msgx.service"))
	s := main["Service"]
	want := map[string]string{
		"Type": "notify", "NotifyAccess": "main", "ExecStart": "/usr/bin/msgx serve --config /etc/msgx/config.yaml",
		"User": "msgx", "Group": "msgx", "Restart": "on-failure", "RestartPreventExitStatus": "2", "WatchdogSec": "30s",
		"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
		"PrivateDevices": "yes", "ProtectKernelTunables": "yes", "ProtectKernelModules": "yes", "ProtectControlGroups": "yes",
		"RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6", "RestrictNamespaces": "yes", "LockPersonality": "yes",
		"MemoryDenyWriteExecute": "yes", "CapabilityBoundingSet": "", "SystemCallArchitectures": "native",
	}
	for k, v := range want {
		require.Equal(t, []string{v}, s[k], "msgx.service %s=", k)
	}
	require.Equal(t, []string{"-/etc/msgx/msgx.env"}, s["EnvironmentFile"])
	require.Equal(t, []string{"multi-user.target"}, main["Install"]["WantedBy"])

	tmpl := parseUnit(t, filepath.Join(dir, "msgx@.service"))
	require.Equal(t, []string{"-/etc/msgx/msgx.env", "/etc/msgx/%i.env"}, tmpl["Service"]["EnvironmentFile"])
	for section, keys := range main {
		for k, v := range keys {
			if k == "Description" || k == "EnvironmentFile" {
				continue
			}
			require.Equal(t, v, tmpl[section][k], "msgx@.service [%s] %s= differs from msgx.service", section, k)
		}
	}

	// The exposure score systemd-analyze gives (docs/deploy.md says 1.2):
	// --threshold is ten times the score.
	if sa, err := exec.LookPath("systemd-analyze"); err == nil {
		for _, name := range []string{"msgx.service", "msgx@.service"} {
			path, err := filepath.Abs(filepath.Join(dir, name))
			require.NoError(t, err)
			out := run(t, dir, sa, "security", "--offline=true", "--threshold=12", path)
			require.Contains(t, out, "Overall exposure level")
		}
	} else {
		t.Log("systemd-analyze not installed: exposure score not checked")
	}
}

func TestSystemdUnits(t *testing.T) {
	t.Parallel()
	checkUnits(t, "systemd")
}

// make package builds the .deb; extracted, its binary carries the version
// and commit, its files are where and as the docs say, its units pass.
func TestDebPackage(t *testing.T) {
	t.Parallel()
	dpkg := tool(t, "dpkg-deb", false)
	tool(t, "make", false)
	tmp := t.TempDir()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	// The same target an operator runs, with its version stamping; the
	// binary and the package go to the test's directory.
	mk := exec.Command("make", "--no-print-directory", "package", "BIN="+filepath.Join(tmp, "msgx"), "PKGDIR="+tmp,
		"VERSION=v9.8.7-3-gcafe123", "COMMIT=cafe123")
	mk.Dir = root
	// Under `make test` the outer make's flags are not the inner one's.
	mk.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "MAKEFLAGS=") || strings.HasPrefix(kv, "MFLAGS=") || strings.HasPrefix(kv, "MAKELEVEL=")
	})
	out, err := mk.CombinedOutput()
	require.NoError(t, err, "make package:\n%s", out)
	debs, err := filepath.Glob(filepath.Join(tmp, "*.deb"))
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(tmp, "msgx_9.8.7+3.gcafe123_amd64.deb")}, debs)
	deb := debs[0]

	x := filepath.Join(tmp, "x")
	run(t, tmp, dpkg, "-x", deb, x)
	run(t, tmp, dpkg, "-e", deb, filepath.Join(x, "DEBIAN"))
	version := run(t, tmp, filepath.Join(x, "usr/bin/msgx"), "--version")
	require.True(t, strings.HasPrefix(version, "msgx v9.8.7-3-gcafe123 (commit cafe123, go"), "%q", version)

	require.Equal(t, "msgx", strings.TrimSpace(run(t, tmp, dpkg, "-f", deb, "Package")))
	require.Equal(t, "9.8.7+3.gcafe123", strings.TrimSpace(run(t, tmp, dpkg, "-f", deb, "Version")))
	require.Equal(t, "amd64", strings.TrimSpace(run(t, tmp, dpkg, "-f", deb, "Architecture")))
	require.Contains(t, run(t, tmp, dpkg, "-f", deb, "Depends"), "adduser")
	conffiles, err := os.ReadFile(filepath.Join(x, "DEBIAN/conffiles"))
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"/etc/msgx/config.yaml", "/etc/msgx/msgx.env"}, strings.Fields(string(conffiles)))
	for _, script := range []string{"postinst", "prerm", "postrm"} {
		run(t, tmp, "sh", "-n", filepath.Join(x, "DEBIAN", script))
	}

	// Modes and owners as the archive records them.
	listing := run(t, tmp, dpkg, "-c", deb)
	modes := map[string]string{}
	for _, line := range strings.Split(listing, "\n") {
		f := strings.Fields(line)
		if len(f) >= 6 {
			modes[strings.TrimPrefix(f[len(f)-1], ".")] = f[0] + " " + f[1]
		}
	}
	for path, want := range map[string]string{
		"/usr/bin/msgx":                              "-rwxr-xr-x root/root",
		"/etc/msgx/config.yaml":                      "-rw-r----- root/root",
		"/etc/msgx/msgx.env":                         "-rw------- root/root",
		"/lib/systemd/system/msgx.service":           "-rw-r--r-- root/root",
		"/lib/systemd/system/msgx@.service":          "-rw-r--r-- root/root",
		"/usr/share/doc/msgx/README.md":              "-rw-r--r-- root/root",
		"/usr/share/doc/msgx/docs/deploy.md":         "-rw-r--r-- root/root",
		"/usr/share/doc/msgx/docs/alerts.md":         "-rw-r--r-- root/root",
		"/usr/share/doc/msgx/docs/config.md":         "-rw-r--r-- root/root",
		"/usr/share/doc/msgx/examples/standby.env":   "-rw-r--r-- root/root",
		"/usr/share/msgx/prometheus/msgx-alerts.yml": "-rw-r--r-- root/root",
		"/usr/share/msgx/grafana/msgx.json":          "-rw-r--r-- root/root",
	} {
		require.Equal(t, want, modes[path], path)
	}
	// The packaged files are the repository's.
	for src, dst := range map[string]string{"debian/config.yaml": "etc/msgx/config.yaml", "prometheus/msgx-alerts.yml": "usr/share/msgx/prometheus/msgx-alerts.yml"} {
		a, err := os.ReadFile(src)
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(x, dst))
		require.NoError(t, err)
		require.Equal(t, string(a), string(b), dst)
	}
	// Every migration of both dialects, as in the repository: the files
	// docs/upgrade.md has the DBA review and SQL*Plus run.
	for dialect, glob := range map[string]string{"postgres": "../sql/postgres/migrations/*.sql", "oracle11g": "../sql/oracle11g/migrations/*.sql"} {
		srcs, err := filepath.Glob(glob)
		require.NoError(t, err)
		require.NotEmpty(t, srcs)
		if dialect == "postgres" {
			srcs = append(srcs, "../sql/postgres/migrations/atlas.sum")
		}
		for _, src := range srcs {
			dst := "usr/share/msgx/migrations/" + dialect + "/" + filepath.Base(src)
			require.Equal(t, "-rw-r--r-- root/root", modes["/"+dst], dst)
			a, err := os.ReadFile(src)
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(x, dst))
			require.NoError(t, err, "the package ships %s", dst)
			require.Equal(t, string(a), string(b), dst)
		}
	}
	checkUnits(t, filepath.Join(x, "lib/systemd/system"))
	require.True(t, slices.Contains(strings.Fields(listing), "./usr/share/doc/msgx/docs/design.md"), "every doc is packaged")
}

// postinst configure creates the msgx user once and gives the config to its
// group, the secrets to root alone; run with stand-ins for the commands it
// calls, which log their arguments.
func TestPostinst(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	logf := filepath.Join(bin, "calls.log")
	stub := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name),
			[]byte("#!/bin/sh\necho \""+name+" $*\" >> "+logf+"\n"+body+"\n"), 0o755))
	}
	for _, c := range []string{"adduser", "chown", "chmod", "systemctl"} {
		stub(c, "exit 0")
	}
	stub("dpkg-statoverride", "exit 1") // no override
	script, err := filepath.Abs("debian/postinst")
	require.NoError(t, err)
	calls := func(userExists bool, args ...string) []string {
		t.Helper()
		stub("getent", map[bool]string{true: "echo msgx:x:999:999::/nonexistent:/usr/sbin/nologin", false: "exit 2"}[userExists])
		require.NoError(t, os.WriteFile(logf, nil, 0o644))
		cmd := exec.Command("sh", append([]string{script}, args...)...)
		cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		b, err := os.ReadFile(logf)
		require.NoError(t, err)
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	perms := []string{
		"getent passwd msgx",
		"dpkg-statoverride --list /etc/msgx/config.yaml",
		"chown root:msgx /etc/msgx/config.yaml", "chmod 0640 /etc/msgx/config.yaml",
		"chown root:root /etc/msgx/msgx.env", "chmod 0600 /etc/msgx/msgx.env",
	}
	got := calls(false, "configure")
	require.Equal(t, append([]string{perms[0], "adduser --system --group --no-create-home --home /nonexistent --quiet msgx"}, perms[1:]...),
		slices.DeleteFunc(got, func(c string) bool { return strings.HasPrefix(c, "systemctl") }))
	got = calls(true, "configure", "1.0.0")
	require.Equal(t, perms, slices.DeleteFunc(got, func(c string) bool { return strings.HasPrefix(c, "systemctl") }), "an upgrade: the user exists")
}

// The packager's own tests (nested module tools/package: Debian versions).
func TestPackagerTests(t *testing.T) {
	t.Parallel()
	run(t, "../tools/package", "go", "test", "-count=1", ".")
}
