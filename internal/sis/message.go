package sis

import "time"

// Kind is the dispatch key of a decoded message.
type Kind string

const (
	KindSchedule     Kind = "SCHEDULE"      // SCHD: Message.Schedule
	KindFlightOps    Kind = "FLIGHT_OPS"    // FLOP with a group subtype: Message.FlightOps
	KindFlightDelete Kind = "FLIGHT_DELETE" // FLOP/FDEL or TYPE=FDEL: Message.Delete
	KindReference    Kind = "REFERENCE"     // one of the 22 reference lists: Message.Ref
	KindRequest      Kind = "REQUEST"       // RQFD / RQRD (our own outbound format): Message.Request
	KindIgnored      Kind = "IGNORED"       // TYPE in Options.IgnoreTypes: body not interpreted
	KindUnsupported  Kind = "UNSUPPORTED"   // SCHS, unknown TYPE or subtype: Message.Note says why
	// KindUnknown is never decoded: logs and metrics name a message that did
	// not decode (malformed, missing raw row) with it.
	KindUnknown Kind = "UNKNOWN"
)

// Message is one decoded SIS message.
//
// On a decode error Decode still returns the *Message when META could be
// read (TYPE present): Meta, RootAttrs and, when SNDR/STYP/SEQN were valid,
// Identity are filled; Kind and the body are not. The pipeline uses it to
// backfill DEAD(PROTOCOL) rows.
type Message struct {
	Meta      Meta
	RootAttrs []Attr // attributes of <MSG> (xmlns:xsi, xsi:noNamespaceSchemaLocation)
	// Identity is SNDR|TYPE|STYP|SEQN (TYPE/STYP normalised, SEQN as a
	// decimal integer), with |yyyy-MM-dd of DTTM appended when
	// Options.IncludeDayBoundary is set.
	Identity string
	Kind     Kind

	Schedule  *Schedule
	FlightOps *FlightOps
	Delete    *FlightDelete
	Ref       *RefList
	Request   *Request
	// Note explains IGNORED ("ignored:LDM") and UNSUPPORTED
	// ("unsupported:SCHS/DNLD ...") messages.
	Note string
	// Footprint estimates the bytes the decoded message holds besides its
	// raw XML: what a run budgets for it on top of the raw bytes.
	Footprint int
}

// Meta is the META envelope. Raw values are kept exactly as sent; the
// convenience fields are trimmed (TYPE/STYP also upper-cased) and parsed.
type Meta struct {
	Sender      string // SNDR, trimmed
	SenderRaw   string
	Receiver    string // RCVR, trimmed
	ReceiverRaw string
	HasReceiver bool
	Seq         int64 // SEQN
	SeqRaw      string
	Sent        time.Time // DTTM in the airport zone
	SentRaw     string
	Type        string // TYPE, trimmed and upper-cased
	TypeRaw     string
	Subtype     string // STYP, trimmed and upper-cased
	SubtypeRaw  string
}

// Op is a field operation (flight-state-design-v2 §4).
type Op uint8

const (
	Unchanged Op = iota // element absent: leave stored state alone
	Set                 // element with a value: write it
	Clear               // element present and empty (or blank): delete the value
	Replace             // repeated group or payload present: replace the whole list
)

func (o Op) String() string {
	switch o {
	case Set:
		return "set"
	case Clear:
		return "clear"
	case Replace:
		return "replace"
	}
	return "unchanged"
}

// Field is one scalar value with its operation. Raw is the text exactly as
// sent (Set only). For TypeTime, Time holds the parsed local time (DateOnly
// for ddMONyy); for TypeDuration Num is minutes, for TypeDayOffset days,
// for TypeInt the value.
type Field struct {
	Op       Op
	Type     ValueType
	DateOnly bool
	Raw      string
	Time     time.Time
	Num      int64
}

// NamedField is a Field with its element or attribute name.
type NamedField struct {
	Name string
	Field
}

// FlightRecord is one FLTR (SCHD) or FLOP record. Absent elements are
// Unchanged (the zero value).
type FlightRecord struct {
	Ordinal  int   // 1-based position of the record in the message
	FLID     int64 // the key matching a stored flight
	FLIDRaw  string
	FFID     Field // informational, stored as sent
	Scalars  Ops[ScalarID, Field]
	Groups   Ops[GroupID, GroupOp]
	Structs  Ops[StructID, StructOp]
	Payloads Ops[PayloadID, PayloadOp]
	// Delete: the record carried <FDEL/> (FLOP/FDEL only).
	Delete bool
}

