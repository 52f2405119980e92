package dbopen

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
)

// pgSetting is the setting a PostgreSQL error of Open names.
const pgSetting = "postgres.url / MSGX_PG_URL"

func openPostgres(ctx context.Context, cfg config.Config, opt Options) (*DB, error) {
	pool, err := Postgres(ctx, cfg.PGURL, pgSetting, opt)
	if err != nil {
		return nil, err
	}
	db := &DB{
		Store: pgstore.New(pool),
		Check: readiness.Check{Run: pool.Ping},
		Sessions: func(ctx context.Context) ([]leader.Session, error) {
			return pgstore.Sessions(ctx, pool, cfg.LeaderLockID)
		},
		Close: pool.Close,
	}
	if opt.Leader {
		db.Dial = pgstore.LeaderDialer(cfg.PGURL, cfg.LeaderLockID, lockIdle(cfg), opt.Log)
	}
	return db, nil
}

// Postgres opens a PostgreSQL pool at url and checks that the server
// answers (msgx compare opens its two sides here too); setting names the URL
// in errors, which never repeat it (it may hold a password).
func Postgres(ctx context.Context, url, setting string, opt Options) (*pgxpool.Pool, error) {
	pc, err := pgstore.ParsePoolConfig(url)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL: %s is not a valid URL: %s", setting, oneline.Err(err))
	}
	if pc.ConnConfig.ConnectTimeout == 0 || pc.ConnConfig.ConnectTimeout > ConnectTimeout {
		pc.ConnConfig.ConnectTimeout = ConnectTimeout
	}
	// Name the connections, so DBAs see who holds them (pg_stat_activity).
	if _, ok := pc.ConnConfig.RuntimeParams["application_name"]; !ok {
		pc.ConnConfig.RuntimeParams["application_name"] = cmp.Or(opt.AppName, "msgx")
	}
	if opt.MaxConns > 0 {
		pc.MaxConns = opt.MaxConns
	}
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	pool, err := pgstore.Connect(ctx, pc)
	switch {
	case errors.Is(err, store.ErrNoDatabase):
		return nil, fmt.Errorf("PostgreSQL: no such database, or access denied (check %s): %s", setting, oneline.Err(err))
	case err != nil:
		return nil, fmt.Errorf("PostgreSQL unreachable (check %s): %s", setting, oneline.Err(err))
	}
	return pool, nil
}
