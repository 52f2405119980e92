package compare

import (
	"fmt"
	"sort"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
)

// Snapshot is what a DNLD/RESP says the day is: each record applied to an
// empty state, and per flight a Mask of what its record carried (a DNLD
// record may leave out elements; the database's values of those are not the
// DNLD's business and are not compared).
type Snapshot struct {
	States map[int64]*flight.State
	Masks  map[int64]*Mask
	Days   []time.Time // operation days of the records, in order
}

// FromSnapshot decodes a DNLD or RESP message and builds its Snapshot. Each
// record goes through flight.Next, the function the pump uses, so parsed
// values and operation days are computed exactly as msgx computes them.
func FromSnapshot(raw []byte, opt sis.Options) (*Snapshot, error) {
	msg, err := sis.Decode(raw, opt)
	if err != nil {
		return nil, err
	}
	if msg.Kind != sis.KindSchedule || !msg.Schedule.Snapshot() {
		return nil, fmt.Errorf("not a snapshot: a DNLD or RESP schedule message is needed, this is %s", describe(msg))
	}
	snap := &Snapshot{States: map[int64]*flight.State{}, Masks: map[int64]*Mask{}}
	days := map[time.Time]bool{}
	for _, rec := range msg.Schedule.Flights {
		if _, dup := snap.States[rec.FLID]; dup {
			return nil, fmt.Errorf("record %d: FLID %d appears twice in the snapshot", rec.Ordinal, rec.FLID)
		}
		r, err := flight.Next(nil, rec, true, 0, time.Time{}, flight.Sent{})
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", rec.Ordinal, err)
		}
		snap.States[rec.FLID] = r.Next
		snap.Masks[rec.FLID] = carried(rec)
		days[r.Next.OperationDay] = true
	}
	for d := range days {
		snap.Days = append(snap.Days, d)
	}
	sort.Slice(snap.Days, func(i, j int) bool { return snap.Days[i].Before(snap.Days[j]) })
	return snap, nil
}

// carried is the Mask of the elements a record has (set or cleared).
func carried(rec *sis.FlightRecord) *Mask {
	m := &Mask{Scalars: map[string]bool{}, Structs: map[string]bool{}, Groups: map[string]bool{}, Payloads: map[string]bool{}}
	if rec.FFID.Op != sis.Unchanged {
		m.Scalars["FFID"] = true
	}
	for id := range sis.NumScalars {
		if rec.Scalars.Get(sis.ScalarID(id)).Op != sis.Unchanged {
			m.Scalars[sis.ScalarID(id).String()] = true
		}
	}
	for id := range sis.NumStructs {
		if rec.Structs.Get(sis.StructID(id)).Op != sis.Unchanged {
			m.Structs[sis.StructID(id).String()] = true
		}
	}
	for id := range sis.NumGroups {
		if rec.Groups.Get(sis.GroupID(id)).Op != sis.Unchanged {
			m.Groups[sis.GroupID(id).String()] = true
		}
	}
	for id := range sis.NumPayloads {
		if rec.Payloads.Get(sis.PayloadID(id)).Op != sis.Unchanged {
			m.Payloads[sis.PayloadID(id).String()] = true
		}
	}
	return m
}

func describe(m *sis.Message) string {
	if m.Schedule != nil {
		return "SCHD/" + m.Schedule.Subtype
	}
	return string(m.Kind)
}
