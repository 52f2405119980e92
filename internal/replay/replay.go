// Package replay sends FAILED and DEAD messages of the replayable classes
// back to PENDING (docs/design.md §3), for `msgx replay` and POST /admin/replay.
//
// A replay is not an undo: the pump processes a replayed message again in
// MSG_ID order only among what is still unfinished, so its content is applied
// over whatever later messages have made of its flights meanwhile. Preview
// shows what a replay would move and warns, per flight, snapshot day and
// reference record, where the current state comes from a later message than
// the one to replay. Apply moves the messages in bounded batches.
package replay

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/limits"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Classes are the replayable error classes. MALFORMED and PROTOCOL are final:
// the same bytes would be refused again.
var Classes = []string{string(sis.ClassCodec), string(sis.ClassUnsupported), string(sis.ClassInfra), string(sis.ClassExhausted)}

var (
	// ErrNotReplayable: the filter names a class that is never replayed.
	ErrNotReplayable = errors.New("not replayable")
	// ErrInvalidFilter: the filter names neither ids nor a class, or both, or a bad id.
	ErrInvalidFilter = errors.New("invalid replay filter")
)

// Defaults of Options and Apply.
const (
	DefaultLimit = 1000 // messages a Preview lists
	BatchSize    = 500  // messages Apply moves per statement
	// refChecks bounds the reference records checked per message (a DNLD
	// list can hold thousands).
	refChecks = 200
)

// Store is what a replay reads and writes; every store.Store is one.
type Store interface {
	Message(ctx context.Context, id int64) (store.Message, error)
	ReplayCandidates(ctx context.Context, ids []int64, class string, afterID int64, limit int) ([]store.Message, error)
	ReplayIDs(ctx context.Context, ids []int64, now time.Time) ([]int64, error)
	FlightMarks(ctx context.Context, flids []int64) (map[int64]store.FlightMark, error)
	SnapshotGen(ctx context.Context, fday time.Time) (store.SnapshotGen, error)
	Ref(ctx context.Context, rtype, rkey string) (store.RefRecord, error)
}

// RawReader reads raw messages from the mailbox by id (*mailbox.Mailbox);
// missing rows are absent from the map.
type RawReader interface {
	ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error)
}

// Filter selects what to replay: the given ids, or every message of one class.
type Filter struct {
	IDs   []int64 `json:"ids,omitempty"`
	Class string  `json:"class,omitempty"`
}

// Validate checks that the filter names ids or a replayable class (not both).
// Its errors wrap ErrInvalidFilter or ErrNotReplayable.
func (f Filter) Validate() error {
	switch {
	case len(f.IDs) == 0 && f.Class == "":
		return fmt.Errorf("%w: name message ids or an error class", ErrInvalidFilter)
	case len(f.IDs) > 0 && f.Class != "":
		return fmt.Errorf("%w: name message ids or an error class, not both", ErrInvalidFilter)
	}
	for _, id := range f.IDs {
		if id <= 0 {
			return fmt.Errorf("%w: message id %d is not positive", ErrInvalidFilter, id)
		}
	}
	switch {
	case f.Class == "" || slices.Contains(Classes, f.Class):
		return nil
	case slices.Contains(errorClasses, f.Class):
		return fmt.Errorf("class %s is %w (replayable: %s)", f.Class, ErrNotReplayable, strings.Join(Classes, ", "))
	}
	return fmt.Errorf("%w: unknown class %s (replayable: %s)", ErrInvalidFilter, f.Class, strings.Join(Classes, ", "))
}

// errorClasses are every class a message can fail with; the two not in
// Classes (MALFORMED, PROTOCOL) are never replayed.
var errorClasses = append([]string{string(sis.ClassMalformed), string(sis.ClassProtocol)}, Classes...)

// ids is the filter's id list for the store: sorted, unique; nil for a class.
func (f Filter) ids() []int64 {
	if len(f.IDs) == 0 {
		return nil
	}
	ids := slices.Clone(f.IDs)
	slices.Sort(ids)
	return slices.Compact(ids)
}

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

