package aodbrequest

import (
	"context"
	"errors"
	"time"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
)

// OutboundReader reads coutmsgs (*mailbox.Mailbox); the mailbox guard only reads.
type OutboundReader interface {
	OutboundBetween(ctx context.Context, p mailbox.OutboundBetweenParams) ([]mailbox.Outbound, error)
}

// mailboxWindow bounds the rows the mailbox guard reads.
const mailboxWindow = 200

// Guard decides, inside the pump's transaction, whether a RESP answers a
// request (request.guard). A nil *Guard is the default mode, request.
type Guard struct {
	mode    Mode
	mb      OutboundReader
	timeout time.Duration
	decode  sis.Options
}

// NewGuard builds the guard of a mode. The mailbox mode reads coutmsgs
// rows inserted within timeout before a RESP's DTTM, decoded with decode.
func NewGuard(mode Mode, mb OutboundReader, timeout time.Duration, decode sis.Options) *Guard {
	return &Guard{mode: mode, mb: mb, timeout: timeout, decode: decode}
}

// Mode is the guard's mode.
func (g *Guard) Mode() Mode {
	if g == nil {
		return ModeRequest
	}
	return g.mode
}

// Decide reads what a RESP may answer and matches it. In request mode it
// locks the open request, so nothing supersedes or expires it before the
// transaction ends.
func (g *Guard) Decide(ctx context.Context, ex store.Executor, resp Resp) (Decision, error) {
	key, dttm := resp.Key, resp.DTTM
	switch g.Mode() {
	case ModeOff:
		return Decision{Matched: true, Rule: RuleOff}, nil
	case ModeMailbox:
		rows, err := g.mb.OutboundBetween(ctx, mailbox.OutboundBetweenParams{From: dttm.Add(-g.timeout), To: dttm, Limit: mailboxWindow})
		if err != nil {
			return Decision{}, err
		}
		return MatchMailbox(dttm, key, decodeOutbound(rows, g.decode)), nil
	}
	open, err := ex.OpenRequestForUpdate(ctx, key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Match(resp, nil), nil
	case err != nil:
		return Decision{}, err
	}
	return Match(resp, &open), nil
}

// Complete marks the answered request DONE, in the transaction that applied
// the RESP (nothing to do in the other modes).
func (g *Guard) Complete(ctx context.Context, ex store.Executor, d Decision, msgID int64, now time.Time) error {
	if d.Request == nil {
		return nil
	}
	return ex.MarkRequestDone(ctx, store.MarkRequestDoneParams{ID: d.Request.ID, MsgID: msgID, MatchRule: d.Rule, Now: now})
}

// decodeOutbound keeps the rows that are requests, with their kind and
// range; anything else in coutmsgs is not ours to judge.
func decodeOutbound(rows []mailbox.Outbound, opt sis.Options) []Outbound {
	var out []Outbound
	for _, r := range rows {
		o, ok := outboundOf(r, opt)
		if ok {
			out = append(out, o)
		}
	}
	return out
}

func outboundOf(r mailbox.Outbound, opt sis.Options) (Outbound, bool) {
	m, err := sis.Decode([]byte(r.Body), opt)
	if err != nil || m.Kind != sis.KindRequest || m.Request == nil {
		return Outbound{}, false
	}
	o := Outbound{ID: r.ID, InsertedAt: r.InsertedAt}
	switch q := m.Request; q.Type {
	case TypeFlights:
		o.Key = KeyFlights
		if q.Begin.Op == sis.Set && q.End.Op == sis.Set {
			b, e := q.Begin.Time, q.End.Time
			o.Begin, o.End = &b, &e
		}
	case TypeReference:
		code := q.ListCode.Raw
		if code == "" {
			code = m.Meta.Subtype
		}
		o.Key = RefKey(code)
	default:
		return Outbound{}, false
	}
	return o, true
}
