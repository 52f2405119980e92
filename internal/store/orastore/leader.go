package orastore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/leader"
)

// LeaderDialer returns the leader election's Dial for Oracle: each lock
// session is its own connection of db, named for V$SESSION.MODULE, holding
// a DBMS_LOCK exclusive user lock (release_on_commit FALSE) that goes with
// the session. db must keep no idle connections (SetMaxIdleConns(0)) so that
// Close ends the session and releases the lock. The schema user needs
// EXECUTE ON SYS.DBMS_LOCK (docs/oracle.md).
func LeaderDialer(db *sql.DB, lockID int64, idle time.Duration) func(context.Context, string) (leader.LockSession, error) {
	return func(ctx context.Context, name string) (leader.LockSession, error) {
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, interpret(ctx, err)
		}
		s := &lockSession{conn: conn, lockID: lockID}
		if _, err := s.exec(ctx, "LeaderSessionTimeouts", map[string]any{"module_name": name}); err != nil {
			_ = conn.Close()
			return nil, err
		}
		if _, err := s.exec(ctx, "LeaderIdleSessionTimeout", map[string]any{"timeout": strconv.FormatInt(idle.Milliseconds(), 10)}); err != nil {
			_ = conn.Close()
			return nil, err
		}
		return s, nil
	}
}

type lockSession struct {
	conn   *sql.Conn
	lockID int64
}

func (s *lockSession) exec(ctx context.Context, name string, binds map[string]any) (sql.Result, error) {
	return executor{ex: s.conn}.exec(ctx, name, binds)
}

// Lock runs DBMS_LOCK.REQUEST without waiting (wait 0, LeaderTryLock) or
// waiting up to wait, rounded up to whole seconds (LeaderWaitLock): 0
// (granted) and 4 (this session holds it already) mean held, 1 (timeout)
// means another held it throughout. godror breaks the call when ctx ends.
func (s *lockSession) Lock(ctx context.Context, wait time.Duration) (bool, error) {
	var rc int64
	name, binds := "LeaderTryLock", map[string]any{"lock_id": s.lockID, "acquired": sql.Out{Dest: &rc}}
	if wait > 0 {
		name, binds["timeout"] = "LeaderWaitLock", int64((wait+time.Second-1)/time.Second)
	}
	if _, err := s.exec(ctx, name, binds); err != nil {
		return false, err
	}
	switch rc {
	case 0, 4:
		return true, nil
	case 1:
		return false, nil
	}
	return false, fmt.Errorf("orastore: DBMS_LOCK.REQUEST returned %d (2 deadlock, 3 parameter error, 5 illegal lock handle)", rc)
}

func (s *lockSession) Ping(ctx context.Context) error { return interpret(ctx, s.conn.PingContext(ctx)) }

func (s *lockSession) Close(context.Context) error { return s.conn.Close() }

// Sessions lists the instances' lock sessions on this schema (V$SESSION by
// module name), the leader first: `msgx status` on Oracle. It needs SELECT
// on V_$SESSION and V_$LOCK.
func Sessions(ctx context.Context, s *Store, lockID int64) ([]leader.Session, error) {
	var out []leader.Session
	err := s.query(ctx, "LeaderSessions", map[string]any{"lock_id": lockID}, func(r *sql.Rows) error {
		var ses leader.Session
		var client sql.NullString
		var leading int64
		err := r.Scan(&ses.PID, &ses.Name, &client, &ses.Since, &leading)
		ses.Client, ses.Leading = client.String, leading == 1
		out = append(out, ses)
		return err
	})
	return out, err
}
