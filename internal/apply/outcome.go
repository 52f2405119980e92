package apply

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Outcome is the terminal decision for one message.
type Outcome struct {
	Status      string // SUCCEEDED, SKIPPED or DEAD
	Class       vocab.Class
	Reason      string
	DuplicateOf *int64
	// Conflict: a duplicate whose raw message differs from its holder's.
	Conflict bool
	// Resp is what the RESP guard decided of the message, for the request
	// metrics; set where the guard decides it.
	Resp RespMatch
}

// RespMatch is what an outcome says of a RESP and the request it answers
// (docs/design.md §7).
type RespMatch uint8

const (
	// RespNone: no RESP, a RESP the guard lets through without a request
	// (guard off), or a matched RESP that did not apply (stale).
	RespNone RespMatch = iota
	// RespMatched: an applied RESP answered a request (REQ_TRACK or coutmsgs).
	RespMatched
	// RespUnmatched: a RESP nobody asked for, SKIPPED no-match:request.
	RespUnmatched
)

func succeeded(reason string) Outcome { return Outcome{Status: vocab.StatusSucceeded, Reason: reason} }
func skipped(reason string) Outcome   { return Outcome{Status: vocab.StatusSkipped, Reason: reason} }

func dead(class vocab.Class, reason string) Outcome {
	return Outcome{Status: vocab.StatusDead, Class: class, Reason: reason}
}

// duplicate decides a decoded message against the holders of identities,
// alone or batched: when another message holds its identity (bound before,
// or by an earlier message of the batch), it is a duplicate and is not
// applied (dup true; duplicateOf is its outcome).
func duplicate(in *Input, holders map[string]vocab.Holder) (out Outcome, dup bool) {
	h, ok := holders[in.Decoded.Identity]
	if !ok || h.MsgID == in.Msg.ID {
		return Outcome{}, false
	}
	return duplicateOf(h, in.Digest), true
}

// duplicateOf is a message whose identity another message holds. It binds
// that identity too (the holders' uniqueness leaves duplicates out), so
// operators see what it repeated. When both raw messages' digests are known
// and differ, the sender reused the identity (rule 2): still SKIPPED, but
// marked content-differs (Conflict) so it is never silent. An unknown
// digest (a holder bound before digests were kept) is a plain duplicate.
func duplicateOf(holder vocab.Holder, digest []byte) Outcome {
	out := Outcome{Status: vocab.StatusSkipped, Reason: "duplicate-of:" + strconv.FormatInt(holder.MsgID, 10), DuplicateOf: &holder.MsgID}
	if len(digest) > 0 && len(holder.Digest) > 0 && !bytes.Equal(digest, holder.Digest) {
		out.Reason += vocab.ConflictSuffix
		out.Conflict = true
	}
	return out
}

// Refused: the message is refused whole (DEAD PROTOCOL), nothing of it but
// its status is written (Result.Discard).
func (o Outcome) Refused() bool {
	return o.Status == vocab.StatusDead && o.Class == vocab.ClassProtocol
}

// Failure is a retryable failure of one message: it stays the head, FAILED
// with backoff, until it succeeds or is exhausted.
type Failure struct {
	Class  vocab.Class
	Reason string
}

func (f *Failure) Error() string { return fmt.Sprintf("%s: %s", f.Class, f.Reason) }

// Classify maps an error met while processing a message to a failure class:
// codec and support gaps keep their class, everything else is INFRA.
func Classify(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	var se *sis.Error
	if errors.As(err, &se) {
		return &Failure{Class: vocab.Class(se.Class), Reason: se.Detail()}
	}
	return &Failure{Class: vocab.ClassInfra, Reason: err.Error()}
}
