// Package orastore is the Oracle 11g Release 2 adapter of the store
// interface, over database/sql (godror in production, a fake driver in the
// unit tests). Every statement is loaded by name from the embedded
// sql/oracle11g/queries files (no SQL in Go), bound by name with exactly the
// binds the file names, and every driver error goes through interpret.
//
// The dialect's rules are in sql/oracle11g/README.md and queries/README.md:
// ” is NULL (absent and empty are both NULL; the codec never produces an
// empty Set), days are DATE at midnight bound as YYYY-MM-DD, instants are
// TIMESTAMP WITH TIME ZONE truncated to the microsecond, id lists are
// collections read through TABLE(), and every writer of MSG_EVENT holds
// PIPELINE_LOCK before MSG_EVENT_SEQ.NEXTVAL so event ids commit in order.
package orastore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Binder makes the driver-specific bind values: the collections that
// TABLE(:x) reads and CLOBs. Godror's is in godror.go; tests pass plain values.
type Binder interface {
	// Numbers is a SYS.ODCINUMBERLIST of the ids, for a statement run on ex.
	Numbers(ctx context.Context, ex Execer, ids []int64) (any, error)
	// Strings is a SYS.ODCIVARCHAR2LIST of the keys.
	Strings(ctx context.Context, ex Execer, keys []string) (any, error)
	// Clob binds text as a CLOB (values over 4000 bytes, and inside MERGE ... FROM DUAL).
	Clob(s string) any
}

// Execer is what a pool, a pinned connection and a transaction offer.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Store is the Oracle store over a database/sql pool.
type Store struct {
	executor
	db *sql.DB
}

var _ store.Store = (*Store)(nil)

// New wraps a pool; the caller keeps ownership unless it calls Close.
func New(db *sql.DB, b Binder) *Store {
	return &Store{executor: executor{ex: db, db: db, bind: b}, db: db}
}

// Close closes the pool.
func (s *Store) Close() { _ = s.db.Close() }

// DB is the pool (schema tooling, the leader's Dial).
func (s *Store) DB() *sql.DB { return s.db }

// executor implements store.Executor on the pool or inside a transaction.
type executor struct {
	ex    Execer
	db    *sql.DB // the pool; nil inside a transaction
	tx    *sql.Tx
	depth int // savepoint depth inside tx (0: the transaction itself)
	bind  Binder
}

// Begin starts a transaction, or a savepoint when called on a transaction.
func (e executor) Begin(ctx context.Context) (store.Tx, error) {
	if e.tx == nil {
		t, err := e.db.BeginTx(ctx, nil)
		if err != nil {
			return nil, interpret(ctx, err)
		}
		return &tx{executor: executor{ex: t, tx: t, bind: e.bind}}, nil
	}
	n := executor{ex: e.tx, tx: e.tx, depth: e.depth + 1, bind: e.bind}
	if err := n.savepoint(ctx, "Savepoint"); err != nil {
		return nil, err
	}
	return &tx{executor: n}, nil
}

// savepoint runs Savepoint or RollbackToSavepoint with this depth's name
// (the query text ends with the name's prefix): Oracle has no RELEASE
// SAVEPOINT, and a name reused at another depth would erase the outer one.
func (e executor) savepoint(ctx context.Context, name string) error {
	q := mustQuery(name)
	_, err := e.ex.ExecContext(ctx, q.SQL+strconv.Itoa(e.depth))
	return interpret(ctx, err)
}

type tx struct {
	executor
	done bool
}

func (t *tx) Commit(ctx context.Context) error {
	if t.done {
		return errors.New("orastore: transaction already finished")
	}
	t.done = true
	if t.depth > 0 {
		return nil // the savepoint lapses at the outer commit or rollback
	}
	return interpret(ctx, t.tx.Commit())
}

// Rollback is safe after Commit (then it does nothing).
func (t *tx) Rollback(ctx context.Context) error {
	if t.done {
		return nil
	}
	t.done = true
	if t.depth > 0 {
		return t.savepoint(ctx, "RollbackToSavepoint")
	}
	err := t.tx.Rollback()
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return interpret(ctx, err)
}

// exec runs a named statement with exactly its binds.
func (e executor) exec(ctx context.Context, name string, binds map[string]any) (sql.Result, error) {
	q := mustQuery(name)
	args, err := q.args(binds)
	if err != nil {
		return nil, err
	}
	r, err := e.ex.ExecContext(ctx, q.SQL, args...)
	return r, interpret(ctx, err)
}

// execRows runs a named statement and returns the rows it affected.
func (e executor) execRows(ctx context.Context, name string, binds map[string]any) (int64, error) {
	r, err := e.exec(ctx, name, binds)
	if err != nil {
		return 0, err
	}
	n, err := r.RowsAffected()
	return n, interpret(ctx, err)
}

// query runs a named query and scans every row with scan.
func (e executor) query(ctx context.Context, name string, binds map[string]any, scan func(*sql.Rows) error) error {
	q := mustQuery(name)
	args, err := q.args(binds)
	if err != nil {
		return err
	}
	rows, err := e.ex.QueryContext(ctx, q.SQL, args...)
	if err != nil {
		return interpret(ctx, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			if errors.Is(err, errStop) {
				return nil // the rest is not fetched (and, under SKIP LOCKED, not locked)
			}
			return interpret(ctx, err)
		}
	}
	return interpret(ctx, rows.Err())
}

// errStop ends a query's fetch early without an error.
var errStop = errors.New("stop fetching")

// queryOne is query for a :one statement: ErrNotFound without a row.
func (e executor) queryOne(ctx context.Context, name string, binds map[string]any, scan func(*sql.Rows) error) error {
	found := false
	err := e.query(ctx, name, binds, func(r *sql.Rows) error {
		if found {
			return nil
		}
		found = true
		return scan(r)
	})
	if err == nil && !found {
		return interpret(ctx, sql.ErrNoRows)
	}
	return err
}

func (e executor) numbers(ctx context.Context, ids []int64) (any, error) {
	v, err := e.bind.Numbers(ctx, e.ex, ids)
	return v, interpret(ctx, err)
}

func (e executor) strs(ctx context.Context, keys []string) (any, error) {
	v, err := e.bind.Strings(ctx, e.ex, keys)
	return v, interpret(ctx, err)
}

// Values in and out: '' is NULL in Oracle.

// text binds a string, "" as NULL: absent and empty are the same in Oracle,
// as pgstore's nilIfEmpty makes them in PostgreSQL.
func text(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// instant binds a time as TIMESTAMP WITH TIME ZONE, truncated to the
// microsecond as pgx sends it (Oracle would round into TIMESTAMP(6)).
func instant(t time.Time) time.Time { return t.Truncate(time.Microsecond) }

func instantPtr(t *time.Time) sql.NullTime {
	if t == nil {
		return sql.NullTime{}
	}
	return sql.NullTime{Time: instant(*t), Valid: true}
}

func int64Ptr(p *int64) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *p, Valid: true}
}

// day binds a calendar day as the 'YYYY-MM-DD' text TO_DATE reads (DATE at
// midnight, never a TIMESTAMP WITH TIME ZONE: sql/oracle11g/README.md).
func day(t time.Time) string { return t.Format(time.DateOnly) }

// dayOf keeps only the calendar day of a DATE read back, in UTC as pgx reads a date.
func dayOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time
	return &v
}

func int64P(v sql.NullInt64) *int64 {
	if !v.Valid {
		return nil
	}
	n := v.Int64
	return &n
}
