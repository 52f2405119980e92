// Package flight is the domain model of a flight's current state: every SIS
// value kept raw with its parsed form, every repeated group as an ordered
// list. It is pure: no SQL, no XML. The codec produces commands, flight
// computes the next state, the store writes it.
package flight

import (
	"encoding/json"
	"time"
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
func (v Value) MarshalJSON() ([]byte, error) {
	type plain Value // without this method
	p := plain(v)
	if p.Time != nil && p.Time.Location() != time.UTC {
		t := p.Time.UTC()
		p.Time = &t
	}
	return json.Marshal(p)
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

	OperationDay  time.Time  `json:"operation_day"` // local date of SODT (midnight UTC of that date)
	FDay          *time.Time `json:"fday,omitempty"`
	Lifecycle     string     `json:"lifecycle"`
	DeletedAt     *time.Time `json:"deleted_at,omitempty"`
	StateVersion  int64      `json:"state_version"`
	LastMessageID int64      `json:"last_message_id"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
}

// Changes says which parts of a state a write must touch: the flight row
// always, and only the collections the message replaced.
type Changes struct {
	Groups   []string // group names whose list was replaced
	Payloads []string // payload kinds whose content was replaced
}
