package vocab

import "github.com/msgx-aodb/msgx/internal/sis"

// Class is an error class of the processing contract (docs/design.md §3).
// The codec's four are sis's (sis.Class: what a decode failure is); INFRA
// and EXHAUSTED are the pipeline's own.
type Class string

const (
	// ClassMalformed: not XML, no META, no TYPE. DEAD, never replayed.
	ClassMalformed = Class(sis.ClassMalformed)
	// ClassProtocol: well-formed but violates the contract. DEAD, nothing written.
	ClassProtocol = Class(sis.ClassProtocol)
	// ClassCodec: a construct the codec does not handle yet. FAILED, replayable.
	ClassCodec = Class(sis.ClassCodec)
	// ClassUnsupported: an element or attribute the codec does not know.
	// FAILED, replayable once the codec learns it.
	ClassUnsupported = Class(sis.ClassUnsupported)
	// ClassInfra: database, network, timeouts.
	ClassInfra Class = "INFRA"
	// ClassExhausted: attempts or head deadline exhausted.
	ClassExhausted Class = "EXHAUSTED"
)

// Classes are every error class, in the contract's order: one list for
// metrics' label values, the API's filter and the redaction tests.
var Classes = []Class{ClassMalformed, ClassProtocol, ClassCodec, ClassUnsupported, ClassInfra, ClassExhausted}

// ClassNames are Classes as strings (label values, query parameters).
func ClassNames() []string {
	out := make([]string, len(Classes))
	for i, c := range Classes {
		out[i] = string(c)
	}
	return out
}
