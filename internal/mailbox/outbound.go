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

// InsertOutboundParams is a request for the AODB to write.
type InsertOutboundParams struct {
	Body       []byte
	InsertedAt time.Time
	RoutingID  string
}

// InsertOutbound writes a request for the AODB, inserted at InsertedAt
// (stored as its airport wall clock, whole seconds), and returns its
// COUTMSGS_ID. Shadow mode refuses it (ErrReadOnly).
func (m *Mailbox) InsertOutbound(ctx context.Context, p InsertOutboundParams) (int64, error) {
	if m.readOnly {
		return 0, ErrReadOnly
	}
	if len(p.Body) > MaxBody {
		return 0, fmt.Errorf("mailbox: outbound insert %d bytes: %w (max %d)", len(p.Body), ErrTooLarge, MaxBody)
	}
	b := string(p.Body)
	id, err := m.q.OutboundInsert(ctx, m.db, dbmb.OutboundInsertParams{Body: &b, InsertedAt: m.wall(p.InsertedAt), RoutingID: p.RoutingID})
	if err != nil {
		return 0, unavailable("outbound insert", err)
	}
	return id, nil
}

// FindOutboundParams names one of our own requests by its META.
type FindOutboundParams struct {
	Sender string
	Seqn   int64
	Since  time.Time
	Limit  int
}

// FindOutbound returns the rows inserted since Since whose XML carries
// <SNDR>Sender</SNDR> and then <SEQN>Seqn</SEQN>, newest first (at most
// Limit): the candidates for one of our own requests. The caller decodes
// them to confirm.
func (m *Mailbox) FindOutbound(ctx context.Context, p FindOutboundParams) ([]Outbound, error) {
	pattern := "%<SNDR>" + likeEscape(p.Sender) + "</SNDR>%<SEQN>" + strconv.FormatInt(p.Seqn, 10) + "</SEQN>%"
	rows, err := m.q.OutboundFind(ctx, m.db, dbmb.OutboundFindParams{Since: m.wall(p.Since), Pattern: &pattern, Limit: limit32(p.Limit)})
	if err != nil {
		return nil, unavailable("outbound find", err)
	}
	out := make([]Outbound, len(rows))
	for i, r := range rows {
		out[i] = Outbound{ID: r.CoutmsgsID, InsertedAt: *m.instant(&r.CoutmsgsDateInserted), Body: deref(r.CoutmsgsClobMsg)}
	}
	return out, nil
}

// OutboundBetweenParams is a window of insert times.
type OutboundBetweenParams struct {
	From, To time.Time
	Limit    int
}

// OutboundBetween returns the rows inserted in [From, To] (whole seconds,
// airport wall clock), newest first, at most Limit.
func (m *Mailbox) OutboundBetween(ctx context.Context, p OutboundBetweenParams) ([]Outbound, error) {
	rows, err := m.q.OutboundBetween(ctx, m.db, dbmb.OutboundBetweenParams{FromTime: m.wall(p.From), ToTime: m.wall(p.To), Limit: limit32(p.Limit)})
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
