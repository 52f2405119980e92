package mailbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
	"github.com/msgx-aodb/msgx/internal/store"
	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// Capacities of the AODB's cminmsgs columns (sis-wire-format.md §8).
const (
	metaTextMax = 4  // varchar(4): SUBSYSTEM_NAME, _TYPE, _SUBTYPE (characters)
	statusMax   = 20 // varchar(20): CMINMSGS_STATUS
	seqnMin     = -1 << 23
	seqnMax     = 1<<23 - 1 // signed mediumint
)

// Backfill writes the outcome of a processed row: DATE_PROCESSED, STATUS and
// the META columns, only while DATE_PROCESSED is NULL (a row is backfilled
// once) — or, for a todo with OverwritesStatus (rule 18: a replayed
// message), while the row still holds msgx's own earlier backfill: that
// STATUS and the todo's META exactly as msgx wrote them, or no META at all
// (the message died before it decoded). It reports whether
// the row changed; false with a nil error means it was backfilled before
// (by someone else, for an overwrite). A row that does not exist is
// ErrMissing.
//
// A META value that does not fit its column (a SNDR/TYPE/STYP longer than 4
// characters, a SEQN outside mediumint, a DTTM outside DATETIME) is written as
// NULL and logged, never truncated: a cut value would look valid and be
// wrong, and failing would retry a backfill that can never succeed while the
// row stays unprocessed for the AODB. DATE_PROCESSED and STATUS come from
// msgx itself; if they cannot be stored that is ErrInvalid.
func (m *Mailbox) Backfill(ctx context.Context, b store.Backfill) (bool, error) {
	if m.readOnly {
		return false, ErrReadOnly
	}
	p, dropped, err := m.backfillParams(b)
	if err != nil {
		return false, err
	}
	return m.backfillRow(ctx, m.db, p, dropped)
}

// BackfillMany backfills todos in ONE mailbox transaction (one commit for the
// lot instead of one per row) and, for rows whose META is all writable, one
// UPDATE per backfillChunk rows instead of one per row. It returns the ids
// that are done — backfilled now, before, or gone from the mailbox — and, per
// id, the todos refused as ErrInvalid. An outage rolls everything back and is
// ErrUnavailable.
func (m *Mailbox) BackfillMany(ctx context.Context, todos []store.Backfill) (done []int64, invalid map[int64]error, err error) {
	if m.readOnly {
		return nil, nil, ErrReadOnly
	}
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, unavailable("backfill: begin", err)
	}
	defer tx.Rollback()
	var set []setRow
	flush := func() error {
		if len(set) == 0 {
			return nil
		}
		if err := m.backfillSet(ctx, tx, set); err != nil {
			return unavailable(fmt.Sprintf("backfill rows %d..%d", set[0].ID, set[len(set)-1].ID), err)
		}
		set = set[:0]
		return nil
	}
	for _, b := range todos {
		p, dropped, perr := m.backfillParams(b)
		if perr != nil {
			if invalid == nil {
				invalid = map[int64]error{}
			}
			invalid[b.MsgID] = perr
			continue
		}
		if len(dropped) > 0 || p.OverwritesStatus != nil {
			// Rare: alone, so the NULLed values are logged only when the
			// row is really written now, and a replayed message's
			// overwrite condition stays a plain statement.
			if _, err := m.backfillRow(ctx, tx, p, dropped); err != nil && !errors.Is(err, ErrMissing) {
				return nil, nil, err
			}
		} else {
			set = append(set, newSetRow(p))
			if len(set) == backfillChunk {
				if err := flush(); err != nil {
					return nil, nil, err
				}
			}
		}
		done = append(done, b.MsgID)
	}
	if err := flush(); err != nil {
		return nil, nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, nil, unavailable("backfill: commit", err)
	}
	return done, invalid, nil
}

// backfillSet runs the set-based backfill of sql/mysql/backfill, or on a
// server without JSON_TABLE its legacy twin.
func (m *Mailbox) backfillSet(ctx context.Context, tx *sql.Tx, set []setRow) error {
	if !m.noJSONTable.Load() {
		rows, err := json.Marshal(set)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, sqlfiles.MailboxBackfillMany, string(rows))
		if !lacksJSONTable(err) {
			return err
		}
		// A parse error leaves the transaction as it was.
		m.noJSONTable.Store(true)
		m.log.Warn("mailbox: the server has no JSON_TABLE (MySQL 5.7, MariaDB before 10.6): the set-based backfill searches each chunk's ids per row", "error", err)
	}
	_, err := m.q.InboundBackfillManyLegacy(ctx, tx, legacySetParams(set))
	return err
}

// backfillChunk bounds the rows of one set-based backfill: the statement
// costs O(rows) (a JSON_TABLE joined on the primary key), so the chunk only
// bounds its one parameter (~120 bytes a row) — and the legacy statement's
// O(rows × chunk) search.
const backfillChunk = 100

