package orastore

import (
	"database/sql/driver"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// TestRequests: the SEQN and REQ_ID come from out binds; the due expiry
// fetches (and so locks) at most max ids and expires exactly those.
func TestRequests(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	f, s := newFake(t,
		answer{}, answer{},
		rows("REQ_ID", []driver.Value{number("9")}, []driver.Value{number("4")}, []driver.Value{number("12")}),
		answer{affected: 2},
	)
	f.outs = []any{int64(8388607), int64(31)}
	seqn, err := s.NextRequestSeqn(ctx)
	if err != nil || seqn != 8388607 {
		t.Fatalf("seqn %d, %v", seqn, err)
	}
	r, err := s.InsertRequest(ctx, store.NewRequest{Type: "RQFD", Key: "RQFD", Sender: "MSGX", Seqn: 1, Now: now, ExpiresAt: now.Add(time.Hour)})
	if err != nil || r.ID != 31 || r.Status != vocab.RequestRegistered || r.List != "" || r.OutboundID != nil {
		t.Fatalf("request %+v, %v", r, err)
	}
	if v := f.calls[1].Args["list_code"]; v != nil {
		t.Errorf("empty list bound as %#v, want NULL", v)
	}
	ids, err := s.ExpireDueRequests(ctx, now, 2)
	if err != nil || !slices.Equal(ids, []int64{4, 9}) {
		t.Fatalf("expired %v, %v", ids, err)
	}
	last := f.calls[3]
	if last.SQL != mustQuery("ReqExpireIDs").SQL || !slices.Equal(last.Args["req_ids"].([]int64), []int64{4, 9}) || last.Args["note"] != nil {
		t.Errorf("expire sent %q %v", last.SQL, last.Args)
	}
}

// TestReplayIDs: count the replay under PIPELINE_LOCK, lock the replayable
// rows, then move exactly those.
func TestReplayIDs(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	f, s := newFake(t, answer{affected: 1}, rows("MSG_ID", []driver.Value{number("3")}), answer{affected: 1})
	moved, err := s.ReplayIDs(ctx, []int64{3, 4}, now)
	if err != nil || !slices.Equal(moved, []int64{3}) {
		t.Fatalf("moved %v, %v", moved, err)
	}
	if !strings.Contains(f.calls[0].SQL, "t.enqueued_below = t.enqueued_below + 1") {
		t.Errorf("first call does not count the replay under the lock:\n%s", f.calls[0].SQL)
	}
	if got := f.calls[2].Args["msg_ids"].([]int64); !slices.Equal(got, []int64{3}) {
		t.Errorf("moved ids bound %v", got)
	}
	if _, err := s.ReplayCandidates(ctx, store.ReplayCandidatesParams{Limit: 10}); err != nil {
		t.Fatal(err)
	}
	if f.calls[3].Args["any_id"] != int64(1) {
		t.Errorf("no id list: any_id %v", f.calls[3].Args["any_id"])
	}
}
