package orastore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"

	"github.com/msgx-aodb/msgx/internal/store"
)

// oraCoder is what godror's *OraErr offers (and the fake driver's errors in
// tests): the ORA-nnnnn number.
type oraCoder interface{ Code() int }

// The ORA codes and the store error kinds they mean; the one place where
// Oracle's errors are read (sql/oracle11g/queries/README.md, "Errors").
var (
	oraDuplicate = codes(1) // unique constraint (REQ_TRACK_OPEN_UQ, identity, idempotency key)
	oraConflict  = codes(
		2290, // check constraint
		2291, // foreign key: parent key not found
		2292, // foreign key: child record found
		8177, // cannot serialize access
		60,   // deadlock detected (only the statement is rolled back)
	)
	oraUnavailable = codes(
		28,    // your session has been killed
		1012,  // not logged on
		1033,  // initialization or shutdown in progress
		1034,  // ORACLE not available
		1089,  // immediate shutdown in progress
		1092,  // instance terminated, disconnection forced
		2396,  // exceeded maximum idle time
		3113,  // end-of-file on communication channel
		3114,  // not connected to ORACLE
		3135,  // connection lost contact
		12170, // connect timeout
		12514, // listener does not know the service
		12528, // listener: all handlers blocking new connections
		12537, // TNS: connection closed
		12541, // TNS: no listener
		12543, // TNS: destination host unreachable
		25408, // cannot safely replay call
	)
	oraCancelled = 1013 // user requested cancel of current operation
	// msgx's schema is missing or older than this build: a table or view,
	// or a column, that is not there.
	oraNoTable  = 942 // table or view does not exist
	oraNoColumn = 904 // invalid identifier
)

// dpiRe finds ODPI-C's own codes in a message (DPI-1080: connection was
// closed by ORA-%d; DPI-1010: not connected; DPI-1047: no client library).
var dpiRe = regexp.MustCompile(`DPI-(\d{4})`)

var dpiUnavailable = codes(1010, 1080)

func codes(c ...int) map[int]bool {
	m := map[int]bool{}
	for _, v := range c {
		m[v] = true
	}
	return m
}

// interpret maps a driver error to a store error kind, keeping the original
// in the chain for logs. Unknown errors pass through unchanged (ORA-01400
// and ORA-12899 are bugs, as in pgstore).
func interpret(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", store.ErrNotFound, err)
	}
	var ora oraCoder
	if errors.As(err, &ora) {
		code := ora.Code()
		switch {
		case oraDuplicate[code]:
			return fmt.Errorf("%w: %w", store.ErrDuplicate, err)
		case oraConflict[code]:
			return fmt.Errorf("%w: %w", store.ErrConflict, err)
		case oraUnavailable[code]:
			return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
		case code == oraNoTable || code == oraNoColumn:
			return fmt.Errorf("%w: %w", store.ErrSchema, err)
		case code == oraCancelled && ctx != nil && ctx.Err() != nil:
			return fmt.Errorf("%w: %w", ctx.Err(), err)
		}
	}
	if m := dpiRe.FindStringSubmatch(err.Error()); m != nil {
		if n, _ := strconv.Atoi(m[1]); dpiUnavailable[n] {
			return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
		}
	}
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
	}
	return err
}

// isNoTable reports ORA-00942: before its first migration the schema has
// no MSGX_SCHEMA_VERSION, which PendingMigrations reads as none applied.
func isNoTable(err error) bool {
	var ora oraCoder
	return errors.As(err, &ora) && ora.Code() == oraNoTable
}

// isDuplicate reports ORA-00001, which the DO NOTHING MERGEs read as 0 rows
// and PipelineLockAcquire retries (a concurrent first insert).
func isDuplicate(err error) bool {
	var ora oraCoder
	return errors.As(err, &ora) && oraDuplicate[ora.Code()]
}
