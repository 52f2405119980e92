package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBreaking: the current contracts are compatible with themselves, and
// each kind of breaking change is found.
func TestBreaking(t *testing.T) {
	for _, f := range []string{"../../docs/openapi.yaml", "../../docs/asyncapi.yaml", "../../docs/schema/flight.schema.json"} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		doc, err := parse(b)
		require.NoError(t, err)
		require.Empty(t, breaking(doc, doc), f)
	}
	mustParse := func(s string) any { v, err := parse([]byte(s)); require.NoError(t, err); return v }
	old := mustParse(`
info: {version: 1.2.0}
paths:
  /flights/{flid}:
    get:
      responses:
        "200": {content: {application/json: {schema: {type: object, required: [flid], properties: {flid: {type: integer}, lifecycle: {enum: [ACTIVE, DELETED]}}}}}}
        "404": {description: none}
  /admin/replay:
    post:
      requestBody: {content: {application/json: {schema: {required: [dry_run], properties: {dry_run: {type: boolean}, ids: {type: array}}}}}}
`)
	require.Equal(t, 1, major(old))
	for name, next := range map[string]string{
		"route removed":    `{info: {version: 1.3.0}, paths: {}}`,
		"method removed":   `{paths: {"/flights/{flid}": {}, /admin/replay: {post: {}}}}`,
		"status removed":   `{paths: {"/flights/{flid}": {get: {responses: {"200": {}}}}}}`,
		"property removed": `{paths: {"/flights/{flid}": {get: {responses: {"200": {content: {application/json: {schema: {required: [flid], properties: {lifecycle: {}}}}}}}}}}}`,
		"type changed":     `{paths: {"/flights/{flid}": {get: {responses: {"200": {content: {application/json: {schema: {type: object, required: [flid], properties: {flid: {type: string}, lifecycle: {}}}}}}}}}}}`,
		"enum narrowed":    `{paths: {"/flights/{flid}": {get: {responses: {"200": {content: {application/json: {schema: {type: object, required: [flid], properties: {flid: {type: integer}, lifecycle: {enum: [ACTIVE]}}}}}}}}}}}`,
		"not required":     `{paths: {"/flights/{flid}": {get: {responses: {"200": {content: {application/json: {schema: {type: object, required: [], properties: {flid: {type: integer}, lifecycle: {enum: [ACTIVE, DELETED]}}}}}}}}}}}`,
		"request requires": `{paths: {/admin/replay: {post: {requestBody: {content: {application/json: {schema: {required: [dry_run, ids], properties: {dry_run: {type: boolean}, ids: {type: array}}}}}}}}}}`,
	} {
		require.NotEmpty(t, breaking(old, mustParse(next)), name)
	}
	added := mustParse(`
info: {version: 1.3.0}
paths:
  /flights/{flid}:
    get:
      responses:
        "200": {content: {application/json: {schema: {type: object, required: [flid, state_version], properties: {flid: {type: integer}, state_version: {type: integer}, lifecycle: {enum: [ACTIVE, DELETED]}}}}}}
        "404": {description: none}
        "503": {description: new}
  /admin/replay:
    post:
      requestBody: {content: {application/json: {schema: {required: [dry_run], properties: {dry_run: {type: boolean}, ids: {type: array}, class: {type: string}}}}}}
  /new: {get: {}}
`)
	require.Empty(t, breaking(old, added), "additions are compatible")
}
