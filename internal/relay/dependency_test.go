package relay

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
)

// A broker that refuses a record answered: only unanswered produces count
// the brokers down.
func TestBrokersAnswered(t *testing.T) {
	t.Parallel()
	timeout := ack{err: context.DeadlineExceeded}
	refused := ack{err: kerr.MessageTooLarge}
	require.False(t, brokersAnswered([]ack{timeout, {err: errors.New("connection refused")}}))
	require.True(t, brokersAnswered([]ack{timeout, {}}), "one acknowledgement")
	require.True(t, brokersAnswered([]ack{refused}), "a refusal of the record itself")
}
