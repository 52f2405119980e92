package flight

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Stamp keys beside the SIS names (scalars, FDIV/FRET/FLAB, groups, payload
// kinds), which are upper case: these two are lower case or a symbol.
const (
	// StampLifecycle is the stamp of the flight's lifecycle (created,
	// deleted, revived).
	StampLifecycle = "lifecycle"
	// StampDefault stands for every name without a stamp of its own: the
	// upgrade stamps an existing flight with its last message's DTTM here.
	StampDefault = "*"
)

// StampsMaxLen is the width of FLIGHT_SCHD.STAMPS (VARCHAR(2000),
// VARCHAR2(2000 BYTE): the text is ASCII): AppendText never writes more.
const StampsMaxLen = 2000

// Stamps is rule 19: for each scalar, structure, group, payload kind and the
// lifecycle, the META DTTM of the message that last set it.
type Stamps map[string]time.Time

// Of is the stamp of name (its own, else the default one).
func (s Stamps) Of(name string) (time.Time, bool) {
	if t, ok := s[name]; ok {
		return t, true
	}
	t, ok := s[StampDefault]
	return t, ok
}

// newer: name's stamp is after t.
func (s Stamps) newer(name string, t time.Time) bool {
	st, ok := s.Of(name)
	return ok && st.After(t)
}

// NewerThan: some value of the flight was set by a message sent after t.
func (s Stamps) NewerThan(t time.Time) bool {
	for _, st := range s {
		if st.After(t) {
			return true
		}
	}
	return false
}

// Sent is the message a state change comes from, as the stamps see it: its
// META DTTM and whether it is a snapshot (DNLD, RESP), whose values yield
// to newer stamps. A zero DTTM stamps nothing and guards nothing.
type Sent struct {
	DTTM     time.Time
	Snapshot bool
}

func (by Sent) guards() bool { return by.Snapshot && !by.DTTM.IsZero() }

// stamper tracks the stamps of one state change: copy on first write, the
// values a snapshot kept.
type stamper struct {
	by     Sent
	stamps Stamps
	copied bool
	moved  bool // a stamp changed: the row must be written
	kept   int  // values a newer stamp kept from a snapshot
}

// keep: name's stamp is newer than the snapshot's DTTM, its value stays.
func (st *stamper) keep(name string) bool {
	return st.by.guards() && st.stamps.newer(name, st.by.DTTM)
}

// set stamps name as set by the message. A snapshot stamps only what it
// changed: an unchanged value keeps the stamp of the message that set it
// (an older snapshot after this one is stale by rule 12 anyway), so an
// unchanged DNLD writes no row. An incremental message stamps whatever it
// carries.
func (st *stamper) set(name string, changed bool) {
	if st.by.DTTM.IsZero() || (st.by.Snapshot && !changed) {
		return
	}
	if old, ok := st.stamps.Of(name); ok && old.Equal(st.by.DTTM) {
		return // already in effect (its own stamp, or the default)
	}
	if !st.copied {
		st.stamps = maps.Clone(st.stamps)
		if st.stamps == nil {
			st.stamps = Stamps{}
		}
		st.copied = true
	}
	st.stamps[name] = st.by.DTTM.UTC()
	st.moved = true
}

// created stamps a flight a snapshot creates: the record describes the
// whole flight as of the snapshot's DTTM, what it carries and what it lacks,
// so one default stamp says it all — a flight of a DNLD carries a stamp,
// not one per value, until a newer message sets a value of its own. A
// flight an incremental message creates gets a stamp per value it carries.
func (st *stamper) created() {
	if st.by.guards() {
		st.stamps = Stamps{StampDefault: st.by.DTTM.UTC()}
		st.copied, st.moved = true, true
		return
	}
	st.set(StampLifecycle, true)
}

// wouldChange says whether apply would change name in m, without touching m.
func wouldChange[V any](m map[string]V, name string, apply func(map[string]V) bool) bool {
	scratch := make(map[string]V, 1)
	if v, ok := m[name]; ok {
		scratch[name] = v
	}
	return apply(scratch)
}

// AppendText writes stamps as the FLIGHT_SCHD.STAMPS text: per DTTM (unix
// seconds, ascending) the names it stamps, sorted and space-separated;
// groups separated by ";" ("1797285600:*;1797291000:GTDT STND"). Even with
// every name a flight can have at a time of its own it is within
// StampsMaxLen, the column's width; it parses without reflection
// (docs/design.md, rule 19).
func (s Stamps) AppendText(b []byte) []byte {
	keys := make([]string, 0, 96) // every name a flight has fits: no allocation
	for k := range s {
		keys = append(keys, k)
	}
	// By time, then by name: each time's names follow one another.
	slices.SortFunc(keys, func(x, y string) int {
		if c := s[x].Compare(s[y]); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	for i, k := range keys {
		switch {
		case i == 0:
		case s[k].Equal(s[keys[i-1]]):
			b = append(b, ' ')
			b = append(b, k...)
			continue
		default:
			b = append(b, ';')
		}
		b = strconv.AppendInt(b, s[k].Unix(), 10)
		b = append(b, ':')
		b = append(b, k...)
	}
	return b
}

// Text is AppendText as a string; nil for no stamps (a NULL column).
func (s Stamps) Text() *string {
	if len(s) == 0 {
		return nil
	}
	// On the stack: a FLOP's flight has a few groups, and a buffer sized
	// by len(s) was grown on the heap (two allocations before the text).
	var buf [256]byte
	t := string(s.AppendText(buf[:0]))
	return &t
}

// ParseStamps reads the FLIGHT_SCHD.STAMPS text (times in UTC, as set
// stamps them). A malformed group is an error (the column is written only
// by Text and the upgrade).
func ParseStamps(text string) (Stamps, error) {
	if text == "" {
		return nil, nil
	}
	s := make(Stamps, strings.Count(text, " ")+strings.Count(text, ";")+1)
	for group := range strings.SplitSeq(text, ";") {
		secs, names, ok := strings.Cut(group, ":")
		n, err := strconv.ParseInt(secs, 10, 64)
		if !ok || names == "" || err != nil {
			return nil, &stampsError{text}
		}
		at := time.Unix(n, 0).UTC()
		for name := range strings.SplitSeq(names, " ") {
			if name == "" {
				return nil, &stampsError{text}
			}
			s[name] = at
		}
	}
	return s, nil
}

type stampsError struct{ text string }

func (e *stampsError) Error() string { return "flight: malformed stamps " + strconv.Quote(e.text) }
