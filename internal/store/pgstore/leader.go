package pgstore

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/leader"
)

// LeaderDialer returns the leader election's Dial for PostgreSQL: each lock
// session is its own connection to url, named for pg_stat_activity, holding
// a session-level advisory lock on lockID. The server drops a vanished
// process's session (and so its lock) through TCP keepalives and, on
// PostgreSQL 14+, an idle-session timeout of idle (the leader pings, a
// standby retries, every retry interval). Oracle's is orastore.LeaderDialer.
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

// lockSession holds a session-level advisory lock on a PostgreSQL connection.
type lockSession struct {
	conn   *pgx.Conn
	lockID int64
}

func (s lockSession) TryLock(ctx context.Context) (bool, error) {
	return postgres.New().LeaderTryLock(ctx, s.conn, s.lockID)
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
