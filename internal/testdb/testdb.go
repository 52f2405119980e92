// Package testdb gives every integration test its own, real database:
//
//   - Postgres: a PostgreSQL database cloned from a template that holds msgx's
//     desired schema (built once, with schema.Apply), so a test starts from the
//     production schema in a few tens of milliseconds.
//   - PostgresEmpty: an empty PostgreSQL database (schema tooling tests).
//   - Mailbox: a MariaDB/MySQL database with the AODB mailbox tables.
//
// Each database is dropped in t.Cleanup, so tests are isolated from each other
// and safe with t.Parallel(), also across the parallel `go test` processes of
// different packages. An unreachable server fails the test: CI must never pass
// by skipping.
package testdb

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/internal/store/pgstore"

	"github.com/msgx-aodb/msgx/db/pgadmin"
	"github.com/msgx-aodb/msgx/internal/schema"
	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// DefaultPostgresURL is the server used when MSGX_TEST_PG_URL is not set.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// setupTimeout bounds creating a database, template build included.
const setupTimeout = 2 * time.Minute

// PG is one test's PostgreSQL database.
type PG struct {
	Pool *pgxpool.Pool // connected to the test database
	URL  string        // postgres:// URL of the test database
	Name string        // database name (msgx_t_<random>)
}

// Postgres returns a fresh database with msgx's desired schema in public.
func Postgres(t testing.TB) *PG {
	t.Helper()
	tpl, err := template()
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return newPG(t, tpl)
}

// PostgresEmpty returns a fresh database without msgx's tables.
func PostgresEmpty(t testing.TB) *PG {
	t.Helper()
	return newPG(t, "")
}

var admin = sync.OnceValues(func() (*sql.DB, error) {
	raw := os.Getenv("MSGX_TEST_PG_URL")
	if raw == "" {
		raw = DefaultPostgresURL
	}
	db, err := schema.Open(context.Background(), raw)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL for tests is unavailable (start it, or point MSGX_TEST_PG_URL at one): %w", err)
	}
	return db, nil
})

func adminURL() string {
	if u := os.Getenv("MSGX_TEST_PG_URL"); u != "" {
		return u
	}
	return DefaultPostgresURL
}

// newPG creates msgx_t_<random> (cloned from tpl unless empty), connects a
// pool and registers the drop.
func newPG(t testing.TB, tpl string) *PG {
	t.Helper()
	db, err := admin()
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	name := "msgx_t_" + randomHex(t)
	create := "CREATE DATABASE " + quote(name)
	if tpl != "" {
		create += " TEMPLATE " + quote(tpl)
	}
	if _, err := db.ExecContext(ctx, create); err != nil {
		t.Fatalf("testdb: create database: %v", err)
	}
	pg := &PG{Name: name, URL: withDatabase(adminURL(), name)}
	t.Cleanup(func() { dropPG(t, db, pg) })
	// The service's pool settings, so tests and benchmarks see its pool.
	pc, err := pgstore.ParsePoolConfig(pg.URL)
	if err != nil {
		t.Fatalf("testdb: %s: %v", name, err)
	}
	if pg.Pool, err = pgxpool.NewWithConfig(ctx, pc); err != nil {
		t.Fatalf("testdb: connect to %s: %v", name, err)
	}
	return pg
}

func dropPG(t testing.TB, db *sql.DB, pg *PG) {
	if pg.Pool != nil {
		// Close waits for connections a test still holds; FORCE below ends
		// them anyway, so do not wait for ever.
		done := make(chan struct{})
		go func() { pg.Pool.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+quote(pg.Name)+" WITH (FORCE)"); err != nil {
		t.Errorf("testdb: drop database %s: %v", pg.Name, err)
	}
}

// template returns the name of the template database for the embedded
// schema, building it on first use. The name carries a hash of the schema
// files, so parallel `go test` processes share one template and a schema
// change gets a new one; an advisory lock on that hash makes exactly one
// process build it.
var template = sync.OnceValues(func() (string, error) {
	db, err := admin()
	if err != nil {
		return "", err
	}
	sum, err := schemaHash()
	if err != nil {
		return "", err
	}
	name := "msgx_tpl_" + hex.EncodeToString(sum[:4])
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	if err := buildTemplate(ctx, db, name, int64(binary.BigEndian.Uint64(sum[:8]))); err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	return name, nil
})

func buildTemplate(ctx context.Context, db *sql.DB, name string, lockKey int64) (err error) {
	conn, err := db.Conn(ctx) // session advisory locks belong to one connection
	if err != nil {
		return err
	}
	defer conn.Close()
	admin := pgadmin.New()
	if err := admin.AdvisoryLock(ctx, conn, lockKey); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer func() {
		uerr := admin.AdvisoryUnlock(context.WithoutCancel(ctx), conn, lockKey)
		err = errors.Join(err, uerr)
	}()

	// datistemplate is set last, so it marks a complete template; anything
	// else under this name is the leftover of an interrupted build.
	isTemplate, err := admin.DatabaseIsTemplate(ctx, conn, name)
	switch {
	case err == nil && isTemplate:
		return nil
	case err == nil:
		if _, err := conn.ExecContext(ctx, "DROP DATABASE "+quote(name)+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop incomplete template: %w", err)
		}
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+quote(name)); err != nil {
		return err
	}
	tdb, err := schema.Open(ctx, withDatabase(adminURL(), name))
	if err != nil {
		return err
	}
	_, err = schema.Apply(ctx, tdb, schema.DefaultSchema)
	// CREATE DATABASE ... TEMPLATE fails while anyone is connected to it.
	if cerr := tdb.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("apply schema: %w", err)
	}
	// ALLOW_CONNECTIONS false keeps stray sessions from blocking clones.
	_, err = conn.ExecContext(ctx, "ALTER DATABASE "+quote(name)+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
	return err
}

// schemaHash identifies the embedded schema files (names and contents), and
// the harness revision, which changes when the template recipe does.
func schemaHash() ([sha256.Size]byte, error) {
	const recipe = "testdb/v1"
	h := sha256.New()
	h.Write([]byte(recipe))
	names, err := fs.Glob(sqlfiles.PostgresSchema, "postgres/schema/*.sql")
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := fs.ReadFile(sqlfiles.PostgresSchema, n)
		if err != nil {
			return [sha256.Size]byte{}, err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// withDatabase returns the server URL rawURL pointing at database name.
func withDatabase(rawURL, name string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL // admin() already reported it
	}
	u.Path = "/" + name
	return u.String()
}

func randomHex(t testing.TB) string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return hex.EncodeToString(b)
}

func quote(ident string) string { return pgx.Identifier{ident}.Sanitize() }
