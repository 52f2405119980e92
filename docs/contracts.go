// Package docs holds msgx's machine-readable contracts, embedded so that the
// binary serves the very files the repository holds (GET /openapi.yaml,
// /openapi.json, /asyncapi.yaml, /schema/flight.schema.json) and the tests
// validate against them.
package docs

import _ "embed"

// OpenAPI is docs/openapi.yaml, the HTTP API (OpenAPI 3.1).
//
//go:embed openapi.yaml
var OpenAPI []byte

// AsyncAPI is docs/asyncapi.yaml, the Kafka topics (AsyncAPI 3).
//
//go:embed asyncapi.yaml
var AsyncAPI []byte

// FlightSchema is docs/schema/flight.schema.json (JSON Schema 2020-12), the
// flight document both contracts reference.
//
//go:embed schema/flight.schema.json
var FlightSchema []byte

// FlightSchemaPath is where both contracts refer to the flight schema,
// relative to themselves (and to the URL they are served at).
const FlightSchemaPath = "schema/flight.schema.json"
