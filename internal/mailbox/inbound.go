package mailbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
)

// ListAfter returns up to limit unprocessed row ids greater than afterID, ascending.
func (m *Mailbox) ListAfter(ctx context.Context, afterID int64, limit int) ([]int64, error) {
	var (
		ids []int64
		err error
	)
	if m.includeProcessed {
		ids, err = m.q.InboundListAfterAny(ctx, m.db, dbmb.InboundListAfterAnyParams{AfterID: afterID, Limit: limit32(limit)})
	} else {
		ids, err = m.q.InboundListAfter(ctx, m.db, dbmb.InboundListAfterParams{AfterID: afterID, Limit: limit32(limit)})
	}
	if err != nil {
		return nil, unavailable("list after", err)
	}
	return ids, nil
}

// Visible is a row after the watermark: its id and whether msgx should
// leave it (processed already; never in shadow mode, which takes every row).
type Visible struct {
	ID   int64
	Done bool
	Size int // bytes of its XML
}

// VisibleAfter returns up to limit rows with an id greater than afterID,
// processed or not, ascending: the ids that exist, so the poller can tell a
// hole (docs/design.md §1.1).
func (m *Mailbox) VisibleAfter(ctx context.Context, afterID int64, limit int) ([]Visible, error) {
	rows, err := m.q.InboundVisibleAfter(ctx, m.db, dbmb.InboundVisibleAfterParams{AfterID: afterID, Limit: limit32(limit)})
	if err != nil {
		return nil, unavailable("list after", err)
	}
	out := make([]Visible, len(rows))
	for i, r := range rows {
		out[i] = Visible{ID: r.CminmsgsID, Done: r.Processed && !m.includeProcessed, Size: int(r.Size)}
	}
	return out, nil
}

// UnprocessedParams is one page of the reconciliation pass.
type UnprocessedParams struct {
	AfterID, UpTo int64
	Limit         int
}

// Unprocessed returns up to Limit unprocessed row ids in (AfterID, UpTo],
// ascending: one page of the reconciliation pass, at any age.
func (m *Mailbox) Unprocessed(ctx context.Context, p UnprocessedParams) ([]int64, error) {
	ids, err := m.q.InboundUnprocessedPage(ctx, m.db, dbmb.InboundUnprocessedPageParams{AfterID: p.AfterID, UpTo: p.UpTo, Limit: limit32(p.Limit)})
	if err != nil {
		return nil, unavailable("unprocessed page", err)
	}
	return ids, nil
}

// RescanParams is one look behind the watermark.
type RescanParams struct {
	FromID, ToID  int64
	ReceivedAfter time.Time
	Limit         int
}

// Rescan returns up to Limit unprocessed row ids in (FromID, ToID], ascending,
// received at or after ReceivedAfter (or with no receive time): the bounded
// look behind the watermark that finds rows committed late with smaller ids.
func (m *Mailbox) Rescan(ctx context.Context, p RescanParams) ([]int64, error) {
	var (
		ids []int64
		err error
	)
	if m.includeProcessed {
		ids, err = m.q.InboundRescanAny(ctx, m.db, dbmb.InboundRescanAnyParams{
			FromID: p.FromID, ToID: p.ToID, ReceivedAfter: m.wallPtr(p.ReceivedAfter), Limit: limit32(p.Limit),
		})
	} else {
		ids, err = m.q.InboundRescan(ctx, m.db, dbmb.InboundRescanParams{
			FromID: p.FromID, ToID: p.ToID, ReceivedAfter: m.wallPtr(p.ReceivedAfter), Limit: limit32(p.Limit),
		})
	}
	if err != nil {
		return nil, unavailable("rescan", err)
	}
	return ids, nil
}

// ReadRaw returns the XML of a row. A row that does not exist is ErrMissing;
// every other failure is ErrUnavailable, so an outage is never taken for a
// missing row (which would make the message DEAD instead of retried).
func (m *Mailbox) ReadRaw(ctx context.Context, id int64) ([]byte, error) {
	raw, err := m.q.InboundGetRaw(ctx, m.db, id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("mailbox: read row %d: %w", id, ErrMissing)
	case err != nil:
		return nil, unavailable(fmt.Sprintf("read row %d", id), err)
	}
	return raw, nil
}

// ReadRaws returns the XML of many rows in one round trip, by id. Rows that
// do not exist are absent from the map; a failure is ErrUnavailable.
// Consecutive ids (a run's usually are) are read as one range of the key.
func (m *Mailbox) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	var (
		rows []dbmb.InboundGetRawManyRow
		err  error
	)
	if first, last, ok := consecutive(ids); ok {
		var got []dbmb.InboundGetRawRangeRow
		got, err = m.q.InboundGetRawRange(ctx, m.db, dbmb.InboundGetRawRangeParams{First: first, Last: last})
		rows = make([]dbmb.InboundGetRawManyRow, len(got))
		for i, r := range got {
			rows[i] = dbmb.InboundGetRawManyRow(r)
		}
	} else {
		rows, err = m.q.InboundGetRawMany(ctx, m.db, ids)
	}
	if err != nil {
		return nil, unavailable(fmt.Sprintf("read %d rows", len(ids)), err)
	}
	raws := make(map[int64][]byte, len(rows))
	for _, r := range rows {
		raws[r.CminmsgsID] = r.CminmsgsClobMsg
	}
	return raws, nil
}

