package replay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Options tune Preview.
type Options struct {
	// Decode decodes the raw messages to learn what they concern; use the
	// service's options (airport zone, ignore list, identity rule).
	Decode sis.Options
	// Limit is the most messages the plan lists (0: DefaultLimit); the plan
	// still counts all of them.
	Limit int
}

// Plan is what a replay would do now.
type Plan struct {
	Filter Filter `json:"filter"`
	// Messages are the messages a replay would move back to PENDING, in MSG_ID order.
	Messages []Message `json:"messages"`
	// Total counts them all; Truncated when Messages lists fewer.
	Total     int  `json:"total"`
	Truncated bool `json:"truncated"`
	// Rejected are the ids asked for that a replay would not move, and why.
	Rejected []Rejected `json:"rejected"`
	// Warnings are what the operator should know first, per listed message.
	Warnings []Warning `json:"warnings"`
}

// Message is one message of the plan.
type Message struct {
	ID          int64     `json:"msg_id"`
	Status      string    `json:"status"`
	Class       string    `json:"error_class"`
	Reason      string    `json:"reason"`
	Attempts    int       `json:"attempts"`
	ReplayCount int       `json:"replay_count"`
	FirstSeenAt time.Time `json:"first_seen_at"`
	Identity    string    `json:"identity,omitempty"` // as bound, else as decoded now
	Kind        string    `json:"kind,omitempty"`     // as bound, else as decoded now
	// Flights are the FLIDs the message concerns, when its raw could be read.
	Flights []int64 `json:"flights"`
}

// Rejected is an id a replay would not move.
type Rejected struct {
	ID     int64  `json:"msg_id"`
	Reason string `json:"reason"`
}

// Preview lists what a replay with f would move back to PENDING now, and
// warns where it would apply an older message over a newer state. It changes
// nothing. A store failure is an error; a mailbox failure is a warning per
// message (nothing could be checked for it).
func Preview(ctx context.Context, st Store, mb RawReader, f Filter, opt Options) (Plan, error) {
	if err := f.Validate(); err != nil {
		return Plan{}, err
	}
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	p := Plan{Filter: f, Messages: []Message{}, Rejected: []Rejected{}, Warnings: []Warning{}}
	ids := f.ids()
	var found []int64
	var after int64
	for {
		page, err := st.ReplayCandidates(ctx, store.ReplayCandidatesParams{IDs: ids, Class: f.Class, AfterID: after, Limit: BatchSize})
		if err != nil {
			return Plan{}, fmt.Errorf("replay: list candidates: %w", err)
		}
		for _, m := range page {
			found = append(found, m.ID)
			if len(p.Messages) < limit {
				p.Messages = append(p.Messages, item(m))
			}
		}
		p.Total += len(page)
		if len(page) < BatchSize {
			break
		}
		after = page[len(page)-1].ID
	}
	p.Truncated = p.Total > len(p.Messages)

	for _, id := range ids {
		if _, ok := slices.BinarySearch(found, id); ok {
			continue
		}
		r, err := rejection(ctx, st, id)
		if err != nil {
			return Plan{}, err
		}
		p.Rejected = append(p.Rejected, r)
	}

	for from := 0; from < len(p.Messages); from += BatchSize {
		if err := warn(ctx, st, mb, opt.Decode, p.Messages[from:min(from+BatchSize, len(p.Messages))], &p.Warnings); err != nil {
			return Plan{}, err
		}
	}
	return p, nil
}

func item(m vocab.QueueEntry) Message {
	return Message{ID: m.ID, Status: m.Status, Class: m.ErrorClass, Reason: m.Reason, Attempts: m.Attempts,
		ReplayCount: m.ReplayCount, FirstSeenAt: m.FirstSeenAt, Identity: m.IdentityKey, Kind: m.Kind, Flights: []int64{}}
}

// rejection says why an id asked for is not replayable.
func rejection(ctx context.Context, st Store, id int64) (Rejected, error) {
	m, err := st.Message(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Rejected{ID: id, Reason: "not found (neither in the queue nor archived)"}, nil
	case err != nil:
		return Rejected{}, fmt.Errorf("replay: read message %d: %w", id, err)
	}
	where := ""
	if m.Archived {
		where = "archived, "
	}
	switch {
	case m.Status == vocab.StatusPending:
		return Rejected{ID: id, Reason: where + "PENDING already"}, nil
	case m.Status == vocab.StatusFailed || m.Status == vocab.StatusDead:
		return Rejected{ID: id, Reason: fmt.Sprintf("%s%s %s: never replayed (replayable: %s)", where, m.Status, m.ErrorClass, strings.Join(Classes, ", "))}, nil
	default:
		return Rejected{ID: id, Reason: where + m.Status + ": only FAILED or DEAD messages are replayed"}, nil
	}
}
