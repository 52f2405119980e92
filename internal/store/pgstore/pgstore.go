// Package pgstore is the PostgreSQL adapter of the store interface, a thin
// layer over the sqlc-generated db/postgres package: it converts params and
// rows between domain values and generated types and maps pgx errors to the
// store error kinds.
package pgstore

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore/pgarg"
)

// conn is what both the pool and a pgx transaction offer.
type conn interface {
	postgres.DBTX
	Begin(ctx context.Context) (pgx.Tx, error)
}

// Store is the PostgreSQL store over a connection pool.
type Store struct {
	executor
	pool *pgxpool.Pool
}

var _ store.Store = (*Store)(nil)

// New wraps a pool. The caller keeps ownership of the pool unless it calls Close.
func New(pool *pgxpool.Pool) *Store {
	return &Store{executor: executor{db: pool, q: postgres.New()}, pool: pool}
}

// DefaultMaxConns is the pool size when the URL sets no pool_max_conns.
// pgx's own default (the CPU count, at least 4) is less than the service's
// concurrent users: the pump's transaction, its read-ahead, the poller, the
// backfill, the Kafka dispatcher and aggregator, the HTTP API; on a 2-core
// host they would queue for connections.
const DefaultMaxConns = 10

// ParsePoolConfig parses a PostgreSQL URL into a pool configuration with
// msgx's defaults (DefaultMaxConns unless the URL says pool_max_conns;
// timestamps read in UTC; parameter and write buffers kept per connection).
func ParsePoolConfig(url string) (*pgxpool.Config, error) {
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(url, "pool_max_conns") {
		pc.MaxConns = DefaultMaxConns
	}
	pc.AfterConnect = ScanInUTC
	pc.ConnConfig.Tracer = pgarg.Tracer{} // keeps the write buffer (pgarg/writebuf.go)
	return pc, nil
}

// ScanInUTC makes a connection read timestamptz values in UTC, not in the
// machine's zone (pgx's default): every JSON document msgx writes carries
// UTC times with Z (docs/api.md, "Times"), whatever TZ the host runs in.
// It also has the connection read nullable columns into slabs of values
// (tryPointerSlab, textCodec), not one allocation each, and write []int64
// and the arrays of pgarg's types without boxing each element
// (pgarg.Register).
func ScanInUTC(_ context.Context, c *pgx.Conn) error {
	m := c.TypeMap()
	m.RegisterType(&pgtype.Type{Name: "timestamptz", OID: pgtype.TimestamptzOID,
		Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC}})
	m.TryWrapScanPlanFuncs = append([]pgtype.TryWrapScanPlanFunc{tryPointerSlab}, m.TryWrapScanPlanFuncs...)
	registerTextSlabs(m)
	pgarg.Register(m)
	return nil
}

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// OnTx runs the store's operations in a transaction the caller began with
// options of its own: msgx compare reads every flight of a side in one
// read-only REPEATABLE READ transaction, one snapshot of the database.
func OnTx(t pgx.Tx) store.Executor { return executor{db: t, q: postgres.New()} }

// executor implements store.Executor on a pool or a transaction.
type executor struct {
	db conn
	q  *postgres.Queries
}

// Begin starts a transaction, or a savepoint when called on a transaction.
func (e executor) Begin(ctx context.Context) (store.Tx, error) {
	t, err := e.db.Begin(ctx)
	if err != nil {
		return nil, interpret(err)
	}
	return &tx{executor: executor{db: t, q: e.q}, tx: t}, nil
}

type tx struct {
	executor
	tx pgx.Tx
}

func (t *tx) Commit(ctx context.Context) error { return interpret(t.tx.Commit(ctx)) }

func (t *tx) Rollback(ctx context.Context) error {
	err := t.tx.Rollback(ctx)
	if errors.Is(err, pgx.ErrTxClosed) {
		return nil
	}
	return interpret(err)
}

// Connect opens a pool with pc and checks that the server answers; its
// errors are the store's kinds (ErrUnavailable, ErrNoDatabase).
func Connect(ctx context.Context, pc *pgxpool.Config) (*pgxpool.Pool, error) {
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, interpret(err)
	}
	return pool, nil
}
