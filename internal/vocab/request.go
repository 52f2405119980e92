package vocab

import "time"

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

// MarkRequestDoneParams is the answer to a SENT request.
type MarkRequestDoneParams struct {
	ID        int64
	MsgID     int64  // the answering message
	MatchRule string // how it was matched (Request.MatchRule)
	Now       time.Time
}

// RequestOrigin is the origin a request is registered with: empty is an
// operator's.
func RequestOrigin(origin string) string {
	if origin == "" {
		return OriginOperator
	}
	return origin
}
