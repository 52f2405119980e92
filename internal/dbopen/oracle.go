package dbopen

import (
	"context"
	"errors"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
)

// oraSetting is the setting an Oracle error of Open names.
const oraSetting = "oracle.dsn / MSGX_ORACLE_DSN"

// openOracle opens the store's pool and, for the leader, a second pool for
// the lock sessions that keeps no idle connection, so a closed lock session
// ends and releases its DBMS_LOCK.
func openOracle(ctx context.Context, cfg config.Config, opt Options) (*DB, error) {
	st, err := Oracle(ctx, cfg.OracleDSN)
	if err != nil {
		return nil, err
	}
	db := &DB{
		Store: st,
		Check: readiness.Check{Run: st.DB().PingContext},
		Sessions: func(ctx context.Context) ([]leader.Session, error) {
			return orastore.Sessions(ctx, st, cfg.LeaderLockID)
		},
		Close: st.Close,
	}
	if opt.Leader {
		locks, err := Oracle(ctx, cfg.OracleDSN)
		if err != nil {
			st.Close()
			return nil, err
		}
		locks.DB().SetMaxIdleConns(0)
		db.Dial = orastore.LeaderDialer(locks.DB(), cfg.LeaderLockID, lockIdle(cfg))
		db.Close = func() { locks.Close(); st.Close() }
	}
	return db, nil
}

// Oracle opens an Oracle store by its godror DSN (`msgx schema` with --dsn
// too); the error names the setting, a missing client is said as itself.
func Oracle(ctx context.Context, dsn string) (*orastore.Store, error) {
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	st, err := orastore.Open(ctx, dsn)
	switch {
	case errors.Is(err, orastore.ErrNoClient) || errors.Is(err, orastore.ErrNotLinked):
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("Oracle unreachable (check %s): %s", oraSetting, oneline.Err(err)) //nolint:staticcheck // ST1005: starts with the product's name, like the PostgreSQL ones
	}
	return st, nil
}
