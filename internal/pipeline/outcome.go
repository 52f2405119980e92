package pipeline

import (
	"errors"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
)

// outcome is what processing decided for one message.
type outcome struct {
	status      string // SUCCEEDED, SKIPPED or DEAD; "" = failed, retry (see err)
	class       sis.Class
	reason      string
	duplicateOf *int64
}

func succeeded(reason string) outcome { return outcome{status: store.StatusSucceeded, reason: reason} }
func skipped(reason string) outcome   { return outcome{status: store.StatusSkipped, reason: reason} }

func dead(class sis.Class, reason string) outcome {
	return outcome{status: store.StatusDead, class: class, reason: reason}
}

// failure is a retryable failure of one message: it stays the head, FAILED
// with backoff, until it succeeds or is exhausted.
type failure struct {
	class  sis.Class
	reason string
}

func (f *failure) Error() string { return fmt.Sprintf("%s: %s", f.class, f.reason) }

// classify maps an error met while processing a message to a failure class:
// codec and support gaps keep their class, everything else is INFRA.
func classify(err error) *failure {
	var f *failure
	if errors.As(err, &f) {
		return f
	}
	var se *sis.Error
	if errors.As(err, &se) {
		return &failure{class: se.Class, reason: se.Detail()}
	}
	return &failure{class: sis.ClassInfra, reason: err.Error()}
}