// setRow is one element of the JSON array of sql/mysql/backfill: NULL
// values are left out.
type setRow struct {
	ID          int64  `json:"id"`
	ProcessedAt string `json:"at"`
	Status      string `json:"status"`
	Sndr        string `json:"sndr,omitempty"`
	Seqn        *int32 `json:"seqn,omitempty"`
	Dttm        string `json:"dttm,omitempty"`
	MsgType     string `json:"type,omitempty"`
	MsgSubtype  string `json:"styp,omitempty"`
}

// newSetRow converts a row update to its setRow ("" for NULL: no text
// column of the update takes "" as a value).
func newSetRow(p dbmb.InboundBackfillParams) setRow {
	str := func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	}
	datetime := func(v *time.Time) string {
		if v == nil {
			return ""
		}
		return v.Format(time.DateTime) // already the wall clock, whole seconds
	}
	return setRow{
		ID: p.ID, ProcessedAt: datetime(p.ProcessedAt), Status: str(p.Status),
		Sndr: str(p.Sndr), Seqn: p.Seqn, Dttm: datetime(p.Dttm),
		MsgType: str(p.MsgType), MsgSubtype: str(p.MsgSubtype),
	}
}

// backfillParams converts a todo to the row update; see Backfill for the
// rules on values that do not fit.
func (m *Mailbox) backfillParams(b store.Backfill) (dbmb.InboundBackfillParams, []string, error) {
	if b.MailboxStatus == "" || utf8.RuneCountInString(b.MailboxStatus) > statusMax {
		return dbmb.InboundBackfillParams{}, nil, fmt.Errorf("mailbox: backfill row %d: status %q: %w", b.MsgID, b.MailboxStatus, ErrInvalid)
	}
	processed, ok := m.fitTime(b.ProcessedAt)
	if !ok {
		return dbmb.InboundBackfillParams{}, nil, fmt.Errorf("mailbox: backfill row %d: processed at %v: %w", b.MsgID, b.ProcessedAt, ErrInvalid)
	}
	var dropped []string
	text := func(field, v string) *string {
		if v == "" {
			return nil
		}
		if utf8.RuneCountInString(v) > metaTextMax {
			dropped = append(dropped, field+"="+strconv.Quote(v))
			return nil
		}
		return &v
	}
	status := b.MailboxStatus
	p := dbmb.InboundBackfillParams{
		ID: b.MsgID, ProcessedAt: processed, Status: &status,
		Sndr: text("SNDR", b.Meta.Sndr), MsgType: text("TYPE", b.Meta.Type), MsgSubtype: text("STYP", b.Meta.Styp),
	}
	if s := b.Meta.Seqn; s != nil {
		if *s >= seqnMin && *s <= seqnMax {
			v := int32(*s)
			p.Seqn = &v
		} else {
			dropped = append(dropped, "SEQN="+strconv.FormatInt(*s, 10))
		}
	}
	if d := b.Meta.Dttm; d != nil {
		if p.Dttm, ok = m.fitTime(*d); !ok {
			dropped = append(dropped, "DTTM="+d.Format(time.RFC3339))
		}
	}
	if b.OverwritesStatus != "" {
		// msgx's earlier backfill wrote the same META, as these values.
		over := b.OverwritesStatus
		p.OverwritesStatus = &over
		p.WasSndr, p.WasSeqn, p.WasMsgType, p.WasMsgSubtype = p.Sndr, p.Seqn, p.MsgType, p.MsgSubtype
	}
	return p, dropped, nil
}

func (m *Mailbox) backfillRow(ctx context.Context, db dbmb.DBTX, p dbmb.InboundBackfillParams, dropped []string) (bool, error) {
	n, err := m.q.InboundBackfill(ctx, db, p)
	if err != nil {
		return false, unavailable(fmt.Sprintf("backfill row %d", p.ID), err)
	}
	if n > 0 {
		if len(dropped) > 0 {
			m.log.Warn("mailbox backfill: META values do not fit their columns, written as NULL",
				"msg_id", p.ID, "dropped", dropped)
		}
		return true, nil
	}
	// Nothing changed: backfilled before, or the row is gone.
	if _, err := m.q.InboundState(ctx, db, p.ID); errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("mailbox: backfill row %d: %w", p.ID, ErrMissing)
	} else if err != nil {
		return false, unavailable(fmt.Sprintf("backfill row %d", p.ID), err)
	}
	return false, nil
}

// fitTime converts t to a DATETIME value, or reports that it is outside the
// DATETIME range (years 1000-9999).
func (m *Mailbox) fitTime(t time.Time) (*time.Time, bool) {
	w := m.wall(t)
	if t.IsZero() || w.Year() < 1000 || w.Year() > 9999 {
		return nil, false
	}
	return &w, true
}
