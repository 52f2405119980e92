package aodbrequest

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
)

// mailboxWindow bounds the rows the mailbox guard reads.
const mailboxWindow = 200

// Guard reads, inside the pump's transaction, what a RESP may answer
// (request.guard); respmatch.Decide decides. A nil *Guard is the default mode, request.
type Guard struct {
	mode    respmatch.Mode
	mb      OutboundReader
	timeout time.Duration
	decode  sis.Options
}

// NewGuard builds the guard of a mode. The mailbox mode reads coutmsgs
// rows inserted within timeout before a RESP's DTTM, decoded with decode.
func NewGuard(mode respmatch.Mode, mb OutboundReader, timeout time.Duration, decode sis.Options) *Guard {
	return &Guard{mode: mode, mb: mb, timeout: timeout, decode: decode}
}

// respmatch.Mode is the guard's mode.
func (g *Guard) Mode() respmatch.Mode {
	if g == nil {
		return respmatch.ModeRequest
	}
	return g.mode
}

// Read reads what a RESP of the kind key, sent at dttm, may answer, for
// respmatch.Decide. In request mode it locks the open request, so nothing
// supersedes or expires it before the transaction ends; the mailbox mode
// reads coutmsgs; off reads nothing.
func (g *Guard) Read(ctx context.Context, ex respmatch.OpenReader, key string, dttm time.Time) (respmatch.Candidates, error) {
	switch g.Mode() {
	case respmatch.ModeOff:
		return respmatch.Candidates{}, nil
	case respmatch.ModeMailbox:
		rows, err := g.mb.OutboundBetween(ctx, mailbox.OutboundBetweenParams{From: dttm.Add(-g.timeout), To: dttm, Limit: mailboxWindow})
		if err != nil {
			return respmatch.Candidates{}, err
		}
		return respmatch.Candidates{Outbound: decodeOutbound(rows, g.decode)}, nil
	}
	return respmatch.ReadOpen(ctx, ex, key)
}

// decodeOutbound keeps the rows that are requests, with their kind and
// range; anything else in coutmsgs is not ours to judge.
func decodeOutbound(rows []mailbox.Outbound, opt sis.Options) []respmatch.Outbound {
	var out []respmatch.Outbound
	for _, r := range rows {
		o, ok := outboundOf(r, opt)
		if ok {
			out = append(out, o)
		}
	}
	return out
}

func outboundOf(r mailbox.Outbound, opt sis.Options) (respmatch.Outbound, bool) {
	m, err := sis.Decode([]byte(r.Body), opt)
	if err != nil || m.Kind != sis.KindRequest || m.Request == nil {
		return respmatch.Outbound{}, false
	}
	o := respmatch.Outbound{ID: r.ID, InsertedAt: r.InsertedAt}
	switch q := m.Request; q.Type {
	case respmatch.TypeFlights:
		o.Key = respmatch.KeyFlights
		if q.Begin.Op == sis.Set && q.End.Op == sis.Set {
			b, e := q.Begin.Time, q.End.Time
			o.Begin, o.End = &b, &e
		}
	case respmatch.TypeReference:
		code := q.ListCode.Raw
		if code == "" {
			code = m.Meta.Subtype
		}
		o.Key = respmatch.RefKey(code)
	default:
		return respmatch.Outbound{}, false
	}
	return o, true
}
