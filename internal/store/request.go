package store

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Requests are msgx's requests to the AODB (REQ_TRACK, docs/design.md §7):
// REGISTERED → SENT → DONE | EXPIRED, at most one open (REGISTERED or SENT)
// per key.
type Requests interface {
	// NextRequestSeqn allocates the META SEQN of a new request.
	NextRequestSeqn(ctx context.Context) (int64, error)
	// InsertRequest registers a request; ErrDuplicate when one of its key is
	// still open.
	InsertRequest(ctx context.Context, r NewRequest) (vocab.Request, error)
	// Request returns one request; ErrNotFound if none.
	Request(ctx context.Context, id int64) (vocab.Request, error)
	// OpenRequestForUpdate returns the open request of a key and locks it
	// for the transaction; ErrNotFound if none is open.
	OpenRequestForUpdate(ctx context.Context, key string) (vocab.Request, error)
	// LastAnsweredRequest returns the DONE request of a key answered last;
	// ErrNotFound if none.
	LastAnsweredRequest(ctx context.Context, key string) (vocab.Request, error)
	// OpenRequests lists the open requests in id order.
	OpenRequests(ctx context.Context) ([]vocab.Request, error)
	// Requests pages the requests newest first, with an id below beforeID.
	Requests(ctx context.Context, beforeID int64, limit int) ([]vocab.Request, error)
	// MarkRequestSent moves a REGISTERED request to SENT; ErrNotFound when
	// it is not REGISTERED.
	MarkRequestSent(ctx context.Context, p MarkRequestSentParams) error
	// MarkRequestDone moves a SENT request to DONE, answered by MsgID;
	// ErrNotFound when it is not SENT.
	MarkRequestDone(ctx context.Context, p vocab.MarkRequestDoneParams) error
	// ExpireRequestKey expires the open request of a key, with a note;
	// returns the ids expired (none or one).
	ExpireRequestKey(ctx context.Context, p ExpireRequestKeyParams) ([]int64, error)
	// ExpireDueRequests expires up to max open requests past expires_at and
	// returns their ids.
	ExpireDueRequests(ctx context.Context, now time.Time, max int) ([]int64, error)
	// DueRequests counts the open requests ExpireDueRequests would expire
	// now, with their oldest and newest deadline (a dry run).
	DueRequests(ctx context.Context, now time.Time) (Swept, error)
}

// NewRequest is a request to register.
type NewRequest struct {
	Type, Key, List      string
	RangeBegin, RangeEnd *time.Time
	Sender               string
	Seqn                 int64
	Now, ExpiresAt       time.Time
	Origin               string // empty: vocab.OriginOperator
}

// MarkRequestSentParams is the confirmed insert of a request into the
// outbound mailbox.
type MarkRequestSentParams struct {
	ID, OutboundID    int64
	SentAt, ExpiresAt time.Time
}

// ExpireRequestKeyParams expires the open request of a key.
type ExpireRequestKeyParams struct {
	Key  string
	Note string
	Now  time.Time
}
