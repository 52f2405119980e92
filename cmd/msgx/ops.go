package main

// Helpers of the operator commands (send, replay, status): connecting to the
// databases of the configuration, one-line errors, progress bars.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
)

// opsTimeout bounds connecting to a database from an operator command.
const opsTimeout = 10 * time.Second

// openStore connects to msgx's database of the configuration (PostgreSQL,
// or Oracle with database.dialect oracle11g). The error is one line that
// names the setting to check.
func openStore(ctx context.Context, cfg config.Config) (store.Store, error) {
	if cfg.Dialect == config.DialectOracle11g {
		octx, cancel := context.WithTimeout(ctx, opsTimeout)
		defer cancel()
		st, err := orastore.Open(octx, cfg.OracleDSN)
		if err != nil {
			return nil, fmt.Errorf("%s (check oracle.dsn / MSGX_ORACLE_DSN)", oneline.Err(err))
		}
		return st, nil
	}
	pool, err := openPool(ctx, cfg.PGURL, "postgres.url (MSGX_PG_URL)")
	if err != nil {
		return nil, err
	}
	return pgstore.New(pool), nil
}

// openPool connects to a PostgreSQL URL given by setting (named in errors).
func openPool(ctx context.Context, url, setting string) (*pgxpool.Pool, error) {
	pc, err := pgstore.ParsePoolConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%s is not a valid URL: %s", setting, oneline.Err(err))
	}
	if pc.ConnConfig.ConnectTimeout == 0 || pc.ConnConfig.ConnectTimeout > opsTimeout {
		pc.ConnConfig.ConnectTimeout = opsTimeout
	}
	if _, ok := pc.ConnConfig.RuntimeParams["application_name"]; !ok {
		pc.ConnConfig.RuntimeParams["application_name"] = "msgx-cli"
	}
	pc.MaxConns = 2
	pctx, cancel := context.WithTimeout(ctx, opsTimeout)
	defer cancel()
	pool, err := pgstore.Connect(pctx, pc)
	switch {
	case errors.Is(err, store.ErrNoDatabase):
		return nil, fmt.Errorf("PostgreSQL: no such database, or access denied (check %s): %s", setting, oneline.Err(err))
	case err != nil:
		return nil, fmt.Errorf("PostgreSQL unreachable (check %s): %s", setting, oneline.Err(err))
	}
	return pool, nil
}

// openMailbox connects to the shared mailbox of the configuration.
func openMailbox(ctx context.Context, cfg config.Config) (*mailbox.Mailbox, *sql.DB, error) {
	octx, cancel := context.WithTimeout(ctx, opsTimeout)
	defer cancel()
	db, err := mailbox.Open(octx, cfg.MailboxDSN)
	if err != nil {
		return nil, nil, fmt.Errorf("mailbox unreachable (check mailbox.dsn / MSGX_MAILBOX_DSN): %s", oneline.Err(err))
	}
	return mailbox.New(db, mailbox.WithZone(cfg.Location)), db, nil
}

// isTTY reports whether w is a terminal (a bar can redraw itself there).
func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newBar returns a progress bar of total steps drawn on w. On anything that
// is not a terminal (a pipe, a log file, a test buffer) it draws nothing, so
// redirected output stays free of control characters; the commands print
// their own summary line instead.
func newBar(w io.Writer, total int, what string) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(isTTY(w)),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}
