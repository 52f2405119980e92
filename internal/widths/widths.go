// Package widths holds the width of every VARCHAR column a message value can
// reach (Width, and the Targets a value is written to: Sender, Reason, ...)
// and Check, which refuses, before anything is written, a decoded message
// with a value that would not fit: PROTOCOL naming the field, never an INFRA
// error from the database (docs/design.md rule 15). TestWidthsMatchSchema
// holds the table to sql/postgres/schema, so the two cannot drift.
//
// Decoding a message as the pipeline does (the codec, then Check) is
// internal/decode's: this package says how wide the columns are, not what a
// message is.
package widths

// Column is a column of msgx's PostgreSQL schema.
type Column struct{ Table, Name string }

func (c Column) String() string { return c.Table + "." + c.Name }

// table: characters each column holds, by table and column. Columns only
// msgx's own vocabulary reaches (status, error_class, lifecycle, ...) are
// not here; the schema test lists them.
var table = map[string]map[string]int{
	// META, identity and reasons (reasons quote message values; they are
	// cut to fit, see Reason).
	"proc_state": {"identity_key": 300, "msg_type": 8, "msg_subtype": 8, "meta_sndr": 32, "meta_dttm_raw": 32,
		"reason": 1000, "prev_reason": 1000},
	"proc_state_hst": {"identity_key": 300, "msg_type": 8, "msg_subtype": 8, "meta_sndr": 32, "meta_dttm_raw": 32,
		"reason": 1000, "prev_reason": 1000},
	"backfill_todo": {"meta_sndr": 32, "meta_type": 8, "meta_styp": 8, "last_error": 1000},
	"schd_gen":      {"msg_dttm_raw": 32}, // the DTTM of the snapshot that made a generation
	// Error texts msgx writes about retried work (cut to fit, LastError.Cut).
	"msg_event":       {"last_error": 1000},
	"schd_mark":       {"last_error": 1000},
	"maintenance_run": {"last_error": 1000},

	// Flight values: scalars raw, structure text and attributes.
	"flight_schd": {
		"ffid": 1000, "alcd": 1000, "alsc": 1000, "flno": 1000, "mvin": 1000, "sodt": 1000, "flty": 1000,
		"flin": 1000, "acft": 1000, "reno": 1000, "taop": 1000, "tafl": 1000, "taid": 1000, "trml": 1000,
		"maxp": 1000, "csop": 1000, "csft": 1000, "maid": 1000, "estt": 1000, "actt": 1000, "stnd": 1000,
		"phag": 1000, "fhag": 1000, "mhag": 1000, "cncl": 1000, "remc": 1000, "botm": 1000, "lacl": 1000,
		"fint": 1000, "appt": 1000, "egsr": 1000, "egst": 1000, "vipp": 1000, "vipr": 1000, "lbno": 1000,
		"lbwt": 1000, "paxc": 1000, "exsc": 1000, "exsr": 1000, "ftss": 1000, "pedt": 1000, "neat": 1000,
		"padt": 1000, "naat": 1000, "stdt": 1000, "eddt": 1000, "dyop": 1000, "scht": 1000, "cobt": 1000,
		"tobt": 1000, "eobt": 1000, "ctot": 1000, "iest": 1000, "runw": 1000,
		"fdiv_ddes": 1000, "fdiv_ddir": 4, "fdiv_text": 1000, "fret_reid": 1, "fret_text": 1000,
		"flab_ares": 1, "flab_text": 1000,
	},
	// Detail items: child elements, attributes, DELY's text (reason).
	"flight_gate":        {"gate": 1000, "pgot": 1000, "pgct": 1000, "gotm": 1000, "gctm": 1000, "gtyp": 1000},
	"flight_checkin":     {"chkc": 1000, "ccls": 1000, "pcot": 1000, "pcct": 1000, "cotm": 1000, "cctm": 1000, "ctyp": 1000},
	"flight_belt":        {"belt": 1000, "bcls": 1000, "pcot": 1000, "pcct": 1000, "fbag": 1000, "lbag": 1000, "btyp": 1000},
	"flight_stand_plan":  {"psst": 1000, "stst": 1000, "stet": 1000},
	"flight_chute":       {"chut": 1000, "ccls": 1000, "pcbt": 1000, "pcet": 1000, "cbtm": 1000, "cetm": 1000, "ctyp": 1000},
	"flight_delay":       {"code": 1000, "strt": 1000, "dura": 1000, "reason": 1000},
	"flight_bridge_op":   {"abdg": 1000, "abop": 1, "aotm": 1000},
	"flight_chock_op":    {"chtm": 1000, "chid": 3, "chst": 1000},
	"flight_route_point": {"apcd": 1000, "scat": 1000, "sadc": 1000, "scdt": 1000, "sddc": 1000},

	// Reference data.
	"ref_master": {"rtype": 4, "rkey": 1000},
}

// Width is the number of characters column holds; ok is false for a column
// no message value reaches.
func Width(c Column) (n int, ok bool) {
	n, ok = table[c.Table][c.Name]
	return n, ok
}

// Columns lists every column of the table.
func Columns() []Column {
	var cols []Column
	for t, cs := range table {
		for c := range cs {
			cols = append(cols, Column{t, c})
		}
	}
	return cols
}
