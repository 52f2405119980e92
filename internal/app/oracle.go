package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
)

// connectOracle opens msgx's Oracle schema (database.dialect oracle11g): the
// store's pool, and a second pool for the leader's lock sessions that keeps
// no idle connection, so a closed lock session ends and releases its
// DBMS_LOCK. A missing Oracle client (DPI-1047) is one actionable line.
func connectOracle(ctx context.Context, cfg config.Config) (ownDB, error) {
	st, err := orastore.Open(ctx, cfg.OracleDSN)
	if errors.Is(err, orastore.ErrNoClient) || errors.Is(err, orastore.ErrNotLinked) {
		return ownDB{}, err
	}
	if err != nil {
		return ownDB{}, fmt.Errorf("Oracle unreachable (check oracle.dsn / MSGX_ORACLE_DSN): %s", oneline.Err(err)) //nolint:staticcheck // ST1005: starts with the product's name, like the PostgreSQL ones
	}
	if err := checkOracleSchema(ctx, st); err != nil {
		st.Close()
		return ownDB{}, err
	}
	locks, err := orastore.Open(ctx, cfg.OracleDSN)
	if err != nil {
		st.Close()
		return ownDB{}, fmt.Errorf("Oracle unreachable (check oracle.dsn / MSGX_ORACLE_DSN): %s", oneline.Err(err)) //nolint:staticcheck // ST1005: starts with the product's name, like the PostgreSQL ones
	}
	locks.DB().SetMaxIdleConns(0)
	return ownDB{
		st:    st,
		check: readiness.Check{Name: "oracle", Run: st.DB().PingContext},
		dial:  orastore.LeaderDialer(locks.DB(), cfg.LeaderLockID, lockIdle(cfg)),
		close: func() { locks.Close(); st.Close() },
	}, nil
}

// checkOracleSchema reads the queue head and the watermark, as checkSchema
// does on PostgreSQL: ORA-00942 / ORA-00904 mean the schema is missing or
// older than this build.
func checkOracleSchema(ctx context.Context, st store.Store) error {
	_, err := st.QueueHead(ctx, 1)
	if err == nil {
		_, err = st.IngressMark(ctx, ingress.DefaultConfig().Source)
	}
	var ora interface{ Code() int }
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ora) && (ora.Code() == 942 || ora.Code() == 904):
		return fmt.Errorf("Oracle: msgx's schema is missing or outdated (%s); run: msgx schema migrate --dialect oracle11g --yes (docs/upgrade.md)", oneline.Err(err)) //nolint:staticcheck // ST1005: starts with the product's name, like the PostgreSQL ones
	default:
		return fmt.Errorf("Oracle: checking the schema: %s", oneline.Err(err)) //nolint:staticcheck // ST1005: starts with the product's name, like the PostgreSQL ones
	}
}
