package orastore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// A fake database/sql driver: it records the exact SQL text and named binds
// of every call and answers from a script, so the adapter is tested without
// an Oracle server (issue #15, check 4). Values come back as godror returns
// them: NUMBER as a decimal string type, TIMESTAMP WITH TIME ZONE and DATE as
// time.Time, CLOB as string.

type number string // godror.Number is a string type too

type oraError struct {
	code int
	msg  string
}

func (e *oraError) Error() string { return fmt.Sprintf("ORA-%05d: %s", e.code, e.msg) }
func (e *oraError) Code() int     { return e.code }

type call struct {
	SQL  string
	Args map[string]any
}

// answer is the reply to one call: rows for a query, rows affected for an
// exec, or an error.
type answer struct {
	cols     []string
	rows     [][]driver.Value
	affected int64
	err      error
}

type fakeDB struct {
	mu      sync.Mutex
	calls   []call
	answers []answer // consumed in order; none left: an empty success
	events  []string // BEGIN, COMMIT, ROLLBACK
	outs    []any    // values written to sql.Out binds, in order
}

func newFake(t *testing.T, answers ...answer) (*fakeDB, *Store) {
	t.Helper()
	f := &fakeDB{answers: answers}
	db := sql.OpenDB(f)
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return f, New(db, fakeBinder{})
}

func (f *fakeDB) next(query string, args []driver.NamedValue) answer {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := call{SQL: query, Args: map[string]any{}}
	for _, a := range args {
		c.Args[a.Name] = a.Value
	}
	f.calls = append(f.calls, c)
	for _, a := range args {
		if o, ok := a.Value.(sql.Out); ok && len(f.outs) > 0 {
			reflect.ValueOf(o.Dest).Elem().Set(reflect.ValueOf(f.outs[0]))
			f.outs = f.outs[1:]
		}
	}
	if len(f.answers) == 0 {
		return answer{}
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	return a
}

func (f *fakeDB) Connect(context.Context) (driver.Conn, error) { return &fakeConn{f}, nil }
func (f *fakeDB) Driver() driver.Driver                        { return fakeDriver{f} }

type fakeDriver struct{ f *fakeDB }

func (d fakeDriver) Open(string) (driver.Conn, error) { return &fakeConn{d.f}, nil }

type fakeConn struct{ f *fakeDB }

func (c *fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("fake: no prepare") }
func (c *fakeConn) Close() error                        { return nil }
func (c *fakeConn) Begin() (driver.Tx, error) {
	c.f.mu.Lock()
	c.f.events = append(c.f.events, "BEGIN")
	c.f.mu.Unlock()
	return fakeTx{c.f}, nil
}

// CheckNamedValue keeps every value as the adapter passed it (slices,
// collections), except that a driver.Valuer (sql.NullString, ...) is
// resolved, as godror does, so tests see NULL as nil.
func (c *fakeConn) CheckNamedValue(nv *driver.NamedValue) error {
	if v, ok := nv.Value.(driver.Valuer); ok {
		val, err := v.Value()
		nv.Value = val
		return err
	}
	return nil
}

func (c *fakeConn) ExecContext(_ context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	a := c.f.next(query, args)
	if a.err != nil {
		return nil, a.err
	}
	return driver.RowsAffected(a.affected), nil
}

func (c *fakeConn) QueryContext(_ context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	a := c.f.next(query, args)
	if a.err != nil {
		return nil, a.err
	}
	return &fakeRows{cols: a.cols, rows: a.rows}, nil
}

type fakeTx struct{ f *fakeDB }

func (t fakeTx) Commit() error   { t.f.event("COMMIT"); return nil }
func (t fakeTx) Rollback() error { t.f.event("ROLLBACK"); return nil }

func (f *fakeDB) event(e string) {
	f.mu.Lock()
	f.events = append(f.events, e)
	f.mu.Unlock()
}

type fakeRows struct {
	cols []string
	rows [][]driver.Value
}

func (r *fakeRows) Columns() []string { return r.cols }
func (r *fakeRows) Close() error      { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if len(r.rows) == 0 {
		return io.EOF
	}
	copy(dest, r.rows[0])
	r.rows = r.rows[1:]
	return nil
}

// fakeBinder passes lists as plain slices and marks CLOBs.
type fakeBinder struct{}

type clob string

func (fakeBinder) Numbers(_ context.Context, _ Execer, ids []int64) (any, error) { return ids, nil }
func (fakeBinder) Strings(_ context.Context, _ Execer, keys []string) (any, error) {
	return keys, nil
}
func (fakeBinder) Clob(s string) any { return clob(s) }

// rows builds an answer of one or more rows.
func rows(cols string, values ...[]driver.Value) answer {
	return answer{cols: strings.Fields(cols), rows: values}
}
