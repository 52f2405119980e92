package mailbox

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
	"github.com/msgx-aodb/msgx/internal/vocab"
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
func (m *Mailbox) Backfill(ctx context.Context, b vocab.Backfill) (bool, error) {
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
// UPDATE per chunk of up to backfillRows rows instead of one per row. It
// returns the ids that are done — backfilled now, before, or gone from the
// mailbox — and, per id, the todos refused as ErrInvalid. An outage rolls
// everything back and is ErrUnavailable.
func (m *Mailbox) BackfillMany(ctx context.Context, todos []vocab.Backfill) (done []int64, invalid map[int64]error, err error) {
	if m.readOnly {
		return nil, nil, ErrReadOnly
	}
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, unavailable("backfill: begin", err)
	}
	defer tx.Rollback()
	var set setChunk
	flush := func() error {
		if len(set.rows) == 0 {
			return nil
		}
		if _, err := m.q.InboundBackfillMany(ctx, tx, set.params()); err != nil {
			return unavailable(fmt.Sprintf("backfill rows %d..%d", set.lo, set.hi), err)
		}
		set.reset()
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
			if !set.fits(p.ID) {
				if err := flush(); err != nil {
					return nil, nil, err
				}
			}
			set.add(newSetRow(p))
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

// Bounds of one set-based backfill (InboundBackfillMany): at most
// backfillRows rows, whose ids lie within backfillSpan of each other (each
// value list holds one element per id of that range). The statement costs
// O(rows) on the server; the bounds keep its text (~40 bytes per id of the
// span, 7 value lists) and the list of ids the range optimizer splits small.
// A run's messages are mostly consecutive ids, so a chunk is usually
// backfillRows rows; 500 cost the server less CPU per row than 100 or 1000
// (docs/dev/performance-notes.md).
const (
	backfillRows = 500
	backfillSpan = 1000
)

// setRow is one row of a set-based backfill: its texts ("" for NULL: no
// text column of the update takes "" as a value), and the values set as
// text only when the chunk's statement is laid out.
type setRow struct {
	ID                          int64
	Status, Sndr, Type, Subtype string
	seqn                        *int32
	processedAt, dttm           *time.Time // the mailbox's wall clock
}

// newSetRow converts a row update to its setRow.
func newSetRow(p dbmb.InboundBackfillParams) setRow {
	str := func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	}
	return setRow{
		ID: p.ID, Status: str(p.Status), Sndr: str(p.Sndr), Type: str(p.MsgType), Subtype: str(p.MsgSubtype),
		seqn: p.Seqn, processedAt: p.ProcessedAt, dttm: p.Dttm,
	}
}

// appendDatetime appends a wall-clock time as the mailbox's DATETIME text
// (nothing for NULL).
func appendDatetime(b []byte, t *time.Time) []byte {
	if t == nil {
		return b
	}
	return t.AppendFormat(b, time.DateTime) // already the wall clock, whole seconds
}

// setChunk collects the rows of one set-based backfill.
type setChunk struct {
	rows   []setRow
	lo, hi int64 // smallest and largest id
	ids    map[int64]bool
	buf    []byte // formatted's texts of one column, reused
	ends   []int  // where each row's text ends in buf
}

// fits reports whether the row id can join the chunk: a chunk is bounded
// (backfillRows, backfillSpan) and holds an id once.
func (c *setChunk) fits(id int64) bool {
	if len(c.rows) == 0 {
		return true
	}
	return len(c.rows) < backfillRows && !c.ids[id] && max(c.hi, id)-min(c.lo, id) < backfillSpan
}

func (c *setChunk) add(r setRow) {
	if len(c.rows) == 0 {
		c.lo, c.hi = r.ID, r.ID
		if c.ids == nil {
			c.ids = map[int64]bool{}
		}
	}
	c.lo, c.hi = min(c.lo, r.ID), max(c.hi, r.ID)
	c.ids[r.ID] = true
	c.rows = append(c.rows, r)
}

func (c *setChunk) reset() {
	c.rows = c.rows[:0]
	clear(c.ids)
}

// params lays the chunk out for InboundBackfillMany: the ids ascending, and
// per column either the one value all rows share or a list indexed by id - lo
// (positions of other ids hold "").
func (c *setChunk) params() dbmb.InboundBackfillManyParams {
	n := int(c.hi - c.lo + 1)
	p := dbmb.InboundBackfillManyParams{BeforeFirst: c.lo - 1, Ids: make([]int64, 0, len(c.rows))}
	for _, r := range c.rows {
		p.Ids = append(p.Ids, r.ID)
	}
	slices.Sort(p.Ids)
	// column returns the value every row has (ok), or the list.
	column := func(v func(setRow) string) (all string, list []string, ok bool) {
		all = v(c.rows[0])
		if !slices.ContainsFunc(c.rows, func(r setRow) bool { return v(r) != all }) {
			return all, nil, true
		}
		list = make([]string, n)
		for _, r := range c.rows {
			list[r.ID-c.lo] = v(r)
		}
		return "", list, false
	}
	if _, l, ok := c.formatted(func(b []byte, r setRow) []byte { return appendDatetime(b, r.processedAt) }); ok {
		p.ProcessedAtAll = c.rows[0].processedAt
	} else {
		p.ProcessedAt = l
	}
	if a, l, ok := column(func(r setRow) string { return r.Status }); ok {
		p.StatusAll = &a
	} else {
		p.Status = l
	}
	setText(&p.SndrAll, &p.Sndr)(column(func(r setRow) string { return r.Sndr }))
	setText(&p.SeqnAll, &p.Seqn)(c.formatted(func(b []byte, r setRow) []byte {
		if r.seqn == nil {
			return b
		}
		return strconv.AppendInt(b, int64(*r.seqn), 10)
	}))
	setText(&p.DttmAll, &p.Dttm)(c.formatted(func(b []byte, r setRow) []byte { return appendDatetime(b, r.dttm) }))
	setText(&p.MsgTypeAll, &p.MsgType)(column(func(r setRow) string { return r.Type }))
	setText(&p.MsgSubtypeAll, &p.MsgSubtype)(column(func(r setRow) string { return r.Subtype }))
	return p
}

// formatted is column for the values set as text (SEQN, DTTM,
// DATE_PROCESSED, different in most rows): each row's text is appended into
// one buffer, and the list's strings share one copy of it (a string per row
// was most of a backfill's allocations).
func (c *setChunk) formatted(app func([]byte, setRow) []byte) (all string, list []string, ok bool) {
	c.buf, c.ends = c.buf[:0], c.ends[:0]
	for _, r := range c.rows {
		c.buf = app(c.buf, r)
		c.ends = append(c.ends, len(c.buf))
	}
	first, same := c.buf[:c.ends[0]], true
	for i := 1; i < len(c.ends) && same; i++ {
		same = bytes.Equal(c.buf[c.ends[i-1]:c.ends[i]], first)
	}
	if same {
		return string(first), nil, true
	}
	texts := string(c.buf)
	list = make([]string, c.hi-c.lo+1)
	start := 0
	for i, r := range c.rows {
		list[r.ID-c.lo], start = texts[start:c.ends[i]], c.ends[i]
	}
	return "", list, false
}

// setText sets a column's one value (as text) or its list, from column's
// or formatted's results.
func setText(all *any, list *[]string) func(string, []string, bool) {
	return func(a string, l []string, ok bool) {
		if ok {
			*all = a
		} else {
			*list = l
		}
	}
}

// backfillParams converts a todo to the row update; see Backfill for the
// rules on values that do not fit. The values the parameters point to live
// in one allocation per todo (a pointer per value was most of a backfill's
// allocations).
func (m *Mailbox) backfillParams(b vocab.Backfill) (dbmb.InboundBackfillParams, []string, error) {
	if b.MailboxStatus == "" || utf8.RuneCountInString(b.MailboxStatus) > statusMax {
		return dbmb.InboundBackfillParams{}, nil, fmt.Errorf("mailbox: backfill row %d: status %q: %w", b.MsgID, b.MailboxStatus, ErrInvalid)
	}
	v := &struct {
		status, sndr, typ, styp, over string
		seqn                          int32
		processed, dttm               time.Time
	}{status: b.MailboxStatus, sndr: b.Meta.Sndr, typ: b.Meta.Type, styp: b.Meta.Styp, over: b.OverwritesStatus}
	var ok bool
	if v.processed, ok = m.fitTime(b.ProcessedAt); !ok {
		return dbmb.InboundBackfillParams{}, nil, fmt.Errorf("mailbox: backfill row %d: processed at %v: %w", b.MsgID, b.ProcessedAt, ErrInvalid)
	}
	var dropped []string
	text := func(field string, s *string) *string {
		if *s == "" {
			return nil
		}
		if utf8.RuneCountInString(*s) > metaTextMax {
			dropped = append(dropped, field+"="+strconv.Quote(*s))
			return nil
		}
		return s
	}
	p := dbmb.InboundBackfillParams{
		ID: b.MsgID, ProcessedAt: &v.processed, Status: &v.status,
		Sndr: text("SNDR", &v.sndr), MsgType: text("TYPE", &v.typ), MsgSubtype: text("STYP", &v.styp),
	}
	if s := b.Meta.Seqn; s != nil {
		if *s >= seqnMin && *s <= seqnMax {
			v.seqn = int32(*s)
			p.Seqn = &v.seqn
		} else {
			dropped = append(dropped, "SEQN="+strconv.FormatInt(*s, 10))
		}
	}
	if d := b.Meta.Dttm; d != nil {
		if v.dttm, ok = m.fitTime(*d); ok {
			p.Dttm = &v.dttm
		} else {
			dropped = append(dropped, "DTTM="+d.Format(time.RFC3339))
		}
	}
	if v.over != "" {
		// msgx's earlier backfill wrote the same META, as these values.
		p.OverwritesStatus = &v.over
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
func (m *Mailbox) fitTime(t time.Time) (time.Time, bool) {
	w := m.wall(t)
	if t.IsZero() || w.Year() < 1000 || w.Year() > 9999 {
		return time.Time{}, false
	}
	return w, true
}