// Warning kinds.
const (
	// WarnFlight: a flight's state comes from a later message.
	WarnFlight = "flight-overwrite"
	// WarnSnapshot: a snapshot day's generation comes from a later message
	// (replaying an older snapshot replaces it and may prune).
	WarnSnapshot = "snapshot-overwrite"
	// WarnReference: a reference record comes from a later message.
	WarnReference = "reference-overwrite"
	// WarnWouldFail: this build cannot process the message either (it does
	// not decode, or its kind is not supported): it would fail again.
	WarnWouldFail = "would-fail"
	// WarnRawMissing: the mailbox row is gone: the message would go DEAD(MALFORMED).
	WarnRawMissing = "raw-missing"
	// WarnRawUnreadable: the mailbox could not be read: what the message
	// concerns is unknown, so nothing could be checked.
	WarnRawUnreadable = "raw-unreadable"
)

// Warning is one thing a replay of a message would do that the operator
// should decide on first.
type Warning struct {
	MsgID int64  `json:"msg_id"`
	Kind  string `json:"kind"`
	// FLID is the flight of a flight-overwrite (0 otherwise).
	FLID int64 `json:"flid,omitempty"`
	// Subject names what would be overwritten: "flight 1001", "day 2026-12-02", "reference AIRL/CA".
	Subject string `json:"subject,omitempty"`
	// ByMsgID is the later message the current state of the subject comes from.
	ByMsgID int64 `json:"by_msg_id,omitempty"`
	// Version is the subject's current version (STATE_VERSION, generation or record version).
	Version int64 `json:"version,omitempty"`
	// Text is the warning for a human, one line.
	Text string `json:"text"`
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
		page, err := st.ReplayCandidates(ctx, ids, f.Class, after, BatchSize)
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

func item(m store.Message) Message {
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
	case m.Status == store.StatusPending:
		return Rejected{ID: id, Reason: where + "PENDING already"}, nil
	case m.Status == store.StatusFailed || m.Status == store.StatusDead:
		return Rejected{ID: id, Reason: fmt.Sprintf("%s%s %s: never replayed (replayable: %s)", where, m.Status, m.ErrorClass, strings.Join(Classes, ", "))}, nil
	default:
		return Rejected{ID: id, Reason: where + m.Status + ": only FAILED or DEAD messages are replayed"}, nil
	}
}

// concern is what one message would change, learnt from its raw XML.
type concern struct {
	decoded  *sis.Message
	records  []*sis.FlightRecord // schedule and FLOP records (for SODT)
	snapshot bool
	refs     []sis.RefRecord
	refType  string
}

