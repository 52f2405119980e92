package contracttest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/msgx-aodb/msgx/docs"
)

// flightDoc is a valid flight; the cases below each break one rule.
const flightDoc = `{"flid": 30003,
 "scalars": {"SODT": {"raw": "03DEC260930", "time": "2026-12-03T01:30:00Z"}, "SCHT": {"raw": "0215", "minutes": 135}},
 "structs": {"FDIV": {"text": "fog", "attrs": {"DDES": "CAN"}}},
 "groups": {"ROUT": [{"source_seq": 1, "fields": {"SDDC": {"raw": "-1", "days": -1}}}]},
 "payloads": {"VIPF": {"format": "xml", "content": "<VIPF/>"}},
 "operation_day": "2026-12-03T00:00:00Z", "fday": "2026-12-03T00:00:00Z", "lifecycle": "ACTIVE",
 "state_version": 2, "last_message_id": 5003,
 "created_at": "2026-12-03T05:00:01Z", "updated_at": "2026-12-03T06:12:40.5Z"}`

func mutated(t *testing.T, f func(map[string]any)) []byte {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(flightDoc), &v))
	f(v)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func TestFlightSchemaIsStrict(t *testing.T) {
	require.NoError(t, ValidateFlight([]byte(flightDoc)))
	require.NoError(t, ValidateFlight(mutated(t, func(v map[string]any) {
		v["stamps"] = map[string]any{"STND": "2026-12-03T01:00:00Z", "lifecycle": "2026-12-03T01:00:00Z"}
		v["lifecycle"], v["deleted_at"], v["archived"] = "DELETED", "2026-12-04T00:00:00Z", true
	})), "the read API's additions and the stamps")

	for name, f := range map[string]func(map[string]any){
		"flid missing":     func(v map[string]any) { delete(v, "flid") },
		"flid a string":    func(v map[string]any) { v["flid"] = "30003" },
		"flid a fraction":  func(v map[string]any) { v["flid"] = 3.5 },
		"unknown property": func(v map[string]any) { v["extra"] = 1 },
		"unknown value property": func(v map[string]any) {
			v["scalars"].(map[string]any)["STND"] = map[string]any{"raw": "1", "text": "x"}
		},
		"raw missing":         func(v map[string]any) { v["scalars"].(map[string]any)["STND"] = map[string]any{} },
		"null value":          func(v map[string]any) { v["scalars"].(map[string]any)["STND"] = nil },
		"time with an offset": func(v map[string]any) { v["created_at"] = "2026-12-03T13:00:01+08:00" },
		"time not a date":     func(v map[string]any) { v["updated_at"] = "2026-13-45T06:12:40Z" },
		"day not midnight":    func(v map[string]any) { v["operation_day"] = "2026-12-03T01:00:00Z" },
		"lifecycle unknown":   func(v map[string]any) { v["lifecycle"] = "GONE" },
		"empty group":         func(v map[string]any) { v["groups"].(map[string]any)["GTDT"] = []any{} },
		"stamp not a time":    func(v map[string]any) { v["stamps"] = map[string]any{"STND": "03DEC260930"} },
		"archived false":      func(v map[string]any) { v["archived"] = false },
	} {
		require.Error(t, ValidateFlight(mutated(t, f)), name)
	}
}

func TestOpenAPICheckRefuses(t *testing.T) {
	get := func(path string) *http.Request { return httptest.NewRequest(http.MethodGet, path, nil) }
	js := http.Header{"Content-Type": {"application/json"}}
	require.NoError(t, CheckResponse(get("/healthz"), 200, js, []byte(`{"status":"ok"}`)))
	require.NoError(t, CheckResponse(get("/flights/30003"), 200, js, []byte(flightDoc)))
	require.NoError(t, CheckResponse(get("/messages/5"), 200, js, []byte(message("2026-12-03T05:00:01Z"))))
	require.NoError(t, CheckResponse(get("/nothing"), 404, js, []byte(`{"error":"no such resource","status":404}`)))

	for name, c := range map[string]struct {
		r      *http.Request
		status int
		body   string
	}{
		"extra property":     {get("/healthz"), 200, `{"status":"ok","extra":1}`},
		"status not listed":  {get("/healthz"), 418, `{"error":"teapot","status":418}`},
		"route not listed":   {get("/nothing"), 200, `{}`},
		"error without text": {get("/flights/1"), 404, `{"status":404}`},
		"flight without flid": {get("/flights/1"), 200,
			string(mutated(t, func(v map[string]any) { delete(v, "flid") }))},
		"time with an offset": {get("/messages/5"), 200, message("2026-12-03T13:00:01+08:00")},
	} {
		require.Error(t, CheckResponse(c.r, c.status, js, []byte(c.body)), name)
	}
}

