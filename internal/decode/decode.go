// Package decode is how msgx decodes a message it processes: the SIS codec
// (internal/sis) and then the column widths (internal/widths.Check), so a
// value too long for its column is PROTOCOL before any write, on every path
// that decodes as the pump does (the pump, replay's preview).
//
// It is its own package because neither half can hold it: sis is the wire
// format and knows nothing of msgx's tables, and widths is the schema's
// column table, which imports sis (and flight) to walk a decoded message.
package decode

import (
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Message decodes raw and checks its values against the columns they are
// written to. Like sis.Decode, the message comes back with the error
// whenever its META was readable, so a refused message still binds its META
// for audit.
func Message(raw []byte, opt sis.Options) (*sis.Message, error) {
	m, err := sis.Decode(raw, opt)
	if err != nil {
		return m, err
	}
	return m, widths.Check(m)
}