// Scalar returns the field of a scalar by element name (Unchanged if the
// name is not a scalar).
func (r *FlightRecord) Scalar(name string) Field {
	if id, ok := ScalarByName(name); ok {
		return r.Scalars.Get(id)
	}
	return Field{}
}

// GroupOp is the operation on a repeated group: Unchanged, or Replace with
// the complete new list (possibly empty). Items keep input order.
type GroupOp struct {
	Op    Op
	Items []Item
	// ClearMarker is the element that cleared the group (the group sent as
	// one item with no content at all, whatever its sequence number), kept
	// verbatim; nil otherwise.
	ClearMarker *Item
}

// Item is one element of a repeated group.
type Item struct {
	Ordinal int // 1-based input order within the group in this record
	HasSeq  bool
	Seq     int64        // source sequence number (GTNO, CKNO, ...): source data, not a key
	SeqRaw  string       // as sent
	Fields  []NamedField // child elements in input order
	Attrs   []NamedField // attributes besides the sequence number (DELY: CODE, STRT, DURA)
	Text    Field        // DELY: the reason text; Unchanged for other groups
	empty   bool         // no child, no text, no attribute but the sequence number
}

// Get returns the child field with that name (Unchanged if absent).
func (it *Item) Get(name string) Field {
	for i := range it.Fields {
		if it.Fields[i].Name == name {
			return it.Fields[i].Field
		}
	}
	for i := range it.Attrs {
		if it.Attrs[i].Name == name {
			return it.Attrs[i].Field
		}
	}
	return Field{}
}

// StructOp is the operation on a single-valued structure (FDIV, FRET,
// FLAB): Unchanged, Set (text and attributes) or Clear (an empty element).
type StructOp struct {
	Op    Op
	Text  string       // raw text; "" when blank
	Attrs []NamedField // attributes in input order
}

// Attr returns the attribute field with that name (Unchanged if absent).
func (s *StructOp) Attr(name string) Field {
	for i := range s.Attrs {
		if s.Attrs[i].Name == name {
			return s.Attrs[i].Field
		}
	}
	return Field{}
}

// PayloadOp is the operation on a payload collection (SRVT, VIPF, PSHT,
// TIPT, PORT, MAFL): Unchanged or Replace. XML is the canonical XML of all
// the elements of that kind in input order (validated); Count the number
// of elements. A clear (one element with no content at all, whatever its
// PSHN) is Replace with Count 0 and XML "", the element kept in ClearMarker.
type PayloadOp struct {
	Op          Op
	Count       int
	XML         string
	ClearMarker string
}

// Schedule is the body of a SCHD message.
type Schedule struct {
	Subtype string // DNLD, RESP, ADFT, UPD, DEL
	HasRecs bool
	Recs    int // declared RECS (checked against len(Flights))
	RecsRaw string
	Flights []*FlightRecord
}

// Snapshot reports whether the schedule is a full snapshot (DNLD, RESP).
func (s *Schedule) Snapshot() bool { return s.Subtype == "DNLD" || s.Subtype == "RESP" }

// FlightOps is the body of a FLOP message: the subtype (the group that
// changed) and one or more records carrying only that group's elements.
type FlightOps struct {
	Group   string
	Records []*FlightRecord
}

// FlightDelete is the body of FLOP/FDEL or TYPE=FDEL.
type FlightDelete struct {
	Form    string // "FLOP/FDEL" or "FDEL"
	Records []DeleteRecord
}

// DeleteRecord names one flight to delete.
type DeleteRecord struct {
	Ordinal int
	FLID    int64
	FLIDRaw string
	FFID    Field
}

// RefList is the body of a reference list message (TYPE = list code).
type RefList struct {
	Type    string // ABDG, AIRL, ...
	Subtype string // DNLD, RESP, ADD, UPD, DEL
	HasRecs bool
	Recs    int
	RecsRaw string
	Records []RefRecord
}

// RefRecord is one reference record kept whole. Key is the trimmed text of
// the record's first child element (KeyName), e.g. ALCD of AIRL.
type RefRecord struct {
	Ordinal int
	KeyName string
	Key     string
	XML     string // canonical XML of the whole record
	Attrs   []Attr // attributes of the record element
	Fields  []RefField
}

// RefField is one child of a reference record, in input order (children
// may repeat, e.g. two OCAT). A child with element children of its own has
// Value "" and its canonical XML in XML.
type RefField struct {
	Name  string
	Value string
	Attrs []Attr
	XML   string
}

// Request is an RQFD or RQRD message (our outbound format).
type Request struct {
	Type     string // RQFD or RQRD
	Begin    Field  // RQFD STDB
	End      Field  // RQFD STDE
	ListCode Field  // RQRD RTYP
}
