package pgstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/leader"
)

// LeaderDialer returns the leader election's Dial for PostgreSQL: each lock
// session is its own connection to url, named for pg_stat_activity, holding
// a session-level advisory lock on lockID; a standby's session waits on the
// lock (LeaderWaitLock). A dead process's session ends when its socket
// closes (its kernel closes it: milliseconds); a vanished host's through
// TCP keepalives and, on PostgreSQL 14+, an idle-session timeout of idle
// (the leader pings every retry interval; a waiting standby is not idle).
// Oracle's is orastore.LeaderDialer.
func LeaderDialer(url string, lockID int64, idle time.Duration, log *slog.Logger) func(context.Context, string) (leader.LockSession, error) {
	return func(ctx context.Context, name string) (leader.LockSession, error) {
		cc, err := pgx.ParseConfig(url)
		if err != nil {
			return nil, fmt.Errorf("postgres.url: %w", err)
		}
		cc.RuntimeParams["application_name"] = name
		if cc.ConnectTimeout == 0 || cc.ConnectTimeout > 10*time.Second {
			cc.ConnectTimeout = 10 * time.Second
		}
		// A cancelled wait (shutdown) is cancelled on the server too, so it
		// leaves no waiter queued behind; the connection is given up when
		// the server does not answer the cancel within cancelGrace.
		cc.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
			return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelGrace}
		}
		conn, err := pgx.ConnectConfig(ctx, cc)
		if err != nil {
			return nil, err
		}
		q := postgres.New()
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := q.LeaderSessionTimeouts(sctx, conn, postgres.LeaderSessionTimeoutsParams{
			KeepaliveIdle: "5", KeepaliveInterval: "2", KeepaliveCount: "3",
		}); err != nil {
			_ = conn.Close(sctx)
			return nil, err
		}
		if err := q.LeaderIdleSessionTimeout(sctx, conn, strconv.FormatInt(idle.Milliseconds(), 10)); err != nil {
			// Older servers lack the setting; keepalives still bound a dead client.
			log.Info("leader: idle_session_timeout unavailable, relying on TCP keepalives", "err", err)
			if conn.IsClosed() {
				return nil, err
			}
		}
		return lockSession{conn: conn, lockID: lockID}, nil
	}
}

// cancelGrace is how long a cancelled statement on a lock session waits for
// the server to confirm the cancel before the connection is dropped.
const cancelGrace = time.Second

// lockSession holds a session-level advisory lock on a PostgreSQL connection.
type lockSession struct {
	conn   *pgx.Conn
	lockID int64
}

// Lock tries the lock (wait 0) or waits for it up to wait: 55P03
// (lock_not_available, the statement's lock_timeout) means another session
// held it throughout.
func (s lockSession) Lock(ctx context.Context, wait time.Duration) (bool, error) {
	q := postgres.New()
	if wait <= 0 {
		return q.LeaderTryLock(ctx, s.conn, s.lockID)
	}
	ms := strconv.FormatInt(max(wait.Milliseconds(), 1), 10)
	err := q.LeaderWaitLock(ctx, s.conn, postgres.LeaderWaitLockParams{LockID: s.lockID, Timeout: ms})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "55P03" {
		return false, nil
	}
	return err == nil, err
}
func (s lockSession) Ping(ctx context.Context) error  { return s.conn.Ping(ctx) }
func (s lockSession) Close(ctx context.Context) error { return s.conn.Close(ctx) }

// Sessions lists the instances connected to this database (their lock
// connections, by application_name), the leader first: `msgx status`.
func Sessions(ctx context.Context, db postgres.DBTX, lockID int64) ([]leader.Session, error) {
	rows, err := postgres.New().LeaderSessions(ctx, db, lockID)
	if err != nil {
		return nil, err
	}
	out := make([]leader.Session, len(rows))
	for i, r := range rows {
		out[i] = leader.Session{PID: int(r.Pid), Name: r.ApplicationName, Client: r.ClientAddr, Since: r.BackendStart, Leading: r.Leader}
	}
	return out, nil
}
