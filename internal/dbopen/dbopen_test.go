package dbopen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func pgConfig(url string) config.Config {
	cfg := config.Defaults()
	cfg.Dialect, cfg.PGURL = config.DialectPostgres, url
	return cfg
}

// TestOpenPostgres: the service's open gives the store, /readyz's check
// under the dependency's name, the leader's lock sessions (which msgx
// status then lists) and one close for all of it.
func TestOpenPostgres(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	ctx := t.Context()
	db, err := dbopen.Open(ctx, pgConfig(pg.URL), dbopen.Options{Leader: true})
	require.NoError(t, err)
	require.Equal(t, vocab.DependencyPostgres, db.Name)
	require.Equal(t, "PostgreSQL", db.Product)
	require.Equal(t, vocab.DependencyPostgres, db.Check.Name)
	require.NoError(t, db.Check.Run(ctx))
	_, err = db.Store.QueueHead(ctx, 1)
	require.NoError(t, err)

	require.NotNil(t, db.Dial)
	name := leader.AppNamePrefix + "test-host:1"
	sess, err := db.Dial(ctx, name)
	require.NoError(t, err)
	held, err := sess.Lock(ctx, 0)
	require.NoError(t, err)
	require.True(t, held)
	sessions, err := db.Sessions(ctx)
	require.NoError(t, err)
	require.Len(t, sessions, 1)
	require.Equal(t, name, sessions[0].Name)
	require.True(t, sessions[0].Leading)
	require.NoError(t, sess.Close(ctx))

	db.Close()
	require.Error(t, db.Check.Run(ctx), "Close closes the pool")
}

// TestOpenForACommand: an operator command opens no lock sessions; a
// database without msgx's tables opens, and its reads say ErrSchema.
func TestOpenForACommand(t *testing.T) {
	t.Parallel()
	pg := testdb.PostgresEmpty(t)
	ctx := t.Context()
	db, err := dbopen.Open(ctx, pgConfig(pg.URL), dbopen.Options{AppName: "msgx-cli", MaxConns: 2})
	require.NoError(t, err)
	defer db.Close()
	require.Nil(t, db.Dial)
	_, err = db.Store.QueueHead(ctx, 1)
	require.ErrorIs(t, err, store.ErrSchema)
}

// TestOpenErrors: each failure is one line naming the setting to check,
// never the URL's password.
func TestOpenErrors(t *testing.T) {
	t.Parallel()
	pg := testdb.PostgresEmpty(t)
	missing := strings.Replace(pg.URL, pg.Name, "msgx_no_such_database", 1)
	for _, c := range []struct {
		name, url, want string
	}{
		{"bad url", "postgres://u:secret@%zz", "PostgreSQL: postgres.url / MSGX_PG_URL is not a valid URL"},
		{"unreachable", "postgres://u:secret@127.0.0.1:1/x?sslmode=disable", "PostgreSQL unreachable (check postgres.url / MSGX_PG_URL)"},
		{"no database", missing, "PostgreSQL: no such database, or access denied (check postgres.url / MSGX_PG_URL)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := dbopen.Open(t.Context(), pgConfig(c.url), dbopen.Options{})
			require.ErrorContains(t, err, c.want)
			require.NotContains(t, err.Error(), "secret")
			require.NotContains(t, err.Error(), "\n")
		})
	}

	cfg := pgConfig("")
	cfg.Dialect = "mysql"
	_, err := dbopen.Open(t.Context(), cfg, dbopen.Options{})
	require.ErrorContains(t, err, `unknown dialect "mysql"`)
}

// TestOpenOracleWithoutServer: no Oracle server is here; the Oracle branch
// still says what to do in one line: install the client, use the default
// build, or check the DSN.
func TestOpenOracleWithoutServer(t *testing.T) {
	t.Parallel()
	cfg := config.Defaults()
	cfg.Dialect, cfg.OracleDSN = config.DialectOracle11g, "msgx/secret@127.0.0.1:1/NOSUCH"
	_, err := dbopen.Open(t.Context(), cfg, dbopen.Options{Leader: true})
	require.Error(t, err)
	require.NotContains(t, err.Error(), "\n")
	if !errors.Is(err, orastore.ErrNoClient) && !errors.Is(err, orastore.ErrNotLinked) {
		require.ErrorContains(t, err, "Oracle unreachable (check oracle.dsn / MSGX_ORACLE_DSN)")
	}
}

func TestName(t *testing.T) {
	t.Parallel()
	require.Equal(t, vocab.DependencyPostgres, dbopen.Name(""))
	require.Equal(t, vocab.DependencyPostgres, dbopen.Name(config.DialectPostgres))
	require.Equal(t, vocab.DependencyOracle, dbopen.Name(config.DialectOracle11g))
}
