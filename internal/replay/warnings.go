package replay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// refChecks bounds the reference records checked per message (a DNLD list
// can hold thousands).
const refChecks = 200

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
	gens := map[time.Time]*vocab.SnapshotGen{}
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
	m, err := decode.Message(raw, dec)
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
