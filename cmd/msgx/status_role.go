package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
)

// The role line of `msgx status`: which instance leads (from the advisory
// lock sessions in PostgreSQL) and how many wait as standby.
func init() { statusRole = instancesLine }

func instancesLine(ctx context.Context, cfg config.Config) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	sessions, err := lockSessions(ctx, cfg)
	if err != nil {
		return "", err
	}
	var lead string
	standby := 0
	for _, s := range sessions {
		name := strings.TrimPrefix(s.Name, leader.AppNamePrefix)
		if s.Leading {
			lead = fmt.Sprintf("%s %s (since %s)", leader.Leader, name, status.Stamp(s.Since, cfg.Location))
		} else {
			standby++
		}
	}
	if lead == "" {
		lead = "no leader"
		if standby == 0 {
			return "no instance running", nil
		}
	}
	return fmt.Sprintf("%s, %d %s", lead, standby, leader.Standby), nil
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
