// Package contracttest checks what msgx really sends against its contracts
// (docs/openapi.yaml, docs/asyncapi.yaml, docs/schema/flight.schema.json)
// with validators msgx does not own: github.com/santhosh-tekuri/jsonschema
// for JSON Schema 2020-12 and github.com/getkin/kin-openapi for OpenAPI 3.1
// (which validates 3.1 bodies with that same JSON Schema engine). Only tests
// import it, so neither is linked into the binary.
package contracttest

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/msgx-aodb/msgx/docs"
)

// flightURL is the flight schema's own $id, which the compiler resolves it by.
const flightURL = "https://msgx-aodb.example/schema/flight.schema.json"

var flight = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(docs.FlightSchema))
	if err != nil {
		return nil, fmt.Errorf("docs/%s: %w", docs.FlightSchemaPath, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat() // date-time is an assertion here, not an annotation
	if err := c.AddResource(flightURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(flightURL)
})

// ValidateFlight checks one flight document (a Kafka UPSERT value, a read API
// flight) against docs/schema/flight.schema.json.
func ValidateFlight(value []byte) error {
	s, err := flight()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return s.Validate(v)
}
