package flight

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// decodeFLOP decodes a FLOP message of subtype styp for flight 7 and
// returns its record, as the pipeline hands it to Next.
func decodeFLOP(t testing.TB, styp, inner string) *sis.FlightRecord {
	t.Helper()
	raw := `<MSG><META><SNDR>AODB</SNDR><SEQN>5</SEQN><DTTM>20261202090311</DTTM><TYPE>FLOP</TYPE><STYP>` + styp +
		`</STYP></META><FLOP><FLID>7</FLID>` + inner + `</FLOP></MSG>`
	m, err := sis.Decode([]byte(raw), sis.DefaultOptions())
	require.NoError(t, err)
	return m.FlightOps.Records[0]
}

// Decode then Next: a bridge operation sent with ASNO="0" replaces the
// bridge operations with itself (it used to clear them); only an empty
// <ABTM ASNO="0"/> clears.
func TestBridgeOpWithSeqZeroIsKept(t *testing.T) {
	start := newRecord(7)
	start.Groups.Set(sis.ABTM, decodeFLOP(t, "ABTM", `<ABTM ASNO="1"><ABDG>B01</ABDG><ABOP>A</ABOP></ABTM>`).Groups.Get(sis.ABTM))
	cur := apply(t, nil, start, 1).Next
	require.Len(t, cur.Groups[GroupBridgeOps], 1)

	r := apply(t, cur, decodeFLOP(t, "ABTM", `<ABTM ASNO="0"><ABDG>B02</ABDG><ABOP>D</ABOP><AOTM>02DEC260100</AOTM></ABTM>`), 2)
	require.True(t, r.Changed)
	require.Equal(t, map[string]int64{GroupBridgeOps: 2}, r.Changes.Groups)
	items := r.Next.Groups[GroupBridgeOps]
	require.Len(t, items, 1, "the ASNO=0 bridge operation is data, not a clear")
	require.Equal(t, int64(0), *items[0].SourceSeq)
	require.Equal(t, "B02", items[0].Fields["ABDG"].Raw)
	require.Equal(t, "D", items[0].Fields["ABOP"].Raw)
	require.Contains(t, items[0].Fields, "AOTM")

	r = apply(t, r.Next, decodeFLOP(t, "ABTM", `<ABTM ASNO="0"/>`), 3)
	require.True(t, r.Changed)
	require.Empty(t, r.Next.Groups[GroupBridgeOps], "a lone empty item is the clear marker")
}

func TestRouteSeqZeroAndOneAreBothKept(t *testing.T) {
	cur := apply(t, nil, newRecord(7), 1).Next
	r := apply(t, cur, decodeFLOP(t, "ERUT",
		`<ERUT RTNO="0"><APCD>PEK</APCD></ERUT><ERUT RTNO="1"><APCD>SHA</APCD></ERUT>`), 2)
	items := r.Next.Groups[GroupExtraRoute]
	require.Len(t, items, 2)
	require.Equal(t, "PEK", items[0].Fields["APCD"].Raw)
	require.Equal(t, "SHA", items[1].Fields["APCD"].Raw)
}
