package sis

// The element tables of the flight record (sis-wire-format.md §3). Every
// element name the codec accepts in a FLTR/FLOP record is listed here;
// anything else is an UNSUPPORTED error.

// ValueType says how a value is parsed (docs/decode.md has the table).
type ValueType uint8

const (
	TypeText      ValueType = iota // kept raw only
	TypeTime                       // ddMONyyHHmm or ddMONyy, airport zone
	TypeDuration                   // HHMM, Num = minutes
	TypeDayOffset                  // +1 / -1, Num = days
	TypeInt                        // integer, Num = value
	TypeEnum                       // one of a fixed set (case-insensitive), kept raw
)

// ScalarID indexes FlightRecord.Scalars.
type ScalarID uint8

// Scalars of the flight record, in the order of the wire contract.
const (
	ALCD ScalarID = iota
	ALSC
	FLNO
	MVIN
	SODT
	FLTY
	FLIN
	ACFT
	RENO
	TAOP
	TAFL
	TAID
	TRML
	MAXP
	CSOP
	CSFT
	MAID
	ESTT
	ACTT
	STND
	PHAG
	FHAG
	MHAG
	CNCL
	REMC
	BOTM
	LACL
	FINT
	APPT
	EGSR
	EGST
	VIPP
	VIPR
	LBNO
	LBWT
	PAXC
	EXSC
	EXSR
	FTSS
	PEDT
	NEAT
	PADT
	NAAT
	STDT
	EDDT
	DYOP
	SCHT
	COBT
	TOBT
	EOBT
	CTOT
	IEST
	RUNW
	numScalars
)

// NumScalars is the length of FlightRecord.Scalars.
const NumScalars = int(numScalars)

type fieldSpec struct {
	name string
	typ  ValueType
	enum []string
}

var (
	enumAD    = []string{"A", "D"}
	enumDIM   = []string{"D", "I", "M"}
	enumOnOff = []string{"ON", "OFF"}
)

// scalarSpecs: a scalar is parsed as a time only where the name is
// certainly a time of day (the rule: when unsure, keep it raw).
var scalarSpecs = [numScalars]fieldSpec{
	ALCD: {"ALCD", TypeText, nil},
	ALSC: {"ALSC", TypeText, nil},
	FLNO: {"FLNO", TypeText, nil},
	MVIN: {"MVIN", TypeEnum, enumAD},
	SODT: {"SODT", TypeTime, nil},
	FLTY: {"FLTY", TypeText, nil},
	FLIN: {"FLIN", TypeEnum, enumDIM},
	ACFT: {"ACFT", TypeText, nil},
	RENO: {"RENO", TypeText, nil},
	TAOP: {"TAOP", TypeText, nil},
	TAFL: {"TAFL", TypeText, nil},
	TAID: {"TAID", TypeText, nil},
	TRML: {"TRML", TypeText, nil},
	MAXP: {"MAXP", TypeText, nil},
	CSOP: {"CSOP", TypeText, nil},
	CSFT: {"CSFT", TypeText, nil},
	MAID: {"MAID", TypeText, nil},
	ESTT: {"ESTT", TypeTime, nil},
	ACTT: {"ACTT", TypeTime, nil},
	STND: {"STND", TypeText, nil},
	PHAG: {"PHAG", TypeText, nil},
	FHAG: {"FHAG", TypeText, nil},
	MHAG: {"MHAG", TypeText, nil},
	CNCL: {"CNCL", TypeText, nil},
	REMC: {"REMC", TypeText, nil},
	BOTM: {"BOTM", TypeTime, nil},
	LACL: {"LACL", TypeText, nil},
	FINT: {"FINT", TypeText, nil},
	APPT: {"APPT", TypeText, nil},
	EGSR: {"EGSR", TypeText, nil},
	EGST: {"EGST", TypeTime, nil},
	VIPP: {"VIPP", TypeText, nil},
	VIPR: {"VIPR", TypeText, nil},
	LBNO: {"LBNO", TypeText, nil},
	LBWT: {"LBWT", TypeText, nil},
	PAXC: {"PAXC", TypeText, nil},
	EXSC: {"EXSC", TypeText, nil},
	EXSR: {"EXSR", TypeText, nil},
	FTSS: {"FTSS", TypeText, nil},
	PEDT: {"PEDT", TypeTime, nil},
	NEAT: {"NEAT", TypeTime, nil},
	PADT: {"PADT", TypeTime, nil},
	NAAT: {"NAAT", TypeTime, nil},
	STDT: {"STDT", TypeTime, nil},
	EDDT: {"EDDT", TypeTime, nil},
	DYOP: {"DYOP", TypeText, nil},
	SCHT: {"SCHT", TypeDuration, nil},
	COBT: {"COBT", TypeTime, nil},
	TOBT: {"TOBT", TypeTime, nil},
	EOBT: {"EOBT", TypeTime, nil},
	CTOT: {"CTOT", TypeTime, nil},
	IEST: {"IEST", TypeTime, nil},
	RUNW: {"RUNW", TypeText, nil},
}

