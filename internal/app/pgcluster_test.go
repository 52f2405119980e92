package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/schema"
)

// pgCluster is a private PostgreSQL server, initdb'd into a temporary
// directory for one test, which the test may stop and start: the shared
// server is never restarted. As root, its commands run as the postgres user
// (PostgreSQL refuses to run as root).
type pgCluster struct {
	bin  string // directory of initdb and pg_ctl
	data string
	port int
	opts string // the server's options (port, socket directory, ...)
	as   string // run the commands as this user; "" = as this process
}

// newPGCluster starts a private cluster, or skips the test when no initdb
// is installed.
func newPGCluster(t *testing.T) *pgCluster {
	t.Helper()
	bin := pgBinDir()
	if bin == "" {
		t.Skip("initdb not found (PATH, /usr/lib/postgresql/*/bin): no private PostgreSQL to restart")
	}
	dir, err := os.MkdirTemp("", "msgx-pgcluster-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &pgCluster{bin: bin, data: filepath.Join(dir, "data"), port: freePort(t)}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root without a postgres user: no private PostgreSQL to restart")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		require.NoError(t, os.Chown(dir, uid, gid))
		c.as = "postgres"
	}
	c.run(t, "initdb", "-D", c.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
	c.opts = fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", c.port, dir)
	c.Start(t)
	t.Cleanup(func() { _ = c.command("pg_ctl", "-D", c.data, "-m", "immediate", "-w", "stop").Run() })
	return c
}

// pgBinDir finds the directory of initdb and pg_ctl.
func pgBinDir() string {
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	for i := len(dirs) - 1; i >= 0; i-- { // the newest version first
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i]
		}
	}
	return ""
}

func freePort(t *testing.T) int {
	t.Helper()
	_, port, ok := strings.Cut(freeAddr(t), ":")
	require.True(t, ok)
	n, err := strconv.Atoi(port)
	require.NoError(t, err)
	return n
}

func (c *pgCluster) command(name string, args ...string) *exec.Cmd {
	path := filepath.Join(c.bin, name)
	if c.as != "" {
		return exec.Command("runuser", append([]string{"-u", c.as, "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

func (c *pgCluster) run(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := c.command(name, args...).CombinedOutput()
	require.NoError(t, err, "%s: %s", name, out)
}

// Stop shuts the server down (fast: sessions are ended); Start starts it
// again with the same settings.
func (c *pgCluster) Stop(t *testing.T) { c.run(t, "pg_ctl", "-D", c.data, "-m", "fast", "-w", "stop") }
func (c *pgCluster) Start(t *testing.T) {
	c.run(t, "pg_ctl", "-D", c.data, "-l", filepath.Join(filepath.Dir(c.data), "log"), "-w", "-o", c.opts, "start")
}

// URL is the postgres:// URL of database db.
func (c *pgCluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// Database creates db with msgx's schema and returns its URL.
func (c *pgCluster) Database(t *testing.T, db string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	adm, err := schema.Open(ctx, c.URL("postgres"))
	require.NoError(t, err)
	defer adm.Close()
	_, err = adm.ExecContext(ctx, "CREATE DATABASE "+db)
	require.NoError(t, err)
	sdb, err := schema.Open(ctx, c.URL(db))
	require.NoError(t, err)
	defer sdb.Close()
	_, err = schema.Apply(ctx, sdb, schema.DefaultSchema)
	require.NoError(t, err)
	return c.URL(db)
}
