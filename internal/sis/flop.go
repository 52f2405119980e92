package sis

import "sort"

// flopSubtypes is the FLOP subtype table of sis-wire-format.md §4: STYP →
// the record elements a FLOP message of that subtype may carry (besides
// FLID and FFID, always allowed). 48 subtypes when the "A / B / C" rows of
// the spec are counted one by one.
var flopSubtypes = map[string][]string{
	"ABTM": {"ABTM"},
	"ACFT": {"ACFT"},
	"APPT": {"APPT"},
	"BOTM": {"BOTM"},
	"CHDT": {"CHDT"},
	"CHOT": {"CHOT"},
	"CKDT": {"CKDT"},
	"CLDT": {"CLDT"},
	"CNCL": {"CNCL"},
	"COBT": {"COBT"},
	"CTOT": {"CTOT"},
	"EOBT": {"EOBT"},
	"TOBT": {"TOBT"},
	"DELY": {"DELY"},
	"EGSR": {"EGSR"},
	"EGST": {"EGST"},
	"ERUT": {"ERUT"},
	"EXSS": {"EXSC", "EXSR"},
	"FDEL": {"FDEL"},
	"FDIV": {"FDIV"},
	"FINT": {"FINT"},
	"FLAB": {"FLAB"},
	"FLIN": {"FLIN"},
	"FLTY": {"FLTY"},
	"FTSS": {"FTSS"},
	"FRET": {"FRET"},
	"GTDT": {"GTDT"},
	"HNAG": {"PHAG", "FHAG", "MHAG"},
	"IEST": {"IEST"},
	"LACL": {"LACL"},
	"MAXP": {"MAXP"},
	"NAAT": {"NAAT"},
	"NEAT": {"NEAT"},
	"PADT": {"PADT"},
	"PEDT": {"PEDT"},
	"PORT": {"PORT"},
	"PSDT": {"PSDT"},
	"PSHT": {"PSHT"},
	"REMC": {"REMC"},
	"RENO": {"RENO"},
	"RUNW": {"RUNW"},
	"SRVT": {"SRVT"},
	"STND": {"STND"},
	"TAOP": {"TAOP", "TAFL", "TAID"},
	"TIPT": {"TIPT"},
	"TRML": {"TRML"},
	"VIPF": {"VIPF"},
	"VIPP": {"VIPP", "VIPR"},
}

// FlopSubtypes lists the FLOP subtypes the codec implements, sorted.
func FlopSubtypes() []string {
	out := make([]string, 0, len(flopSubtypes))
	for k := range flopSubtypes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FlopGroup returns the elements a FLOP record of subtype styp may carry
// besides FLID and FFID, or false for a subtype the codec does not know.
func FlopGroup(styp string) ([]string, bool) {
	g, ok := flopSubtypes[styp]
	return append([]string(nil), g...), ok
}
