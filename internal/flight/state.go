// Package flight is the domain model of a flight's current state: every SIS
// value kept raw with its parsed form, every repeated group as an ordered
// list. It is pure: no SQL, no XML. The codec produces commands, flight
// computes the next state, the store writes it.
package flight

import (
	"fmt"
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/jsonstr"
)

// Lifecycle of a flight row.
const (
	Active  = "ACTIVE"
	Deleted = "DELETED"
)

// Value is one SIS value: the raw text exactly as sent and, where the field has
// a parsed form, that form (a time in the airport zone, a duration in minutes,
// a day offset).
type Value struct {
	Raw     string     `json:"raw"`
	Time    *time.Time `json:"time,omitempty"`
	Minutes *int32     `json:"minutes,omitempty"`
	Days    *int32     `json:"days,omitempty"`
}

// MarshalJSON writes Time in UTC, so the JSON of a state (API, event
// payloads) is the same whether the value was just decoded (airport zone) or
// read back from the database; Raw keeps the AODB's local text.
//
// It appends the fields by hand: event payloads and the API encode thousands
// of values per batch, and a nested json.Marshal per value was the largest
// CPU cost of the pump. The bytes are those encoding/json writes for the
// plain struct (see TestValueMarshalJSONMatchesEncodingJSON).
func (v Value) MarshalJSON() ([]byte, error) {
	return v.appendJSON(make([]byte, 0, 24+len(v.Raw)+40))
}

func (v Value) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"raw":`...)
	b = jsonstr.Append(b, v.Raw)
	if v.Time != nil {
		t := v.Time.UTC()
		if y := t.Year(); y < 0 || y > 9999 {
			return nil, fmt.Errorf("flight: value %q: time %v outside years 0-9999", v.Raw, t)
		}
		b = append(b, `,"time":"`...)
		b = t.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	if v.Minutes != nil {
		b = append(b, `,"minutes":`...)
		b = strconv.AppendInt(b, int64(*v.Minutes), 10)
	}
	if v.Days != nil {
		b = append(b, `,"days":`...)
		b = strconv.AppendInt(b, int64(*v.Days), 10)
	}
	return append(b, '}'), nil
}

// Item is one element of a repeated group (a gate, a delay, a route point...).
// Its ORDINAL is its position in the list (1-based); SourceSeq is the source
// sequence number attribute (GTNO, CKNO, ...), which is data, not a key.
type Item struct {
	SourceSeq *int64           `json:"source_seq,omitempty"`
	Fields    map[string]Value `json:"fields"`
}

// Struct is a single-valued structure kept on the flight row (FDIV, FRET,
// FLAB): element text and attributes.
type Struct struct {
	Text  *string           `json:"text,omitempty"`
	Attrs map[string]string `json:"attrs,omitempty"`
}

// Payload is a collection kept verbatim (SRVT, VIPF, PSHT, TIPT, PORT, MAFL).
type Payload struct {
	Format  string `json:"format"` // "xml" or "json"
	Content string `json:"content"`
}

// Repeated groups stored in detail tables, by SIS element name.
const (
	GroupGates      = "GTDT"
	GroupCheckins   = "CKDT"
	GroupBelts      = "CLDT"
	GroupStandPlans = "PSDT"
	GroupChutes     = "CHDT"
	GroupDelays     = "DELY"
	GroupBridgeOps  = "ABTM"
	GroupChockOps   = "CHOT"
	GroupRoute      = "ROUT"
	GroupExtraRoute = "ERUT"
)

// Groups lists every repeated group in a fixed order (the payload order).
var Groups = []string{
	GroupGates, GroupCheckins, GroupBelts, GroupStandPlans, GroupChutes,
	GroupDelays, GroupBridgeOps, GroupChockOps, GroupRoute, GroupExtraRoute,
}

// Single-valued structures and verbatim payload kinds.
var (
	Structs      = []string{"FDIV", "FRET", "FLAB"}
	PayloadKinds = []string{"SRVT", "VIPF", "PSHT", "TIPT", "PORT", "MAFL"}
)

// State is the full current state of one flight.
type State struct {
	FLID int64 `json:"flid"`
	// Scalars by SIS element name (FFID, ALCD, SODT, ...); an absent key is a
	// value never sent or cleared.
	Scalars map[string]Value `json:"scalars"`
	// Structs by element name (FDIV, FRET, FLAB); absent = not set.
	Structs map[string]Struct `json:"structs"`
	// Groups by element name (GTDT, ..., ROUT, ERUT), each in input order;
	// absent or empty = no items.
	Groups map[string][]Item `json:"groups"`
	// Payloads by kind (SRVT, ...); absent = none.
	Payloads map[string]Payload `json:"payloads"`
	// Stamps: the META DTTM (UTC) of the message that last set each value
	// and the lifecycle (rule 19); absent when none is known.
	Stamps Stamps `json:"stamps,omitempty"`

	OperationDay  time.Time  `json:"operation_day"` // local date of SODT (midnight UTC of that date)
	FDay          *time.Time `json:"fday,omitempty"`
	Lifecycle     string     `json:"lifecycle"`
	DeletedAt     *time.Time `json:"deleted_at,omitempty"`
	StateVersion  int64      `json:"state_version"`
	LastMessageID int64      `json:"last_message_id"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`

	// groupsJSON is the JSON of the group lists of the last payload
	// ChangePayload built for this state or the one it was computed from
	// (a copy of a state shares it); each entry names the list it encoded,
	// so a list since replaced is never served (payload.go).
	groupsJSON groupsJSON
	// payloadLen is the length of that payload, to size the next one
	// (0: none built yet).
	payloadLen int
}

// Changes says which parts of a state a write must touch: the flight row
// always, and only the collections that were replaced, each with the state
// version that replaced it (its rows' RECORD_VERSION). A flight changed by
// several messages of one batch is written once, and each collection still
// carries the version of the message that last replaced it.
type Changes struct {
	Groups   map[string]int64 // group name → version that replaced the list
	Payloads map[string]int64 // payload kind → version that replaced the content
}

// Replaced is a Changes of the named collections, all replaced at version.
func Replaced(version int64, groups, payloads []string) Changes {
	c := Changes{}
	for _, g := range groups {
		c.Groups = setVersion(c.Groups, g, version)
	}
	for _, p := range payloads {
		c.Payloads = setVersion(c.Payloads, p, version)
	}
	return c
}

// Merge is c followed by later: a collection both replaced keeps later's version.
func (c Changes) Merge(later Changes) Changes {
	out := Changes{}
	for _, m := range []map[string]int64{c.Groups, later.Groups} {
		for g, v := range m {
			out.Groups = setVersion(out.Groups, g, v)
		}
	}
	for _, m := range []map[string]int64{c.Payloads, later.Payloads} {
		for k, v := range m {
			out.Payloads = setVersion(out.Payloads, k, v)
		}
	}
	return out
}

func setVersion(m map[string]int64, name string, version int64) map[string]int64 {
	if m == nil {
		m = map[string]int64{}
	}
	m[name] = version
	return m
}
