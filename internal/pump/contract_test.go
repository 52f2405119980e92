package pump

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/contracttest"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// TestOutboxPayloadsFollowTheContract checks every outbox event the golden
// corpus leaves — every FLOP group and field family, DNLD, RESP, UPD, ADFT,
// FDEL, SCHD/DEL, a snapshot prune — against docs/asyncapi.yaml and the
// flight schema: the KAFKA:msg payload of an UPSERT is the record's value,
// a TOMBSTONE's record carries none (its stored payload, the flight's last
// state for GET /flights/{flid}/history, is a flight document too).
// TestStoredTablesMatchGolden holds the golden file to what the real pump
// writes, so this is the pump's output.
func TestOutboxPayloadsFollowTheContract(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(goldenFile)
	require.NoError(t, err)
	var tables struct {
		Events []struct {
			EventID        int64   `json:"event_id"`
			Target         string  `json:"target"`
			EventType      string  `json:"event_type"`
			FLID           int64   `json:"flid"`
			StateVersion   int64   `json:"state_version"`
			CminmsgsID     int64   `json:"cminmsgs_id"`
			IdempotencyKey string  `json:"idempotency_key"`
			PartitionKey   string  `json:"partition_key"`
			Payload        *string `json:"payload"`
		} `json:"msg_event"`
	}
	require.NoError(t, json.Unmarshal(b, &tables))
	kinds := map[string]int{}
	for _, e := range tables.Events {
		if e.Target != vocab.TargetMsg {
			continue // a KAFKA:schd row's payload is its KAFKA:msg twin's
		}
		require.NotNil(t, e.Payload, "event %d", e.EventID)
		headers := map[string]string{
			kafka.HeaderEventID: strconv.FormatInt(e.EventID, 10), kafka.HeaderIdempotencyKey: e.IdempotencyKey,
			kafka.HeaderStateVersion: strconv.FormatInt(e.StateVersion, 10), kafka.HeaderEventType: e.EventType,
			kafka.HeaderCminmsgsID: strconv.FormatInt(e.CminmsgsID, 10),
		}
		value := []byte(*e.Payload)
		if e.EventType == vocab.EventTombstone {
			require.NoError(t, contracttest.ValidateFlight(value), "event %d: the stored state", e.EventID)
			value = nil
		}
		require.NoError(t, contracttest.ValidateRecord([]byte(e.PartitionKey), headers, value), "event %d (flight %d)", e.EventID, e.FLID)
		kinds[e.EventType]++
	}
	require.Positive(t, kinds[vocab.EventUpsert])
	require.Positive(t, kinds[vocab.EventTombstone])
}
