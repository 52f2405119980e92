package flight

// The SIS scalars of a flight record (sis-wire-format.md §3), in the order of
// the FLIGHT_SCHD columns. FFID is informational and stored as sent.
var ScalarNames = []string{
	"FFID", "ALCD", "ALSC", "FLNO", "MVIN", "SODT", "FLTY", "FLIN", "ACFT", "RENO",
	"TAOP", "TAFL", "TAID", "TRML", "MAXP", "CSOP", "CSFT", "MAID", "ESTT", "ACTT",
	"STND", "PHAG", "FHAG", "MHAG", "CNCL", "REMC", "BOTM", "LACL", "FINT", "APPT",
	"EGSR", "EGST", "VIPP", "VIPR", "LBNO", "LBWT", "PAXC", "EXSC", "EXSR", "FTSS",
	"PEDT", "NEAT", "PADT", "NAAT", "STDT", "EDDT", "DYOP", "SCHT", "COBT", "TOBT",
	"EOBT", "CTOT", "IEST", "RUNW",
}

// GroupFields lists the child fields of each repeated group, in column order.
// DELY carries its attributes CODE, STRT, DURA and its text as REASON.
var GroupFields = map[string][]string{
	GroupGates:      {"GATE", "PGOT", "PGCT", "GOTM", "GCTM", "GTYP"},
	GroupCheckins:   {"CHKC", "CCLS", "PCOT", "PCCT", "COTM", "CCTM", "CTYP"},
	GroupBelts:      {"BELT", "BCLS", "PCOT", "PCCT", "FBAG", "LBAG", "BTYP"},
	GroupStandPlans: {"PSST", "STST", "STET"},
	GroupChutes:     {"CHUT", "CCLS", "PCBT", "PCET", "CBTM", "CETM", "CTYP"},
	GroupDelays:     {"CODE", "STRT", "DURA", "REASON"},
	GroupBridgeOps:  {"ABDG", "ABOP", "AOTM"},
	GroupChockOps:   {"CHTM", "CHID", "CHST"},
	GroupRoute:      {"APCD", "SCAT", "SADC", "SCDT", "SDDC"},
	GroupExtraRoute: {"APCD", "SCAT", "SADC", "SCDT", "SDDC"},
}

// StructAttrs lists the attributes of each single-valued structure.
var StructAttrs = map[string][]string{
	"FDIV": {"DDES", "DDIR"},
	"FRET": {"REID"},
	"FLAB": {"ARES"},
}
