package mailbox

import (
	"testing"
	"time"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
)

// A chunk of backfillRows FLOPs as a run backfills them: the same status,
// sender, type and processing time, a SEQN and DTTM of their own.
func BenchmarkBackfillChunkParams(b *testing.B) {
	b.ReportAllocs()
	status, sndr, typ := "SUCCEEDED", "AODB", "FLOP"
	processed := time.Date(2026, 12, 2, 8, 30, 15, 0, time.UTC)
	params := make([]dbmb.InboundBackfillParams, backfillRows)
	for i := range params {
		seqn, dttm := int32(100000+i), processed.Add(-time.Duration(i)*time.Second)
		params[i] = dbmb.InboundBackfillParams{ID: int64(1000 + i), ProcessedAt: &processed, Status: &status,
			Sndr: &sndr, Seqn: &seqn, Dttm: &dttm, MsgType: &typ}
	}
	var c setChunk
	for range b.N {
		for _, p := range params {
			c.add(newSetRow(p))
		}
		_ = c.params()
		c.reset()
	}
}
