package aodbrequest

import (
	"context"

	"github.com/msgx-aodb/msgx/internal/mailbox"
)

// The outbound mailbox is coutmsgs, the shared MySQL table the AODB reads
// our requests from (docs/requests.md); *mailbox.Mailbox is both interfaces
// below. It is not the event outbox (MSG_EVENT, store.Outbox), which the
// relay delivers to Kafka.

// OutboundMailbox is coutmsgs as the service uses it: it inserts a request
// and finds one it inserted (Recover).
type OutboundMailbox interface {
	InsertOutbound(ctx context.Context, p mailbox.InsertOutboundParams) (int64, error)
	FindOutbound(ctx context.Context, p mailbox.FindOutboundParams) ([]mailbox.Outbound, error)
}

// OutboundReader is coutmsgs as the mailbox guard uses it: it only reads.
type OutboundReader interface {
	OutboundBetween(ctx context.Context, p mailbox.OutboundBetweenParams) ([]mailbox.Outbound, error)
}
