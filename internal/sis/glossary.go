package sis

// Glossary is what the SIS codes a person reads mean: the console labels a
// flight's fields with it and docs/decode.md's "Glossary" table is checked
// against it (TestGlossaryDocs), so the two cannot drift. Only meanings the
// wire format (docs/design.md, the AODB's SIS description) or the standard
// A-CDM vocabulary establish are here; a code without an entry is shown as
// the code alone rather than with a guess.
var Glossary = map[string]string{
	// The flight record.
	"FLID": "AODB flight id (the key messages are matched on)",
	"FFID": "flight key text ALCD-FLNO-MVIN-SODT-FLIN (informational)",
	"ALCD": "airline code",
	"FLNO": "flight number",
	"MVIN": "movement: A arrival, D departure",
	"SODT": "scheduled date/time (its local date is the operation day)",
	"FLTY": "flight type",
	"FLIN": "flight indicator: D domestic, I international, M mixed",
	"ACFT": "aircraft type",
	"RENO": "aircraft registration",
	"TRML": "terminal",
	"ESTT": "estimated time (of arrival or departure, per MVIN)",
	"ACTT": "actual time (of arrival or departure, per MVIN)",
	"STND": "stand",
	"CNCL": "cancellation (set: cancelled; cleared: reinstated)",
	"REMC": "remark",
	"RUNW": "runway",
	"COBT": "calculated off-block time (A-CDM)",
	"TOBT": "target off-block time (A-CDM)",
	"EOBT": "estimated off-block time (A-CDM)",
	"CTOT": "calculated take-off time (A-CDM)",
	"SCHT": "duration HHMM (hours and minutes)",
	"FDEL": "delete the flight",
	// Single-valued structures.
	"FDIV": "diversion (DDIR: TO or FROM)",
	"FRET": "return (REID: G or A)",
	"FLAB": "abnormal (ARES: O or G)",
	// Repeated groups and their items.
	"GTDT": "gate allocations",
	"GATE": "gate",
	"CKDT": "check-in counter allocations",
	"CHKC": "check-in counter",
	"CLDT": "baggage belt (carousel) allocations",
	"BELT": "baggage belt",
	"PSDT": "planned stand occupations",
	"PSST": "planned stand",
	"CHDT": "baggage make-up chute allocations",
	"CHUT": "chute",
	"DELY": "delays (CODE, STRT, DURA; text: reason)",
	"CODE": "delay code",
	"DURA": "delay duration HHMM",
	"ABTM": "airbridge operations (attach/detach)",
	"ABDG": "airbridge",
	"ABOP": "airbridge operation: A attach, D detach",
	"CHOT": "chocks on/off operations",
	"CHID": "chocks: ON or OFF",
	"ROUT": "scheduled route points",
	"APCD": "airport code",
	"SADC": "day offset (+1, -1)",
	"SDDC": "day offset (+1, -1)",
}

// Meaning is code's entry in the Glossary, "" when it has none.
func Meaning(code string) string { return Glossary[code] }
