package respmatch_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// shanghai is the airport zone of the examples (UTC+8, no DST).
var shanghai = time.FixedZone("Asia/Shanghai", 8*60*60)

func TestMatchDegradedRule(t *testing.T) {
	t.Parallel()
	sent := time.Date(2026, 12, 2, 8, 0, 0, 700_000_000, time.UTC) // 16:00:00.7 airport time
	open := &vocab.Request{ID: 7, Status: vocab.RequestSent, SentAt: &sent, ExpiresAt: sent.Add(10 * time.Minute)}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("20060102150405", s, shanghai)
		require.NoError(t, err)
		return v
	}
	for _, tc := range []struct {
		dttm string
		req  *vocab.Request
		ok   bool
	}{
		{"20261202160000", open, true},  // the same second as sent_at
		{"20261202155959", open, false}, // before sent_at
		{"20261202080000", open, false}, // 08:00 local, not 08:00 UTC
		{"20261202161000", open, true},  // at expires_at (cut to the second)
		{"20261202161001", open, false}, // after expires_at
		{"20261202160500", nil, false},
		{"20261202160500", &vocab.Request{ID: 8, Status: vocab.RequestRegistered, ExpiresAt: sent.Add(time.Hour)}, false},
	} {
		d := respmatch.Match(respmatch.Resp{Key: "RQFD", DTTM: at(tc.dttm)}, tc.req)
		require.Equal(t, tc.ok, d.Matched, "%s: %s", tc.dttm, d.Why)
		if tc.ok {
			require.Equal(t, "request:7 (degraded)", d.Note())
		} else {
			require.NotEmpty(t, d.Why)
		}
	}
}

// A schedule RESP that carries records answers a flight request only when
// one record's SODT lies in its [STDB, STDE], ends included; one with no
// records (RECS 0) answers it.
func TestMatchNeedsARecordInTheRange(t *testing.T) {
	t.Parallel()
	sent := time.Date(2026, 12, 2, 16, 0, 0, 0, shanghai)
	begin, end := time.Date(2026, 12, 3, 0, 0, 0, 0, shanghai), time.Date(2026, 12, 3, 23, 59, 0, 0, shanghai)
	open := &vocab.Request{ID: 9, Status: vocab.RequestSent, SentAt: &sent, ExpiresAt: sent.Add(10 * time.Minute), RangeBegin: &begin, RangeEnd: &end}
	resp := func(sodts ...time.Time) respmatch.Resp {
		return respmatch.Resp{Key: "RQFD", DTTM: sent.Add(time.Minute), Records: max(len(sodts), 1), SODTs: sodts}
	}
	require.False(t, respmatch.Match(resp(begin.Add(-time.Minute)), open).Matched, "the day before the range")
	require.False(t, respmatch.Match(respmatch.Resp{Key: "RQFD", DTTM: sent, Records: 1}, open).Matched, "a record without SODT")
	require.True(t, respmatch.Match(resp(begin.Add(-time.Hour), end), open).Matched, "one record at STDE is enough")
	require.True(t, respmatch.Match(respmatch.Resp{Key: "RQFD", DTTM: sent}, open).Matched, "RECS 0")
}

func TestMatchMailboxPicksTheNewestRowOfTheKindBeforeDTTM(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 2, 16, 0, 0, 0, shanghai)
	rows := []respmatch.Outbound{
		{ID: 1, InsertedAt: t0, Key: "RQFD"},
		{ID: 2, InsertedAt: t0.Add(time.Minute), Key: "RQFD"},
		{ID: 3, InsertedAt: t0.Add(time.Minute), Key: "RQRD:AIRL"},
		{ID: 4, InsertedAt: t0.Add(5 * time.Minute), Key: "RQFD"},
	}
	d := respmatch.MatchMailbox(t0.Add(2*time.Minute), "RQFD", rows)
	require.True(t, d.Matched)
	require.Equal(t, int64(2), d.OutboundID)
	require.Equal(t, "request:coutmsgs:2 (mailbox)", d.Note())
	require.False(t, respmatch.MatchMailbox(t0.Add(-time.Second), "RQFD", rows).Matched)
	require.False(t, respmatch.MatchMailbox(t0.Add(time.Hour), "RQRD:GLST", rows).Matched)
}
