// Package dbopen opens msgx's own database as the configuration names it
// (database.dialect): the one place that chooses between pgstore and
// orastore. The service and every operator command open it here, so a
// dialect is added in one table and every error names the setting to check.
package dbopen

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// ConnectTimeout bounds one connection attempt (a PostgreSQL URL may ask for
// less with connect_timeout).
const ConnectTimeout = 10 * time.Second

// DB is msgx's own database, opened.
type DB struct {
	// Name is the database's dependency name (DependencyPostgres or
	// DependencyOracle): msgx_dependency_up, /readyz and the status report.
	Name string
	// Product is the database's name in messages: PostgreSQL or Oracle.
	Product string
	Store   store.Store
	// Check is /readyz's check of the database.
	Check readiness.Check
	// Dial opens the leader election's lock sessions; nil unless
	// Options.Leader.
	Dial func(ctx context.Context, name string) (leader.LockSession, error)
	// Sessions lists the instances' lock sessions, the leader first (msgx
	// status).
	Sessions func(ctx context.Context) ([]leader.Session, error)
	// Close releases every connection opened here.
	Close func()
}

// Options say who opens the database.
type Options struct {
	// AppName names the connections for DBAs (pg_stat_activity); a URL's
	// own application_name wins. Default "msgx".
	AppName string
	// MaxConns bounds the PostgreSQL pool; 0 is pgxpool's default.
	MaxConns int32
	// Leader also opens what the leader election needs (DB.Dial): the
	// service does, operator commands do not.
	Leader bool
	// Log hears what the lock sessions cannot set up (an old server); nil:
	// slog.Default().
	Log *slog.Logger
}

// dialect opens one kind of database.
type dialect struct {
	name    string // the dependency name
	product string // as errors say it
	open    func(ctx context.Context, cfg config.Config, opt Options) (*DB, error)
}

// dialects is every database msgx can keep its state in, by database.dialect.
var dialects = map[string]dialect{
	config.DialectPostgres:  {name: vocab.DependencyPostgres, product: "PostgreSQL", open: openPostgres},
	config.DialectOracle11g: {name: vocab.DependencyOracle, product: "Oracle", open: openOracle},
}

// Name is the dependency name of a dialect (msgx_dependency_up, /readyz, the
// status report); "" is the default, PostgreSQL.
func Name(dialectName string) string {
	return dialects[cmp.Or(dialectName, config.DialectPostgres)].name
}

// Open connects to msgx's database of cfg and checks that it answers. Every
// error is one line that names the setting to check; a missing Oracle client
// is orastore.ErrNoClient as it is.
func Open(ctx context.Context, cfg config.Config, opt Options) (*DB, error) {
	d, ok := dialects[cmp.Or(cfg.Dialect, config.DialectPostgres)]
	if !ok {
		return nil, fmt.Errorf("%s: unknown dialect %q (want %s or %s)", config.Name("database.dialect"), cfg.Dialect, config.DialectPostgres, config.DialectOracle11g)
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	db, err := d.open(ctx, cfg, opt)
	if err != nil {
		return nil, err
	}
	db.Name, db.Product = d.name, d.product
	db.Check.Name = d.name
	return db, nil
}

// lockIdle is how long the database keeps an idle lock session, so that the
// lock of a vanished process goes within a few retry intervals (the leader
// pings every interval; a standby waiting on the lock is not idle).
func lockIdle(cfg config.Config) time.Duration {
	return max(3*cfg.LeaderRetryInterval, 5*time.Second)
}
