package pump

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// stndSeqn is a FLOP/STND with a fixed SEQN sent at dttm.
func stndSeqn(seqn int, dttm string, flid int64, stnd string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<MSG>
 <META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>%s</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP></META>
 <FLOP><FLID>%d</FLID><STND>%s</STND></FLOP>
</MSG>`, seqn, dttm, flid, stnd)
}

// dnldSeqn is a SCHD/DNLD of flight 1 with a fixed SEQN: settled alone.
func dnldSeqn(seqn int, stnd string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<MSG>
 <META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>20261202060000</DTTM><TYPE>SCHD</TYPE><STYP>DNLD</STYP></META>
 <SCHD><RECS>1</RECS>%s</SCHD>
</MSG>`, seqn, fltr(1, "<STND>"+stnd+"</STND>"))
}

// The date-boundary reproduction (rule 2): the AODB's SEQN reset, so
// FLOP/STND SEQN 2002 of 12 Dec comes again on 13 Dec with another STND. It
// stays SKIPPED (the seed's rule) but as duplicate-of:<id>:content-differs,
// counted in msgx_identity_conflicts_total, logged at warn with both ids and
// shown by msgx status; an exact resend stays a plain duplicate. A reused
// DNLD identity (settled alone) is one too.
func TestReusedIdentityIsNeverSilent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := metrics.New(nil, e.Clock)
	var logged bytes.Buffer
	e.logTo(&logged, func(c *Config) { c.Observer = m })

	dnld := e.Send(t, dnldSeqn(2001, "A"))
	dnldAgain := e.Send(t, dnldSeqn(2001, "B"))
	first := e.Send(t, stndSeqn(2002, "20261212100000", 1, "14"))
	e.StepUntilWait(t)
	reused := e.Send(t, stndSeqn(2002, "20261213100000", 1, "15"))
	resend := e.Send(t, stndSeqn(2002, "20261212100000", 1, "14"))
	e.StepUntilWait(t)

	require.Equal(t, vocab.StatusSucceeded, e.msg(t, first).Status, e.msg(t, first).Reason)
	r := e.msg(t, reused)
	require.Equal(t, vocab.StatusSkipped, r.Status, "still SKIPPED: the seed's rule")
	require.Equal(t, fmt.Sprintf("duplicate-of:%d:content-differs", first), r.Reason)
	require.Equal(t, first, *r.DuplicateOf)
	require.Equal(t, fmt.Sprintf("duplicate-of:%d", first), e.msg(t, resend).Reason, "an exact resend is a plain duplicate")
	require.Equal(t, fmt.Sprintf("duplicate-of:%d:content-differs", dnld), e.msg(t, dnldAgain).Reason, "settled alone too")
	require.Equal(t, "14", e.flight(t, 1).Scalars["STND"].Raw)
	require.Len(t, e.msg(t, first).Digest, vocab.DigestSize, "the holder keeps its digest")

	require.Contains(t, logged.String(), fmt.Sprintf("level=WARN msg=\"identity reused with other content: skipped as a duplicate; weigh identity.include-day-boundary\" msg_id=%d holder=%d", reused, first))
	require.Equal(t, 2, bytes.Count(logged.Bytes(), []byte("level=WARN msg=\"identity reused")), "one line per conflict, none for the resend")

	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Contains(t, string(body), "\nmsgx_identity_conflicts_total 2\n")

	rep, err := status.Collect(t.Context(), e.Store, e.Clock.Now())
	require.NoError(t, err)
	require.Equal(t, int64(2), rep.Ingress.IdentityConflicts)
	require.Equal(t, reused, rep.Ingress.LatestConflicts[0].MsgID)
	require.Equal(t, first, rep.Ingress.LatestConflicts[0].Holder)
}

// With identity.include-day-boundary the 13 Dec message has an identity of
// its own and applies: the setting the conflict alert names.
func TestDayBoundaryIdentityTellsTheDaysApart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.Decode.IncludeDayBoundary = true })
	e.Send(t, dnldSeqn(2001, "A"))
	e.Send(t, stndSeqn(2002, "20261212100000", 1, "14"))
	next := e.Send(t, stndSeqn(2002, "20261213100000", 1, "15"))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, next).Status, e.msg(t, next).Reason)
	require.Equal(t, "15", e.flight(t, 1).Scalars["STND"].Raw)
}
