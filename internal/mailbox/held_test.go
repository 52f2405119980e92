package mailbox_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Rule 20: an AODB writer holds a transaction open with its insert (an id
// allocated, the row invisible) while msgx backfills the rows around it.
// On a small mailbox (a few hundred rows, most of them being backfilled)
// MariaDB would scan the whole table for the UPDATE's id list and wait for
// the held row's lock until that transaction ends (or
// innodb_lock_wait_timeout): the backfill after commit lagged and the
// todos behind it waited for the next sweep. By the primary key only, the
// backfill touches only its own rows and never waits.
func TestBackfillDoesNotWaitForHeldInserts(t *testing.T) {
	t.Parallel()
	_, db, dsn := newMailbox(t)
	ctx := t.Context()
	insertBacklog(t, db, 20) // 1..20
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, "INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) VALUES ('<MSG/>', '2020-01-01 00:00:00')") // 21, held
	require.NoError(t, err)
	insertBacklog(t, db, 20) // 22..41
	var todos []vocab.Backfill
	for id := int64(1); id <= 41; id++ {
		if id != 21 {
			todos = append(todos, vocab.Backfill{MsgID: id, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0})
		}
	}
	// A wait fails the backfill in 1 s (innodb_lock_wait_timeout) instead of
	// lasting as long as the AODB's transaction.
	impatient, err := mailbox.Open(ctx, dsn+"&innodb_lock_wait_timeout=1")
	require.NoError(t, err)
	defer impatient.Close()
	began := time.Now()
	done, _, err := mailbox.New(impatient, mailbox.WithZone(shanghai)).BackfillMany(ctx, todos)
	require.NoError(t, err, "the backfill waited for the AODB's held insert")
	require.Len(t, done, 40)
	t.Logf("40 rows around a held insert backfilled in %s", time.Since(began))
	var n int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM cminmsgs WHERE CMINMSGS_DATE_PROCESSED IS NOT NULL").Scan(&n))
	require.Equal(t, 40, n)
}
