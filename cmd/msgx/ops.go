package main

// Helpers of the operator commands (send, replay, status): connecting to the
// databases of the configuration, one-line errors, progress bars.

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/store"
)

// opsTimeout bounds connecting to a database from an operator command.
const opsTimeout = 10 * time.Second

// opsDB is how an operator command opens msgx's database: its connections
// named msgx-cli, two at most, and no leader's lock sessions.
var opsDB = dbopen.Options{AppName: "msgx-cli", MaxConns: 2}

// openStore connects to msgx's database of the configuration. The error is
// one line that names the setting to check. Closing the store closes every
// connection opened (an operator command opens no lock sessions).
func openStore(ctx context.Context, cfg config.Config) (store.Store, error) {
	ctx, cancel := context.WithTimeout(ctx, opsTimeout)
	defer cancel()
	db, err := dbopen.Open(ctx, cfg, opsDB)
	if err != nil {
		return nil, err
	}
	return db.Store, nil
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
