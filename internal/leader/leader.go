// Package leader keeps one msgx instance active per database: the leader
// holds a lock on a dedicated database session and runs the workers; every
// other instance is a hot standby that waits on the lock, so it takes over
// as soon as the database ends the leader's session: at once when the leader
// shuts down or its process dies, within the server's idle-session and
// keepalive bounds when its host or network vanished.
//
// The lock is about liveness, not correctness: every business transaction
// also takes the PIPELINE_LOCK row lock and re-checks its message, so even two
// instances that both believed they lead could not apply a message twice.
//
// The lock itself is the store adapter's (LockSession): PostgreSQL's
// session-level advisory lock is pgstore.LeaderDialer, Oracle's DBMS_LOCK
// orastore.LeaderDialer; this package knows no database.
package leader

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/service"
)

// Role is what an instance currently is.
type Role string

// Roles.
const (
	Starting Role = "starting" // before the first lock attempt
	Standby  Role = "standby"  // waiting for the lock
	Leader   Role = "leader"   // holding the lock, running the workers
	Stopped  Role = "stopped"  // after Run returned
)

// AppNamePrefix names every lock session (pg_stat_activity's
// application_name, V$SESSION.MODULE); the adapters' Sessions list the
// sessions so named.
const AppNamePrefix = "msgx-lock "

// Config is the election's configuration.
type Config struct {
	LockID int64 // lock key shared by the instances of one database (logged)
	// Retry is the leader's ping interval and the longest single lock wait of
	// a standby (it then checks its own session by waiting again).
	Retry time.Duration
	// Dial opens the dedicated lock session named name (required):
	// pgstore.LeaderDialer (advisory lock) or orastore.LeaderDialer
	// (DBMS_LOCK).
	Dial func(ctx context.Context, name string) (LockSession, error)
	// Term builds the leader's services for one lead term (required); they
	// run as one service.Group while this instance holds the lock.
	Term func() []service.Service
}

// LockSession is one dedicated database session that can hold the lock; the
// lock goes with the session (closing it releases the lock).
type LockSession interface {
	// Lock takes the lock for this session, waiting up to wait for it to be
	// free (0: not at all); true when held afterwards, false when another
	// session held it throughout. A blocked wait ends when ctx does.
	Lock(ctx context.Context, wait time.Duration) (bool, error)
	// Ping checks the session (and so the lock) is still there.
	Ping(ctx context.Context) error
	Close(ctx context.Context) error
}

// Elector campaigns for the lock and runs the leader's work while it holds it.
type Elector struct {
	cfg  Config
	clk  clock.Clock
	log  *slog.Logger
	name string // application_name of the lock connection

	role atomic.Value // Role

	mu       sync.Mutex
	onChange []func(Role)
}

// New returns an elector; Run starts it.
func New(cfg Config, clk clock.Clock, log *slog.Logger) *Elector {
	if cfg.Retry <= 0 {
		cfg.Retry = 2 * time.Second
	}
	host, _ := os.Hostname()
	e := &Elector{cfg: cfg, clk: clk, log: log, name: AppNamePrefix + host + ":" + strconv.Itoa(os.Getpid())}
	if e.cfg.Dial == nil {
		panic("leader: Config.Dial is required")
	}
	e.role.Store(Starting)
	return e
}

// Role returns the current role.
func (e *Elector) Role() Role { return e.role.Load().(Role) }

// OnChange registers a function called on every role change (metrics, logs).
func (e *Elector) OnChange(f func(Role)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.onChange = append(e.onChange, f)
}

func (e *Elector) setRole(r Role) {
	if e.role.Swap(r) == r {
		return
	}
	e.log.Info("leader: role changed", "role", string(r), "lock_id", e.cfg.LockID)
	e.mu.Lock()
	fs := append([]func(Role){}, e.onChange...)
	e.mu.Unlock()
	for _, f := range fs {
		f(r)
	}
}

// Name is the elector's name as a service.
func (e *Elector) Name() string { return "leader" }

// Run campaigns until ctx ends, then returns nil. While this instance holds
// the lock it runs the term's services (Config.Term) with a context that is
// cancelled when the lock connection is lost or ctx ends, and waits for them
// to return before it lets the lock go — so the step in flight finishes
// before a standby can start.
func (e *Elector) Run(ctx context.Context) error {
	defer e.setRole(Stopped)
	lead := func(ctx context.Context) {
		// A failure is logged by the group and ends the term (below).
		_ = service.NewGroup("leader term", e.log, e.cfg.Term()...).Run(ctx)
	}
	for ctx.Err() == nil {
		conn, err := e.cfg.Dial(ctx, e.name)
		if err != nil {
			if ctx.Err() == nil {
				e.log.Warn("leader: lock connection failed, retrying", "err", err, "retry", e.cfg.Retry.String())
				e.setRole(Standby)
			}
			e.wait(ctx)
			continue
		}
		led := e.campaign(ctx, conn, lead)
		// Closing the session releases the lock at once (a fresh session
		// campaigns next time).
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.cfg.Retry)
		_ = conn.Close(cctx)
		cancel()
		if led {
			// A leader that lost its lock connection waits one interval
			// before campaigning again: a healthy standby takes over
			// instead of the instance that just failed, and no flapping.
			e.wait(ctx)
		}
	}
	return nil
}

// campaign waits for the lock on one connection until it is taken (then
// leads) or the connection fails. It reports whether this instance led. The
// first attempt does not wait, so the role is known at once; then each wait
// lasts up to one interval and the next starts at once, so the lock is taken
// the moment the database releases it. The client gives each wait one more
// interval to answer before it gives the session up.
func (e *Elector) campaign(ctx context.Context, conn LockSession, lead func(context.Context)) bool {
	var wait time.Duration
	for ctx.Err() == nil {
		qctx, cancel := context.WithTimeout(ctx, wait+e.cfg.Retry)
		acquired, err := conn.Lock(qctx, wait)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				e.log.Warn("leader: lock attempt failed", "err", err)
			}
			return false
		}
		if acquired {
			e.lead(ctx, conn, lead)
			return true
		}
		e.setRole(Standby)
		wait = e.cfg.Retry
	}
	return false
}

// lead runs the work while pinging the lock connection every Retry. A failed
// ping means the lock may be gone, so the work is stopped. While the work
// winds down (the step in flight may take a while) the pings go on, so the
// server keeps the session — and the lock — until the work has returned.
func (e *Elector) lead(ctx context.Context, conn LockSession, lead func(context.Context)) {
	e.setRole(Leader)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() { defer close(done); lead(lctx) }()
	stopping := ctx.Done()
	for {
		select {
		case <-done:
			if ctx.Err() == nil && lctx.Err() == nil {
				e.log.Error("leader: the workers stopped on their own; stepping down")
			}
			e.setRole(Standby)
			return
		case <-stopping:
			stopping = nil // keep pinging until done
		case <-e.clk.After(e.cfg.Retry):
			pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.cfg.Retry)
			err := conn.Ping(pctx)
			cancel()
			if err != nil && lctx.Err() == nil {
				e.log.Error("leader: lock connection lost, stepping down", "err", err)
				stop()
			}
		}
	}
}

// wait sleeps one retry interval; false when ctx ended.
func (e *Elector) wait(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-e.clk.After(e.cfg.Retry):
		return true
	}
}

// Session is one instance's lock connection.
type Session struct {
	PID     int       `json:"pid"`
	Name    string    `json:"name"` // msgx-lock <host>:<pid>
	Client  string    `json:"client_addr"`
	Since   time.Time `json:"since"`
	Leading bool      `json:"leader"`
}
