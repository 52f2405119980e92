//go:build !nooracle

package orastore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/godror/godror"
)

// Linked reports whether this build carries the godror driver (false with
// the nooracle build tag, for static builds).
const Linked = true

// Open connects to Oracle with a godror DSN (MSGX_ORACLE_DSN) and pings it.
// Every session sorts and compares text in binary (keyset paging of
// RefListByType depends on it). A missing Oracle client is ErrNoClient.
func Open(ctx context.Context, dsn string) (*Store, error) {
	P, err := godror.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("oracle dsn: %w", err)
	}
	P.SetSessionParamOnInit("NLS_SORT", "BINARY")
	P.SetSessionParamOnInit("NLS_COMP", "BINARY")
	P.SetSessionParamOnInit("TIME_ZONE", "'+00:00'")
	db := sql.OpenDB(godror.NewConnector(P))
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, openError(err)
	}
	return New(db, godrorBinder{}), nil
}

// godrorBinder binds id and key lists as the built-in 11g collections
// SYS.ODCINUMBERLIST / SYS.ODCIVARCHAR2LIST (no DDL needed), and text as CLOB.
type godrorBinder struct{}

func (godrorBinder) Numbers(ctx context.Context, ex Execer, ids []int64) (any, error) {
	return collection(ctx, ex, "SYS.ODCINUMBERLIST", len(ids), func(c godror.ObjectCollection, i int) error {
		return c.Append(ids[i])
	})
}

func (godrorBinder) Strings(ctx context.Context, ex Execer, keys []string) (any, error) {
	return collection(ctx, ex, "SYS.ODCIVARCHAR2LIST", len(keys), func(c godror.ObjectCollection, i int) error {
		return c.Append(keys[i])
	})
}

func (godrorBinder) Clob(s string) any {
	return godror.Lob{IsClob: true, Reader: strings.NewReader(s)}
}

// collection builds a collection object on the connection of ex (a pool
// hands godror one of its connections; the object is bound in the same call).
func collection(ctx context.Context, ex Execer, typeName string, n int, add func(godror.ObjectCollection, int) error) (any, error) {
	gex, ok := ex.(godror.Execer)
	if !ok {
		return nil, fmt.Errorf("orastore: %T cannot make %s", ex, typeName)
	}
	ot, err := godror.GetObjectType(ctx, gex, typeName)
	if err != nil {
		return nil, err
	}
	c, err := ot.NewCollection()
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		if err := add(c, i); err != nil {
			return nil, err
		}
	}
	return c, nil
}