// warn fills the flights of a batch of plan messages and appends their warnings.
func warn(ctx context.Context, st Store, mb RawReader, dec sis.Options, batch []Message, out *[]Warning) error {
	ids := make([]int64, len(batch))
	for i, m := range batch {
		ids[i] = m.ID
	}
	raws, rerr := mb.ReadRaws(ctx, ids)
	concerns := make([]concern, len(batch))
	var flids []int64
	for i := range batch {
		m := &batch[i]
		if rerr != nil {
			*out = append(*out, Warning{MsgID: m.ID, Kind: WarnRawUnreadable,
				Text: fmt.Sprintf("message %d: mailbox not readable (%s): what it concerns is unknown, nothing checked", m.ID, oneline.Text(rerr.Error(), 200))})
			continue
		}
		raw, ok := raws[m.ID]
		if !ok {
			*out = append(*out, Warning{MsgID: m.ID, Kind: WarnRawMissing,
				Text: fmt.Sprintf("message %d: its mailbox row is missing: the replay would make it DEAD (MALFORMED)", m.ID)})
			continue
		}
		c, fail := learn(raw, dec)
		concerns[i] = c
		if fail != "" {
			*out = append(*out, Warning{MsgID: m.ID, Kind: WarnWouldFail,
				Text: fmt.Sprintf("message %d: this build cannot process it either (%s): the replay would fail again", m.ID, fail)})
		}
		if c.decoded != nil {
			if m.Identity == "" {
				m.Identity = c.decoded.Identity
			}
			if m.Kind == "" {
				m.Kind = string(c.decoded.Kind)
			}
		}
		m.Flights = flightsOf(c, raw)
		flids = append(flids, m.Flights...)
	}
	slices.Sort(flids)
	flids = slices.Compact(flids)
	marks, err := st.FlightMarks(ctx, flids)
	if err != nil {
		return fmt.Errorf("replay: read flights: %w", err)
	}
	gens := map[time.Time]*store.SnapshotGen{}
	for i, m := range batch {
		for _, flid := range m.Flights {
			mk, ok := marks[flid]
			if !ok || mk.LastMessageID <= m.ID {
				continue
			}
			state := ""
			if mk.Lifecycle != flight.Active {
				state = " (" + mk.Lifecycle + ")"
			}
			*out = append(*out, Warning{MsgID: m.ID, Kind: WarnFlight, FLID: flid, Subject: fmt.Sprintf("flight %d", flid),
				ByMsgID: mk.LastMessageID, Version: mk.StateVersion,
				Text: fmt.Sprintf("replaying %d would apply an older message over flight %d's state%s from message %d (state version %d)",
					m.ID, flid, state, mk.LastMessageID, mk.StateVersion)})
		}
		c := concerns[i]
		if c.snapshot {
			for _, day := range snapshotDays(c.records, marks) {
				g, ok := gens[day]
				if !ok {
					gen, err := st.SnapshotGen(ctx, day)
					switch {
					case errors.Is(err, store.ErrNotFound):
					case err != nil:
						return fmt.Errorf("replay: read snapshot day %s: %w", day.Format(time.DateOnly), err)
					default:
						g = &gen
					}
					gens[day] = g
				}
				if g == nil || g.LastMessageID <= m.ID {
					continue
				}
				d := day.Format(time.DateOnly)
				*out = append(*out, Warning{MsgID: m.ID, Kind: WarnSnapshot, Subject: "day " + d, ByMsgID: g.LastMessageID, Version: g.Version,
					Text: fmt.Sprintf("replaying %d would replace day %s's snapshot generation %d from message %d, and may prune flights of that day",
						m.ID, d, g.Version, g.LastMessageID)})
			}
		}
		for j, r := range c.refs {
			if j == refChecks {
				*out = append(*out, Warning{MsgID: m.ID, Kind: WarnReference, Subject: "reference " + c.refType,
					Text: fmt.Sprintf("message %d: only the first %d of its %d %s records were checked", m.ID, refChecks, len(c.refs), c.refType)})
				break
			}
			rec, err := st.Ref(ctx, c.refType, r.Key)
			switch {
			case errors.Is(err, store.ErrNotFound):
				continue
			case err != nil:
				return fmt.Errorf("replay: read reference %s/%s: %w", c.refType, r.Key, err)
			}
			if rec.LastMessageID <= m.ID {
				continue
			}
			subject := c.refType + "/" + r.Key
			*out = append(*out, Warning{MsgID: m.ID, Kind: WarnReference, Subject: "reference " + subject, ByMsgID: rec.LastMessageID, Version: rec.Version,
				Text: fmt.Sprintf("replaying %d would apply an older message over reference %s from message %d (version %d)",
					m.ID, subject, rec.LastMessageID, rec.Version)})
		}
	}
	return nil
}

// learn decodes a raw message for what it would change. fail says why this
// build could not process it ("" when it could).
func learn(raw []byte, dec sis.Options) (concern, string) {
	m, err := limits.Decode(raw, dec)
	if err != nil {
		class := sis.ClassOf(err)
		if class == "" {
			class = sis.ClassCodec
		}
		var se *sis.Error
		detail := err.Error()
		if errors.As(err, &se) {
			detail = se.Detail()
		}
		return concern{decoded: m}, fmt.Sprintf("%s: %s", class, oneline.Text(detail, 200))
	}
	c := concern{decoded: m}
	switch {
	case m.Schedule != nil:
		c.records, c.snapshot = m.Schedule.Flights, m.Schedule.Snapshot()
	case m.FlightOps != nil:
		c.records = m.FlightOps.Records
	case m.Ref != nil:
		c.refs, c.refType = m.Ref.Records, m.Ref.Type
	}
	if m.Kind == sis.KindUnsupported {
		return c, "UNSUPPORTED: " + oneline.Text(m.Note, 200)
	}
	return c, ""
}

