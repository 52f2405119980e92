package mailbox

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
)

// The outbound mailbox coutmsgs: msgx writes its requests (RQFD/RQRD) there
// and reads them back, never anything else.

// Outbound is one coutmsgs row; InsertedAt is in the airport zone.
type Outbound struct {
	ID         int64
	InsertedAt time.Time
	Body       string
}

// InsertOutbound writes a request for the AODB, inserted at insertedAt
// (stored as its airport wall clock, whole seconds), and returns its
// COUTMSGS_ID. Shadow mode refuses it (ErrReadOnly).
func (m *Mailbox) InsertOutbound(ctx context.Context, body []byte, insertedAt time.Time, routingID string) (int64, error) {
	if m.readOnly {
		return 0, ErrReadOnly
	}
	if len(body) > MaxBody {
		return 0, fmt.Errorf("mailbox: outbound insert %d bytes: %w (max %d)", len(body), ErrTooLarge, MaxBody)
	}
	b := string(body)
	id, err := m.q.OutboundInsert(ctx, m.db, dbmb.OutboundInsertParams{Body: &b, InsertedAt: m.wall(insertedAt), RoutingID: routingID})
	if err != nil {
		return 0, unavailable("outbound insert", err)
	}
	return id, nil
}

// FindOutbound returns the rows inserted since a time whose XML carries
// <SNDR>sender</SNDR> and then <SEQN>seqn</SEQN>, newest first (at most
// limit): the candidates for one of our own requests. The caller decodes
// them to confirm.
func (m *Mailbox) FindOutbound(ctx context.Context, sender string, seqn int64, since time.Time, limit int) ([]Outbound, error) {
	pattern := "%<SNDR>" + likeEscape(sender) + "</SNDR>%<SEQN>" + strconv.FormatInt(seqn, 10) + "</SEQN>%"
	rows, err := m.q.OutboundFind(ctx, m.db, dbmb.OutboundFindParams{Since: m.wall(since), Pattern: &pattern, Limit: limit32(limit)})
	if err != nil {
		return nil, unavailable("outbound find", err)
	}
	out := make([]Outbound, len(rows))
	for i, r := range rows {
		out[i] = Outbound{ID: r.CoutmsgsID, InsertedAt: *m.instant(&r.CoutmsgsDateInserted), Body: deref(r.CoutmsgsClobMsg)}
	}
	return out, nil
}

// OutboundBetween returns the rows inserted in [from, to] (whole seconds,
// airport wall clock), newest first, at most limit.
func (m *Mailbox) OutboundBetween(ctx context.Context, from, to time.Time, limit int) ([]Outbound, error) {
	rows, err := m.q.OutboundBetween(ctx, m.db, dbmb.OutboundBetweenParams{FromTime: m.wall(from), ToTime: m.wall(to), Limit: limit32(limit)})
	if err != nil {
		return nil, unavailable("outbound read", err)
	}
	out := make([]Outbound, len(rows))
	for i, r := range rows {
		out[i] = Outbound{ID: r.CoutmsgsID, InsertedAt: *m.instant(&r.CoutmsgsDateInserted), Body: deref(r.CoutmsgsClobMsg)}
	}
	return out, nil
}

// likeEscape escapes LIKE's wildcards and its escape character.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
