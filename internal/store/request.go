package store

import (
	"context"
	"time"
)

// Requests are msgx's requests to the AODB (REQ_TRACK, docs/design.md §7):
// REGISTERED → SENT → DONE | EXPIRED, at most one open (REGISTERED or SENT)
// per key.
type Requests interface {
	// NextRequestSeqn allocates the META SEQN of a new request.
	NextRequestSeqn(ctx context.Context) (int64, error)
	// InsertRequest registers a request; ErrDuplicate when one of its key is
	// still open.
	InsertRequest(ctx context.Context, r NewRequest) (Request, error)
	// Request returns one request; ErrNotFound if none.
	Request(ctx context.Context, id int64) (Request, error)
	// OpenRequestForUpdate returns the open request of a key and locks it
	// for the transaction; ErrNotFound if none is open.
	OpenRequestForUpdate(ctx context.Context, key string) (Request, error)
	// LastAnsweredRequest returns the DONE request of a key answered last;
	// ErrNotFound if none.
	LastAnsweredRequest(ctx context.Context, key string) (Request, error)
	// OpenRequests lists the open requests in id order.
	OpenRequests(ctx context.Context) ([]Request, error)
	// Requests pages the requests newest first, with an id below beforeID.
	Requests(ctx context.Context, beforeID int64, limit int) ([]Request, error)
	// MarkRequestSent moves a REGISTERED request to SENT; ErrNotFound when
	// it is not REGISTERED.
	MarkRequestSent(ctx context.Context, p SentRequest) error
	// MarkRequestDone moves a SENT request to DONE, answered by MsgID;
	// ErrNotFound when it is not SENT.
	MarkRequestDone(ctx context.Context, p MarkRequestDoneParams) error
	// ExpireRequestKey expires the open request of a key, with a note;
	// returns the ids expired (none or one).
	ExpireRequestKey(ctx context.Context, p ExpireRequestKeyParams) ([]int64, error)
	// ExpireDueRequests expires up to max open requests past expires_at and
	// returns their ids.
	ExpireDueRequests(ctx context.Context, now time.Time, max int) ([]int64, error)
	// DueRequests counts the open requests ExpireDueRequests would expire
	// now, with their oldest and newest deadline (a dry run).
	DueRequests(ctx context.Context, now time.Time) (Swept, error)
	// ReplaceRefList deletes every record of a reference list whose key is
	// not in keep; returns how many.
	ReplaceRefList(ctx context.Context, rtype string, keep []string) (int, error)
}

// Request statuses.
const (
	RequestRegistered = "REGISTERED"
	RequestSent       = "SENT"
	RequestDone       = "DONE"
	RequestExpired    = "EXPIRED"
)

// Who registered a request: an operator (CLI, admin API) or an automatic
// trigger, which never supersedes an open request (docs/requests.md).
const (
	OriginOperator = "operator"
	OriginOnStart  = "on-start"
	OriginDaily    = "daily"
)

// Request is one REQ_TRACK row.
type Request struct {
	ID            int64      `json:"id"`
	Type          string     `json:"type"` // RQFD or RQRD
	Key           string     `json:"key"`  // RQFD or RQRD:<list>
	List          string     `json:"list,omitempty"`
	RangeBegin    *time.Time `json:"from,omitempty"`
	RangeEnd      *time.Time `json:"to,omitempty"`
	Sender        string     `json:"sender"`
	Seqn          int64      `json:"seqn"`
	OutboundID    *int64     `json:"coutmsgs_id"`
	Status        string     `json:"status"`
	RegisteredAt  time.Time  `json:"registered_at"`
	SentAt        *time.Time `json:"sent_at"`
	ExpiresAt     time.Time  `json:"expires_at"`
	DoneAt        *time.Time `json:"done_at"`
	ResponseMsgID *int64     `json:"response_msg_id"`
	MatchRule     string     `json:"match_rule,omitempty"`
	Note          string     `json:"note,omitempty"`
	Origin        string     `json:"origin"` // OriginOperator, OriginOnStart or OriginDaily
}

// Open says whether the request still waits (REGISTERED or SENT).
func (r Request) Open() bool { return r.Status == RequestRegistered || r.Status == RequestSent }

// NewRequest is a request to register.
type NewRequest struct {
	Type, Key, List      string
	RangeBegin, RangeEnd *time.Time
	Sender               string
	Seqn                 int64
	Now, ExpiresAt       time.Time
	Origin               string // empty: OriginOperator
}

// SentRequest is the confirmed insert of a request into the outbound mailbox.
type SentRequest struct {
	ID, OutboundID    int64
	SentAt, ExpiresAt time.Time
}

// MarkRequestDoneParams is the answer to a SENT request.
type MarkRequestDoneParams struct {
	ID        int64
	MsgID     int64  // the answering message
	MatchRule string // how it was matched (Request.MatchRule)
	Now       time.Time
}

// ExpireRequestKeyParams expires the open request of a key.
type ExpireRequestKeyParams struct {
	Key  string
	Note string
	Now  time.Time
}

// RequestOrigin is the origin a request is registered with: empty is an
// operator's.
func RequestOrigin(origin string) string {
	if origin == "" {
		return OriginOperator
	}
	return origin
}