func (s ScalarID) String() string {
	if s < numScalars {
		return scalarSpecs[s].name
	}
	return "?"
}

// Type is how the scalar's value is parsed.
func (s ScalarID) Type() ValueType { return scalarSpecs[s].typ }

// GroupID indexes FlightRecord.Groups: the repeated groups with a detail table.
type GroupID uint8

const (
	GTDT GroupID = iota // FLIGHT_GATE
	CKDT                // FLIGHT_CHECKIN
	CLDT                // FLIGHT_BELT
	PSDT                // FLIGHT_STAND_PLAN
	CHDT                // FLIGHT_CHUTE
	DELY                // FLIGHT_DELAY
	ABTM                // FLIGHT_BRIDGE_OP
	CHOT                // FLIGHT_CHOCK_OP
	ROUT                // FLIGHT_ROUTE_POINT, ROUTE_KIND=ROUT
	ERUT                // FLIGHT_ROUTE_POINT, ROUTE_KIND=ERUT
	numGroups
)

// NumGroups is the length of FlightRecord.Groups.
const NumGroups = int(numGroups)

type groupSpec struct {
	name     string
	seqAttr  string      // source sequence number attribute, "" if none
	children []fieldSpec // leaf child elements
	attrs    []fieldSpec // attributes besides seqAttr
	text     bool        // the item's text is a value (DELY reason)
}

var routeChildren = []fieldSpec{
	{"APCD", TypeText, nil}, {"SCAT", TypeTime, nil}, {"SADC", TypeDayOffset, nil},
	{"SCDT", TypeTime, nil}, {"SDDC", TypeDayOffset, nil},
}

var groupSpecs = [numGroups]groupSpec{
	GTDT: {name: "GTDT", seqAttr: "GTNO", children: []fieldSpec{
		{"GATE", TypeText, nil}, {"PGOT", TypeTime, nil}, {"PGCT", TypeTime, nil},
		{"GOTM", TypeTime, nil}, {"GCTM", TypeTime, nil}, {"GTYP", TypeText, nil}}},
	CKDT: {name: "CKDT", seqAttr: "CKNO", children: []fieldSpec{
		{"CHKC", TypeText, nil}, {"CCLS", TypeText, nil}, {"PCOT", TypeTime, nil},
		{"PCCT", TypeTime, nil}, {"COTM", TypeTime, nil}, {"CCTM", TypeTime, nil}, {"CTYP", TypeText, nil}}},
	CLDT: {name: "CLDT", seqAttr: "CLNO", children: []fieldSpec{
		{"BELT", TypeText, nil}, {"BCLS", TypeText, nil}, {"PCOT", TypeTime, nil},
		{"PCCT", TypeTime, nil}, {"FBAG", TypeText, nil}, {"LBAG", TypeText, nil}, {"BTYP", TypeText, nil}}},
	PSDT: {name: "PSDT", seqAttr: "PSNO", children: []fieldSpec{
		{"PSST", TypeText, nil}, {"STST", TypeTime, nil}, {"STET", TypeTime, nil}}},
	CHDT: {name: "CHDT", seqAttr: "CHNO", children: []fieldSpec{
		{"CHUT", TypeText, nil}, {"CCLS", TypeText, nil}, {"PCBT", TypeTime, nil},
		{"PCET", TypeTime, nil}, {"CBTM", TypeTime, nil}, {"CETM", TypeTime, nil}, {"CTYP", TypeText, nil}}},
	DELY: {name: "DELY", attrs: []fieldSpec{
		{"CODE", TypeText, nil}, {"STRT", TypeTime, nil}, {"DURA", TypeDuration, nil}}, text: true},
	ABTM: {name: "ABTM", seqAttr: "ASNO", children: []fieldSpec{
		{"ABDG", TypeText, nil}, {"ABOP", TypeEnum, enumAD}, {"AOTM", TypeTime, nil}}},
	CHOT: {name: "CHOT", seqAttr: "CSNO", children: []fieldSpec{
		{"CHTM", TypeTime, nil}, {"CHID", TypeEnum, enumOnOff}, {"CHST", TypeText, nil}}},
	ROUT: {name: "ROUT", seqAttr: "RTNO", children: routeChildren},
	ERUT: {name: "ERUT", seqAttr: "RTNO", children: routeChildren},
}

func (g GroupID) String() string {
	if g < numGroups {
		return groupSpecs[g].name
	}
	return "?"
}

