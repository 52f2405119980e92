package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
)

// serveOracle is `msgx serve` with database.dialect oracle11g. It opens the
// Oracle store first, so a missing Oracle client (DPI-1047) or an
// unreachable database is one actionable line and exit 1, then refuses to
// run: the service's wiring (readiness, leader election, status, jobs)
// still takes a PostgreSQL pool (docs/oracle.md).
func serveOracle(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	st, err := orastore.Open(ctx, cfg.OracleDSN)
	if errors.Is(err, orastore.ErrNoClient) {
		return err
	}
	if err != nil {
		return fmt.Errorf("Oracle unreachable (check oracle.dsn / MSGX_ORACLE_DSN): %s", oneLine(err))
	}
	defer st.Close()
	log.Info("oracle: connected", "dialect", cfg.Dialect)
	return fmt.Errorf("database.dialect oracle11g: connected, but msgx serve does not run on Oracle yet: the service wiring still needs PostgreSQL (docs/oracle.md)")
}
