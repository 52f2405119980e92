package main

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
)

// instances reads which instance leads and how many wait as standby, from
// the lock sessions in the database (advisory locks in PostgreSQL).
func instances(ctx context.Context, cfg config.Config) (status.Instances, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	sessions, err := lockSessions(ctx, cfg)
	if err != nil {
		return status.Instances{}, err
	}
	var out status.Instances
	for _, s := range sessions {
		if s.Leading {
			name, since := strings.TrimPrefix(s.Name, leader.AppNamePrefix), s.Since.UTC()
			out.Leader, out.LeaderSince = &name, &since
		} else {
			out.Standby++
		}
	}
	return out, nil
}

// lockSessions reads the instances' lock sessions: advisory locks in
// PostgreSQL, DBMS_LOCK sessions (V$SESSION) in Oracle.
func lockSessions(ctx context.Context, cfg config.Config) ([]leader.Session, error) {
	if cfg.Dialect == config.DialectOracle11g {
		st, err := orastore.Open(ctx, cfg.OracleDSN)
		if err != nil {
			return nil, err
		}
		defer st.Close()
		return orastore.Sessions(ctx, st, cfg.LeaderLockID)
	}
	conn, err := pgx.Connect(ctx, cfg.PGURL)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return pgstore.Sessions(ctx, conn, cfg.LeaderLockID)
}