// SeqAttr is the name of the group's source sequence number attribute.
func (g GroupID) SeqAttr() string { return groupSpecs[g].seqAttr }

// StructID indexes FlightRecord.Structs: single-valued structures.
type StructID uint8

const (
	FDIV StructID = iota // diversion: DDES, DDIR(TO/FROM), text
	FRET                 // return: REID(G/A), text
	FLAB                 // abnormal: ARES(O/G), text
	numStructs
)

// NumStructs is the length of FlightRecord.Structs.
const NumStructs = int(numStructs)

var structSpecs = [numStructs]struct {
	name  string
	attrs []fieldSpec
}{
	FDIV: {"FDIV", []fieldSpec{{"DDES", TypeText, nil}, {"DDIR", TypeEnum, []string{"TO", "FROM"}}}},
	FRET: {"FRET", []fieldSpec{{"REID", TypeEnum, []string{"G", "A"}}}},
	FLAB: {"FLAB", []fieldSpec{{"ARES", TypeEnum, []string{"O", "G"}}}},
}

func (s StructID) String() string {
	if s < numStructs {
		return structSpecs[s].name
	}
	return "?"
}

// PayloadID indexes FlightRecord.Payloads: collections kept as canonical XML.
type PayloadID uint8

const (
	SRVT PayloadID = iota
	VIPF
	PSHT
	TIPT
	PORT
	MAFL
	numPayloads
)

// NumPayloads is the length of FlightRecord.Payloads.
const NumPayloads = int(numPayloads)

// payloadSpec validates one payload element. generic (MAFL, whose shape is
// inferred) accepts leaves and one level of nested leaves, with attributes.
type payloadSpec struct {
	name    string
	seqAttr string
	leaves  []fieldSpec
	nested  []*payloadSpec
	generic bool
}

var payloadSpecs = [numPayloads]*payloadSpec{
	SRVT: {name: "SRVT", leaves: []fieldSpec{{"SRTC", TypeText, nil}, {"SRQT", TypeText, nil},
		{"SRST", TypeTime, nil}, {"SRET", TypeTime, nil}, {"SRPR", TypeText, nil},
		{"SANR", TypeText, nil}, {"SARR", TypeText, nil}}},
	VIPF: {name: "VIPF", leaves: []fieldSpec{{"VPCD", TypeText, nil}, {"VFES", TypeText, nil}},
		nested: []*payloadSpec{{name: "VIPT", leaves: []fieldSpec{{"VSCD", TypeText, nil},
			{"VTQY", TypeText, nil}, {"VTST", TypeText, nil}, {"VTET", TypeText, nil}}}}},
	PSHT: {name: "PSHT", seqAttr: "PSHN", leaves: []fieldSpec{{"PSTM", TypeTime, nil},
		{"PSID", TypeText, nil}, {"PUST", TypeText, nil}}},
	TIPT: {name: "TIPT", leaves: []fieldSpec{{"TRTM", TypeText, nil}, {"TRST", TypeText, nil}}},
	PORT: {name: "PORT", leaves: []fieldSpec{{"POTM", TypeText, nil}, {"POID", TypeText, nil}}},
	MAFL: {name: "MAFL", generic: true},
}

func (p PayloadID) String() string {
	if p < numPayloads {
		return payloadSpecs[p].name
	}
	return "?"
}

// elemKind classifies a child element name of a flight record.
type elemKind uint8

const (
	elemFLID elemKind = iota + 1
	elemFFID
	elemScalar
	elemGroup
	elemStruct
	elemPayload
	elemFDEL
)

type elemRef struct {
	kind elemKind
	id   uint8
}

// recordElems maps every accepted record child name to its kind and index.
var recordElems = func() map[string]elemRef {
	m := map[string]elemRef{"FLID": {elemFLID, 0}, "FFID": {elemFFID, 0}, "FDEL": {elemFDEL, 0}}
	for i, s := range scalarSpecs {
		m[s.name] = elemRef{elemScalar, uint8(i)}
	}
	for i, g := range groupSpecs {
		m[g.name] = elemRef{elemGroup, uint8(i)}
	}
	for i, s := range structSpecs {
		m[s.name] = elemRef{elemStruct, uint8(i)}
	}
	for i, p := range payloadSpecs {
		m[p.name] = elemRef{elemPayload, uint8(i)}
	}
	return m
}()

// ScalarByName returns the scalar with that element name.
func ScalarByName(name string) (ScalarID, bool) {
	r, ok := recordElems[name]
	return ScalarID(r.id), ok && r.kind == elemScalar
}

// GroupByName returns the repeated group with that element name.
func GroupByName(name string) (GroupID, bool) {
	r, ok := recordElems[name]
	return GroupID(r.id), ok && r.kind == elemGroup
}
