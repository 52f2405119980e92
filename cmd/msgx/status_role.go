package main

import (
	"context"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/status"
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
	db, err := dbopen.Open(ctx, cfg, opsDB)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.Sessions(ctx)
}
