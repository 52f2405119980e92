// Package mailbox is msgx's adapter of the shared MySQL/MariaDB mailbox the
// AODB owns (sis-wire-format.md §8): it lists unprocessed inbound rows, reads
// their raw XML, inserts rows for HTTP send and backfills processed rows. It
// wraps the sqlc code in db/mailbox and never parses payloads.
//
// Times: the mailbox DATETIME columns hold airport local wall-clock time
// without a zone. The connection always runs with the driver's loc=UTC, and
// the Mailbox converts explicitly at its boundary: an instant is written as
// its wall clock in the airport zone, and a DATETIME read back is that wall
// clock in the airport zone. So the result never depends on the host's zone
// nor on a loc= in a DSN, and DATETIME values are whole seconds (truncated).
package mailbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
	"github.com/msgx-aodb/msgx/internal/sis"
)

var (
	// ErrMissing: the mailbox row does not exist.
	ErrMissing = errors.New("mailbox: row missing")
	// ErrUnavailable: the mailbox could not be read or written (connection,
	// timeout, server error); the operation may be retried. Never used for a
	// missing row. It reports Unavailable() true, so a reader that does not
	// import this package (the pump) tells an outage too.
	ErrUnavailable error = unavailableError{}
	// ErrTooLarge: a body does not fit CMINMSGS_CLOB_MSG (mediumtext).
	ErrTooLarge = errors.New("mailbox: body too large")
	// ErrInvalid: a value msgx itself produced cannot be stored (a bug, not
	// an outage).
	ErrInvalid = errors.New("mailbox: invalid value")
)

// unavailableError is ErrUnavailable's type.
type unavailableError struct{}

func (unavailableError) Error() string     { return "mailbox: unavailable" }
func (unavailableError) Unavailable() bool { return true }

// MaxBody is the capacity of a mediumtext column in bytes (2^24-1).
const MaxBody = 1<<24 - 1

// Bounded I/O for a shared database we do not operate: defaults applied by
// Open when the DSN does not set them.
const (
	DefaultDialTimeout  = 10 * time.Second
	DefaultReadTimeout  = 30 * time.Second
	DefaultWriteTimeout = 30 * time.Second
)

// Mailbox is the shared mailbox over one *sql.DB.
type Mailbox struct {
	db   *sql.DB
	q    *dbmb.Queries
	zone *time.Location
	log  *slog.Logger

	// Shadow mode: read every row after the watermark (another system may be
	// processing them) and refuse every write.
	includeProcessed bool
	readOnly         bool
}

// Option configures a Mailbox.
type Option func(*Mailbox)

// WithZone sets the airport zone of the DATETIME columns (default: the
// codec's, sis.DefaultZone), so the codec and the mailbox agree by default.
func WithZone(loc *time.Location) Option {
	return func(m *Mailbox) {
		if loc != nil {
			m.zone = loc
		}
	}
}

// WithShadow makes the mailbox read-only for msgx and lists rows whether or
// not they are processed: shadow mode watches a mailbox another system owns.
func WithShadow() Option {
	return func(m *Mailbox) { m.includeProcessed, m.readOnly = true, true }
}

// ErrReadOnly is returned by every write in shadow mode.
var ErrReadOnly = errors.New("mailbox: shadow mode never writes the shared mailbox")

// WithLogger sets the logger for META values dropped by Backfill (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(m *Mailbox) {
		if l != nil {
			m.log = l
		}
	}
}

// New wraps db, which must use the driver's loc=UTC (Open ensures it; it is
// also the driver's default): zone conversion happens here, not in the driver.
func New(db *sql.DB, opts ...Option) *Mailbox {
	m := &Mailbox{db: db, q: dbmb.New(), zone: sis.DefaultOptions().Location, log: slog.Default()}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Zone is the airport zone of the DATETIME columns.
func (m *Mailbox) Zone() *time.Location { return m.zone }

// Open connects to the mailbox: parseTime=true and loc=UTC are forced (see
// the package comment), dial/read/write timeouts default when absent,
// interpolateParams defaults to true, and the server is pinged once so a bad
// DSN fails at start.
//
// interpolateParams=true: the driver sends each statement with its values
// as one query instead of preparing a server-side statement, executing it
// and closing it (three round trips, and the server parses and frees a
// statement each time): about a third fewer commands on the AODB's server
// (docs/dev/performance-notes.md). The driver escapes values for the server's
// NO_BACKSLASH_ESCAPES as each connection reports it, and refuses the
// multibyte charsets where escaping is unsafe (BIG5, CP932, GB18030, GBK,
// SJIS): with such a charset in the DSN msgx keeps server-side statements.
// A DSN that sets interpolateParams itself is obeyed.
func Open(ctx context.Context, dsn string) (*sql.DB, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("mailbox: parse DSN: %w", err)
	}
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultDialTimeout
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	explicit := dsnSets(dsn, "interpolateParams")
	if !explicit {
		cfg.InterpolateParams = true
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil && !explicit {
		// An unsafe charset for interpolation: server-side statements.
		cfg.InterpolateParams = false
		conn, err = mysql.NewConnector(cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("mailbox: connector: %w", err)
	}
	db := sql.OpenDB(conn)
	// Recycle connections before a typical server wait_timeout drops them.
	db.SetConnMaxLifetime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, unavailable("open", err)
	}
	return db, nil
}

// dsnSets reports whether the DSN's parameters name param.
func dsnSets(dsn, param string) bool {
	_, query, ok := strings.Cut(dsn, "?")
	if !ok {
		return false
	}
	for kv := range strings.SplitSeq(query, "&") {
		if k, _, _ := strings.Cut(kv, "="); k == param {
			return true
		}
	}
	return false
}

// Ping checks that the mailbox answers.
func (m *Mailbox) Ping(ctx context.Context) error {
	if err := m.db.PingContext(ctx); err != nil {
		return unavailable("ping", err)
	}
	return nil
}

// unavailable wraps an infrastructure failure of op.
func unavailable(op string, err error) error {
	return fmt.Errorf("mailbox: %s: %w: %w", op, ErrUnavailable, err)
}

// wall is t's wall clock in the airport zone as a zone-less value (UTC) for
// the driver, truncated to the seconds a DATETIME holds.
func (m *Mailbox) wall(t time.Time) time.Time {
	w := t.In(m.zone)
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, time.UTC)
}

func (m *Mailbox) wallPtr(t time.Time) *time.Time {
	w := m.wall(t)
	return &w
}

// instant reads a DATETIME (scanned as UTC by the driver) as airport time.
func (m *Mailbox) instant(w *time.Time) *time.Time {
	if w == nil {
		return nil
	}
	t := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), m.zone)
	return &t
}