// consecutive reports whether ids are first, first+1, …, last: then a range
// of the key reads exactly them, without a list of ids for the server to
// parse (InboundGetRawRange).
func consecutive(ids []int64) (first, last int64, ok bool) {
	if len(ids) == 0 {
		return 0, 0, false
	}
	for i, id := range ids {
		if id != ids[0]+int64(i) {
			return 0, 0, false
		}
	}
	return ids[0], ids[len(ids)-1], true
}

// RawSizes returns the byte length of the XML of many rows, by id, without
// reading the XML: what a read of them would hold. Rows that do not exist
// are absent from the map; a failure is ErrUnavailable.
func (m *Mailbox) RawSizes(ctx context.Context, ids []int64) (map[int64]int, error) {
	var (
		rows []dbmb.InboundRawSizesRow
		err  error
	)
	if first, last, ok := consecutive(ids); ok {
		var got []dbmb.InboundRawSizesRangeRow
		got, err = m.q.InboundRawSizesRange(ctx, m.db, dbmb.InboundRawSizesRangeParams{First: first, Last: last})
		rows = make([]dbmb.InboundRawSizesRow, len(got))
		for i, r := range got {
			rows[i] = dbmb.InboundRawSizesRow(r)
		}
	} else {
		rows, err = m.q.InboundRawSizes(ctx, m.db, ids)
	}
	if err != nil {
		return nil, unavailable(fmt.Sprintf("size %d rows", len(ids)), err)
	}
	sizes := make(map[int64]int, len(rows))
	for _, r := range rows {
		sizes[r.CminmsgsID] = int(r.Size)
	}
	return sizes, nil
}

// Insert stores body as a new inbound row (status VALID) received at
// receivedAt and returns its id. A body over MaxBody is ErrTooLarge: refused
// here rather than truncated by a non-strict server; so is a body the server
// refuses as over its max_allowed_packet (MaxInsertBody tells the limit).
func (m *Mailbox) Insert(ctx context.Context, body []byte, receivedAt time.Time) (int64, error) {
	if m.readOnly {
		return 0, ErrReadOnly
	}
	if len(body) > MaxBody {
		return 0, fmt.Errorf("mailbox: insert %d bytes: %w (max %d)", len(body), ErrTooLarge, MaxBody)
	}
	// One connection of the pool, held: the server closes a connection
	// after refusing a packet, and that one must not go back to the pool.
	conn, err := m.db.Conn(ctx)
	if err != nil {
		return 0, unavailable("insert", err)
	}
	defer conn.Close()
	// A server-side statement, even when the DSN interpolates: the body
	// then travels as is, not escaped (quotes and newlines doubled), so
	// every body up to BodyLimit fits the server's packet.
	id, err := m.q.InboundInsert(ctx, prepared{conn}, dbmb.InboundInsertParams{Body: body, ReceivedAt: m.wallPtr(receivedAt)})
	if tooLarge(err) {
		discard(conn)
		return 0, tooLargeError(len(body), err)
	}
	if err != nil {
		return 0, unavailable("insert", err)
	}
	return id, nil
}

// Row is the processing state of an inbound row; times are in the airport zone.
type Row struct {
	ID          int64
	ReceivedAt  *time.Time
	ProcessedAt *time.Time // nil: not processed (not backfilled) yet
	Status      string
	Sndr        string
	Seqn        *int64
	DateSent    *time.Time
	Type        string
	Subtype     string
}

// Get returns the processing state of a row (without its XML); ErrMissing if none.
func (m *Mailbox) Get(ctx context.Context, id int64) (Row, error) {
	r, err := m.q.InboundState(ctx, m.db, id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Row{}, fmt.Errorf("mailbox: get row %d: %w", id, ErrMissing)
	case err != nil:
		return Row{}, unavailable(fmt.Sprintf("get row %d", id), err)
	}
	row := Row{
		ID: r.CminmsgsID, ReceivedAt: m.instant(r.CminmsgsDateReceived), ProcessedAt: m.instant(r.CminmsgsDateProcessed),
		Status: deref(r.CminmsgsStatus), Sndr: deref(r.CminmsgsSubsystemName), DateSent: m.instant(r.CminmsgsSubsystemDateSent),
		Type: deref(r.CminmsgsSubsystemType), Subtype: deref(r.CminmsgsSubsystemSubtype),
	}
	if r.CminmsgsSubsystemSequence != nil {
		s := int64(*r.CminmsgsSubsystemSequence)
		row.Seqn = &s
	}
	return row, nil
}

func limit32(n int) int32 {
	return int32(min(max(n, 0), math.MaxInt32))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
