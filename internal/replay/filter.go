package replay

import (
	"fmt"
	"slices"
	"strings"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Filter selects what to replay: the given ids, or every message of one class.
type Filter struct {
	IDs   []int64 `json:"ids,omitempty"`
	Class string  `json:"class,omitempty"`
}

// Validate checks that the filter names ids or a replayable class (not both).
// Its errors wrap ErrInvalidFilter or ErrNotReplayable.
func (f Filter) Validate() error {
	switch {
	case len(f.IDs) == 0 && f.Class == "":
		return fmt.Errorf("%w: name message ids or an error class", ErrInvalidFilter)
	case len(f.IDs) > 0 && f.Class != "":
		return fmt.Errorf("%w: name message ids or an error class, not both", ErrInvalidFilter)
	}
	for _, id := range f.IDs {
		if id <= 0 {
			return fmt.Errorf("%w: message id %d is not positive", ErrInvalidFilter, id)
		}
	}
	switch {
	case f.Class == "" || slices.Contains(Classes, f.Class):
		return nil
	case slices.Contains(errorClasses, f.Class):
		return fmt.Errorf("class %s is %w (replayable: %s)", f.Class, ErrNotReplayable, strings.Join(Classes, ", "))
	}
	return fmt.Errorf("%w: unknown class %s (replayable: %s)", ErrInvalidFilter, f.Class, strings.Join(Classes, ", "))
}

// errorClasses are every class a message can fail with; the two not in
// Classes (MALFORMED, PROTOCOL) are never replayed.
var errorClasses = append([]string{string(vocab.ClassMalformed), string(vocab.ClassProtocol)}, Classes...)

// ids is the filter's id list for the store: sorted, unique; nil for a class.
func (f Filter) ids() []int64 {
	if len(f.IDs) == 0 {
		return nil
	}
	ids := slices.Clone(f.IDs)
	slices.Sort(ids)
	return slices.Compact(ids)
}
