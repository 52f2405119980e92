package apply

import (
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Writes is what a message, or a batch of messages, writes, field by field
// in the order the store takes it: the generations' compare-and-set first
// (a generation that moved meanwhile fails the message before anything else
// is written), the audit rows, reference records, flights before the events
// and memberships that refer to them, the answered request, the terminal
// statuses, and the mailbox backfill todos.
type Writes struct {
	Advances     []vocab.AdvanceSnapshotGenParams // one compare-and-set per applied snapshot day
	SnapshotLogs []vocab.SnapshotLog              // one audit row per applied or stale day
	RefUpserts   []vocab.RefRecord
	RefDeletes   []RefKey
	RefList      *RefList // a reference RESP's whole list: keys it lacks are deleted
	Flights      []vocab.FlightWrite
	Events       []vocab.NewEvent             // KAFKA:msg, one per change
	SchdMarks    []vocab.SchdMark             // KAFKA:schd, one per changed flight: its last change
	Members      []Members                    // the applied snapshot days' new memberships
	RequestDone  *vocab.MarkRequestDoneParams // the request a RESP answered
	Finishes     []vocab.Finish
	Backfills    []vocab.Backfill

	byFLID map[int64]int // index into Flights: a flight changed twice is written once, last state
	markOf map[int64]int // index into SchdMarks: a flight changed twice is marked once, last change
}

// RefKey names one reference record.
type RefKey struct{ RType, RKey string }

// RefList is a reference list's keys after a RESP.
type RefList struct {
	RType string
	Keep  []string
}

// Members is a snapshot day's membership.
type Members struct {
	FDay  time.Time
	FLIDs []int64
}

// addResults queues a message's flight results: the row (final state, every
// replaced collection with the version that last replaced it) and, per
// changed flight, its KAFKA:msg event and KAFKA:schd mark built from the
// state of that message (rule 7). A message with an event over the record
// limit is refused: it queues nothing and the refusal's reason is returned.
func (a *Applier) addResults(w *Writes, msgID int64, results []flight.Result, now time.Time) (tooLarge string, err error) {
	if !a.cfg.Shadow {
		before := len(w.SchdMarks)
		if w.Events, w.SchdMarks, tooLarge, err = messageEvents(w.Events, w.SchdMarks, msgID, results, now, a.limit, &a.payloads); err != nil || tooLarge != "" {
			return tooLarge, err
		}
		w.SchdMarks = w.latestMarks(before)
	}
	if w.byFLID == nil {
		w.byFLID = map[int64]int{}
	}
	for _, r := range results {
		if !r.Write {
			continue
		}
		if i, ok := w.byFLID[r.Next.FLID]; ok {
			w.Flights[i].State = r.Next
			w.Flights[i].Changes = w.Flights[i].Changes.Merge(r.Changes)
		} else {
			w.byFLID[r.Next.FLID] = len(w.Flights)
			w.Flights = append(w.Flights, vocab.FlightWrite{State: r.Next, Changes: r.Changes, New: r.Created})
		}
	}
	return "", nil
}

// latestMarks keeps one mark per flight: a mark appended from index added
// on replaces the flight's earlier one (a later message of the batch).
func (w *Writes) latestMarks(added int) []vocab.SchdMark {
	if w.markOf == nil {
		w.markOf = map[int64]int{}
	}
	marks := w.SchdMarks[:added]
	for _, m := range w.SchdMarks[added:] {
		if i, ok := w.markOf[m.FLID]; ok {
			marks[i] = m
			continue
		}
		w.markOf[m.FLID] = len(marks)
		marks = append(marks, m)
	}
	return marks
}

// finish queues the terminal status with the message's binding (nil: bound
// before, or nothing to bind) and the mailbox backfill todo. A refused
// message keeps its META for audit but binds no identity.
func (a *Applier) finish(w *Writes, m vocab.QueueEntry, meta vocab.Meta, out Outcome, bind *vocab.Binding, now time.Time) {
	if bind == nil && out.Status == vocab.StatusDead && metaKnown(meta) && m.IdentityKey == "" {
		bind = &vocab.Binding{Meta: meta}
	}
	w.Finishes = append(w.Finishes, vocab.Finish{
		MsgID: m.ID, Status: out.Status, ErrorClass: string(out.Class),
		Reason: widths.Reason.Cut(out.Reason), DuplicateOf: out.DuplicateOf, Bind: bind,
		Read: vocab.ReadOf(m), Now: now,
	})
	// Every terminal message is backfilled: the AODB sees it read, with the
	// META columns where META decoded (a MALFORMED row gets only its status).
	// A replayed message may have been backfilled DEAD before: its new
	// outcome overwrites that backfill, msgx's own (rule 18).
	if !a.cfg.Shadow {
		todo := vocab.Backfill{MsgID: m.ID, MailboxStatus: out.Status, ProcessedAt: now, Meta: meta, NextAttemptAt: now,
			Registration: int64(m.ReplayCount)}
		if m.ReplayCount > 0 {
			todo.OverwritesStatus = vocab.StatusDead
		}
		w.Backfills = append(w.Backfills, todo)
	}
}
