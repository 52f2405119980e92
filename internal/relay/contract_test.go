package relay

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/msgx-aodb/msgx/docs"
)

// readOnlyFields are the flight schema's properties docs/events.md leaves
// out: the read API's additions, never on Kafka (docs/asyncapi.yaml forbids
// them there).
var readOnlyFields = []string{"archived", "deleted_at"}

// TestEventsDocMatchesContracts keeps docs/events.md, docs/asyncapi.yaml and
// docs/schema/flight.schema.json from drifting: the header table names the
// contract's headers, the value table the schema's paths with their types
// and presence.
func TestEventsDocMatchesContracts(t *testing.T) {
	doc := readEventsDoc(t)

	var async struct {
		Components struct {
			Schemas struct {
				Headers struct {
					Required   []string       `yaml:"required"`
					Properties map[string]any `yaml:"properties"`
				} `yaml:"headers"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	require.NoError(t, yaml.Unmarshal(docs.AsyncAPI, &async))
	h := async.Components.Schemas.Headers
	require.ElementsMatch(t, doc.headers, slices.Collect(maps.Keys(h.Properties)), "docs/events.md headers = docs/asyncapi.yaml headers")
	require.ElementsMatch(t, doc.headers, h.Required, "every header is always sent")

	var schema map[string]any
	require.NoError(t, json.Unmarshal(docs.FlightSchema, &schema))
	fromSchema := map[string]docField{}
	schemaFields(schema, schema, "", fromSchema)
	for _, p := range readOnlyFields {
		require.Contains(t, fromSchema, p)
		delete(fromSchema, p)
	}
	require.Equal(t, fromSchema, doc.fields, "docs/events.md value fields = docs/schema/flight.schema.json")
}

// schemaFields lists the paths of a schema as docs/events.md writes them
// (a.b, a.*, a[]), with their type and presence.
func schemaFields(root, s map[string]any, path string, out map[string]docField) {
	s = resolve(root, s)
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	required := map[string]bool{}
	for _, r := range asSlice(s["required"]) {
		required[r.(string)] = true
	}
	for name, sub := range asMap(s["properties"]) {
		p := join(name)
		out[p] = docField{typ: schemaType(root, sub.(map[string]any)), always: required[name]}
		schemaFields(root, sub.(map[string]any), p, out)
	}
	if sub, ok := s["additionalProperties"].(map[string]any); ok {
		p := join("*")
		out[p] = docField{typ: schemaType(root, sub)}
		schemaFields(root, sub, p, out)
	}
	if sub, ok := s["items"].(map[string]any); ok {
		p := path + "[]"
		out[p] = docField{typ: schemaType(root, sub)}
		schemaFields(root, sub, p, out)
	}
}

// schemaType is a schema's type in docs/events.md's words.
func schemaType(root, s map[string]any) string {
	if ref, ok := s["$ref"].(string); ok && (ref == "#/$defs/time" || ref == "#/$defs/day") {
		return "time"
	}
	s = resolve(root, s)
	if t, ok := s["type"].(string); ok {
		return t
	}
	if _, ok := s["enum"]; ok {
		return "string"
	}
	return "?"
}

func resolve(root, s map[string]any) map[string]any {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		next := any(root)
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			next = next.(map[string]any)[part]
		}
		s = next.(map[string]any)
	}
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asSlice(v any) []any        { a, _ := v.([]any); return a }