// flightsOf lists the FLIDs a message concerns, sorted. When it does not
// decode, the FLID elements are picked out of the XML leniently, so the
// operator still sees what it is about.
func flightsOf(c concern, raw []byte) []int64 {
	var flids []int64
	switch m := c.decoded; {
	case m != nil && m.Kind != "":
		for _, r := range c.records {
			flids = append(flids, r.FLID)
		}
		if m.Delete != nil {
			for _, r := range m.Delete.Records {
				flids = append(flids, r.FLID)
			}
		}
	default:
		flids = scanFLIDs(raw)
	}
	slices.Sort(flids)
	flids = slices.Compact(flids)
	if flids == nil {
		flids = []int64{}
	}
	return flids
}

// scanFLIDs collects the integer text of every FLID element of a document
// the codec refused, as far as the XML reads.
func scanFLIDs(raw []byte) []int64 {
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = false
	var flids []int64
	in := false
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			return flids
		}
		switch t := tok.(type) {
		case xml.StartElement:
			in = strings.EqualFold(t.Name.Local, "FLID")
			text.Reset()
		case xml.CharData:
			if in {
				text.Write(t)
			}
		case xml.EndElement:
			if in {
				if n, err := strconv.ParseInt(strings.TrimSpace(text.String()), 10, 64); err == nil && n > 0 {
					flids = append(flids, n)
				}
			}
			in = false
		}
	}
}

// snapshotDays are the flight days a snapshot's records belong to: the
// stored operation day of a known flight (never changed), else the local
// date of the record's SODT.
func snapshotDays(records []*sis.FlightRecord, marks map[int64]store.FlightMark) []time.Time {
	var days []time.Time
	for _, r := range records {
		if mk, ok := marks[r.FLID]; ok {
			days = append(days, flight.LocalDay(mk.OperationDay))
			continue
		}
		if sodt := r.Scalar("SODT"); sodt.Op == sis.Set && !sodt.Time.IsZero() {
			days = append(days, flight.LocalDay(sodt.Time))
		}
	}
	slices.SortFunc(days, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(days, func(a, b time.Time) bool { return a.Equal(b) })
}

// Apply moves what f selects back to PENDING in batches of BatchSize (each
// batch one statement), reporting progress after each (done of total; total
// is counted first), and returns the ids moved in MSG_ID order. A message
// that changed meanwhile (processed, or replayed by someone else) is skipped.
// On an error the ids moved so far are returned with it.
func Apply(ctx context.Context, st Store, f Filter, now time.Time, progress func(done, total int)) ([]int64, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if progress == nil {
		progress = func(int, int) {}
	}
	ids := f.ids()
	var todo []int64
	var after int64
	for {
		page, err := st.ReplayCandidates(ctx, ids, f.Class, after, BatchSize)
		if err != nil {
			return nil, fmt.Errorf("replay: list candidates: %w", err)
		}
		for _, m := range page {
			todo = append(todo, m.ID)
		}
		if len(page) < BatchSize {
			break
		}
		after = page[len(page)-1].ID
	}
	moved := []int64{}
	progress(0, len(todo))
	for from := 0; from < len(todo); from += BatchSize {
		batch := todo[from:min(from+BatchSize, len(todo))]
		got, err := st.ReplayIDs(ctx, batch, now)
		if err != nil {
			return moved, fmt.Errorf("replay: after %d of %d messages: %w", len(moved), len(todo), err)
		}
		moved = append(moved, got...)
		progress(from+len(batch), len(todo))
	}
	return moved, nil
}
