package contracttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/msgx-aodb/msgx/docs"
)

// asyncURL places docs/asyncapi.yaml beside the flight schema's $id, so its
// relative reference ./schema/flight.schema.json resolves to that schema.
const asyncURL = "https://msgx-aodb.example/asyncapi.yaml"

// record is what docs/asyncapi.yaml says of one kind of record.
type record struct{ key, headers, payload *jsonschema.Schema }

var asyncRecords = sync.OnceValues(func() (map[string]record, error) {
	var y any
	if err := yaml.Unmarshal(docs.AsyncAPI, &y); err != nil {
		return nil, fmt.Errorf("docs/asyncapi.yaml: %w", err)
	}
	b, err := json.Marshal(y) // YAML's numbers as JSON's
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	flightDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(docs.FlightSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(asyncURL, doc); err != nil {
		return nil, err
	}
	if err := c.AddResource(flightURL, flightDoc); err != nil {
		return nil, err
	}
	out := map[string]record{}
	for _, kind := range []string{"upsert", "tombstone"} {
		var r record
		for _, s := range []struct {
			to  **jsonschema.Schema
			ptr string
		}{{&r.key, "/components/messages/" + kind + "/bindings/kafka/key"},
			{&r.headers, "/components/messages/" + kind + "/headers"},
			{&r.payload, "/components/messages/" + kind + "/payload"}} {
			if *s.to, err = c.Compile(asyncURL + "#" + s.ptr); err != nil {
				return nil, fmt.Errorf("docs/asyncapi.yaml: %w", err)
			}
		}
		out[map[string]string{"upsert": "UPSERT", "tombstone": "TOMBSTONE"}[kind]] = r
	}
	return out, nil
})

// ValidateRecord checks one Kafka record against docs/asyncapi.yaml: its
// key, its headers (all of them, none other) and its value (nil for a
// TOMBSTONE), chosen by its event-type header.
func ValidateRecord(key []byte, headers map[string]string, value []byte) error {
	recs, err := asyncRecords()
	if err != nil {
		return err
	}
	r, ok := recs[headers["event-type"]]
	if !ok {
		return fmt.Errorf("event-type %q is no message of docs/asyncapi.yaml", headers["event-type"])
	}
	if err := r.key.Validate(string(key)); err != nil {
		return fmt.Errorf("key: %w", err)
	}
	h := map[string]any{}
	for k, v := range headers {
		h[k] = v
	}
	if err := r.headers.Validate(h); err != nil {
		return fmt.Errorf("headers: %w", err)
	}
	var v any
	if value != nil {
		if v, err = jsonschema.UnmarshalJSON(bytes.NewReader(value)); err != nil {
			return fmt.Errorf("value: %w", err)
		}
	}
	if err := r.payload.Validate(v); err != nil {
		return fmt.Errorf("value: %w", err)
	}
	return nil
}
