package vocab

import "github.com/msgx-aodb/msgx/internal/flight"

// FlightWrite is one computed next state and what of it changed.
type FlightWrite struct {
	State   *flight.State
	Changes flight.Changes
	New     bool // the flight does not exist yet: nothing to update or delete
}
