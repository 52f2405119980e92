package flight

import "encoding/json"

// EventPayload is the JSON of the full state, the payload of UPSERT events
// and of the read API: every scalar raw + parsed, every group in order.
// Built from the same computed state that is written (rule 7).
func EventPayload(s *State) ([]byte, error) { return json.Marshal(s) }
