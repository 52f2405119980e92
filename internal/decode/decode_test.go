package decode_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/sis"
)

func msg(sndr, body string) []byte {
	return []byte(`<MSG><META><SNDR>` + sndr + `</SNDR><SEQN>7</SEQN><DTTM>20261202080000</DTTM>` +
		`<TYPE>FLOP</TYPE><STYP>REMC</STYP></META>` + body + `</MSG>`)
}

// Message is the codec, then the widths: a value too long for its column is
// PROTOCOL with the message (its META) still returned; a codec error passes
// through unchanged.
func TestMessage(t *testing.T) {
	t.Parallel()
	flop := func(remc string) string { return "<FLOP><FLID>1</FLID><REMC>" + remc + "</REMC></FLOP>" }

	m, err := decode.Message(msg("AODB", flop("x")), sis.DefaultOptions())
	require.NoError(t, err)
	require.Equal(t, "AODB", m.Meta.Sender)

	m, err = decode.Message(msg("AODB", flop(strings.Repeat("x", 1001))), sis.DefaultOptions())
	require.Equal(t, sis.ClassProtocol, sis.ClassOf(err))
	require.EqualError(t, err, "PROTOCOL: FLID 1/REMC: 1001 characters, the column flight_schd.remc holds 1000")
	require.NotNil(t, m, "a refused message keeps its META")
	require.Equal(t, "AODB", m.Meta.Sender)

	raw := msg("AODB", "<FLOP>")
	want, wantErr := sis.Decode(raw, sis.DefaultOptions())
	m, err = decode.Message(raw, sis.DefaultOptions())
	require.Error(t, wantErr)
	require.Equal(t, wantErr, err)
	require.Equal(t, want, m)
}