func message(firstSeen string) string {
	return `{"msg_id":5,"status":"SUCCEEDED","error_class":null,"reason":null,"attempts":1,"next_attempt_at":null,
 "first_seen_at":"` + firstSeen + `","finished_at":null,"identity_key":null,"kind":null,"duplicate_of":null,
 "archived":false,"meta":{"sndr":null,"seqn":null,"dttm_raw":null,"dttm":null,"type":null,"styp":null},
 "replay_count":0,"prev_error_class":null,"prev_reason":null,"late":null}`
}

func TestAsyncAPIRecordIsStrict(t *testing.T) {
	hdr := func(typ string) map[string]string {
		return map[string]string{"event-id": "42", "idempotency-key": "5003:30003:2:KAFKA:msg", "state-version": "2",
			"event-type": typ, "cminmsgs-id": "5003"}
	}
	require.NoError(t, ValidateRecord([]byte("30003"), hdr("UPSERT"), []byte(flightDoc)))
	require.NoError(t, ValidateRecord([]byte("30003"), hdr("TOMBSTONE"), nil))

	extra := hdr("UPSERT")
	extra["trace"] = "x"
	missing := hdr("UPSERT")
	delete(missing, "idempotency-key")
	for name, c := range map[string]struct {
		key   string
		hdr   map[string]string
		value []byte
	}{
		"key not a FLID":       {"CA1502", hdr("UPSERT"), []byte(flightDoc)},
		"header not named":     {"30003", extra, []byte(flightDoc)},
		"header missing":       {"30003", missing, []byte(flightDoc)},
		"upsert without value": {"30003", hdr("UPSERT"), nil},
		"tombstone with value": {"30003", hdr("TOMBSTONE"), []byte(flightDoc)},
		"deleted on Kafka":     {"30003", hdr("UPSERT"), mutated(t, func(v map[string]any) { v["lifecycle"] = "DELETED" })},
		"read API's archived":  {"30003", hdr("UPSERT"), mutated(t, func(v map[string]any) { v["archived"] = true })},
		"flight without flid":  {"30003", hdr("UPSERT"), mutated(t, func(v map[string]any) { delete(v, "flid") })},
		"unknown event type":   {"30003", hdr("DELETE"), nil},
	} {
		require.Error(t, ValidateRecord([]byte(c.key), c.hdr, c.value), name)
	}
}

// TestEveryOperationHasAnExample: each request body and each answer of 2xx
// shows an example, and the examples are validated against their schemas
// when the document loads (a bad one fails LoadOpenAPI).
func TestEveryOperationHasAnExample(t *testing.T) {
	doc, err := LoadOpenAPI()
	require.NoError(t, err)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			var contents []openapi3.Content
			if op.RequestBody != nil {
				contents = append(contents, op.RequestBody.Value.Content)
			}
			for code, r := range op.Responses.Map() {
				if strings.HasPrefix(code, "2") {
					contents = append(contents, r.Value.Content)
				}
			}
			require.NotEmpty(t, contents, "%s %s", method, path)
			for _, c := range contents {
				for mime, mt := range c {
					if mime == "text/xml" {
						continue // the twin of application/xml
					}
					require.True(t, mt.Example != nil || len(mt.Examples) > 0, "%s %s: %s has no example", method, path, mime)
				}
			}
		}
	}

	bad := strings.Replace(string(docs.OpenAPI), `first_seen_at: "2026-12-03T05:00:01Z"`, `first_seen_at: "2026-12-03T13:00:01+08:00"`, 1)
	require.NotEqual(t, string(docs.OpenAPI), bad)
	_, err = loadOpenAPIFrom([]byte(bad))
	require.ErrorContains(t, err, "first_seen_at", "an example that leaves its schema fails the load")
}

// TestAsyncAPIRefsResolve: every $ref of docs/asyncapi.yaml points at
// something in it, or at the flight schema.
func TestAsyncAPIRefsResolve(t *testing.T) {
	var doc any
	require.NoError(t, yaml.Unmarshal(docs.AsyncAPI, &doc))
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				n++
				if ref == "./"+docs.FlightSchemaPath {
					return
				}
				require.True(t, strings.HasPrefix(ref, "#/"), ref)
				at := doc
				for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
					m, ok := at.(map[string]any)
					require.True(t, ok, "%s: %s is not an object", ref, part)
					at, ok = m[part]
					require.True(t, ok, "%s: no %s", ref, part)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	require.Positive(t, n)
}
