package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/kafka"
)

func tailCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := dispatch(ctx, append([]string{"tail"}, args...), streams{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func TestTailPrintsRecords(t *testing.T) {
	emb, err := kafka.StartEmbedded("msgx.flight.msg", "msgx.flight.schd")
	require.NoError(t, err)
	defer emb.Close()
	t.Setenv("MSGX_KAFKA_BROKERS", strings.Join(emb.Addrs(), ","))

	cl, err := kgo.NewClient(kgo.SeedBrokers(emb.Addrs()...))
	require.NoError(t, err)
	defer cl.Close()
	for _, r := range []*kgo.Record{
		{Topic: "msgx.flight.schd", Key: []byte("30001"), Value: []byte(`{"flid":30001}`),
			Headers: []kgo.RecordHeader{{Key: "idempotency-key", Value: []byte("7:30001:2:KAFKA:schd")}}},
		{Topic: "msgx.flight.schd", Key: []byte("30010"), Value: nil,
			Headers: []kgo.RecordHeader{{Key: "event-type", Value: []byte("TOMBSTONE")}}},
	} {
		require.NoError(t, cl.ProduceSync(t.Context(), r).FirstErr())
	}

	code, out, stderr := tailCmd(t, "--topic", "schd", "--from-start", "--max", "2")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "30001")
	require.Contains(t, out, `{"flid":30001}`)
	require.Contains(t, out, "7:30001:2:KAFKA:schd")
	require.Contains(t, out, "TOMBSTONE")

	// --to-end stops at the end, without --max (tailCmd's context would
	// end it after 30 s otherwise: the test then fails on the time).
	began := time.Now()
	code, out, stderr = tailCmd(t, "--topic", "schd", "--from-start", "--to-end")
	require.Equal(t, exitOK, code, stderr)
	require.Equal(t, 2, strings.Count(out, "partition "), out)
	require.Less(t, time.Since(began), 20*time.Second, "stopped at the end, not by the deadline")
	code, out, stderr = tailCmd(t, "--topic", "msg", "--from-start", "--to-end")
	require.Equal(t, exitOK, code, "an empty topic ends at once: %s", stderr)
	require.Empty(t, out)
	code, _, stderr = tailCmd(t, "--topic", "schd", "--to-end")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "--to-end needs --from-start")

	code, _, stderr = tailCmd(t, "--topic", "nope", "--max", "1")
	require.Equal(t, exitFailure, code)
	require.Contains(t, stderr, `"nope"`)
	require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
}

func TestTailNeedsBrokers(t *testing.T) {
	t.Setenv("MSGX_KAFKA_BROKERS", "")
	code, _, stderr := tailCmd(t, "--max", "1")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "MSGX_KAFKA_BROKERS")

	code, out, _ := tailCmd(t, "--help")
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "Exit codes")
}
