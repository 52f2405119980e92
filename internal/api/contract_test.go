package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/msgx-aodb/msgx/docs"
	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/contracttest"
	"github.com/msgx-aodb/msgx/internal/metrics"
)

// TestEveryRouteHasAContract walks the router's routes and compares them with
// the operations of docs/openapi.yaml: a route added without a contract, or
// a contract left behind by a removed route, fails. The console's pages are
// HTML for people and out of the contract (contracttest.Exempt).
func TestEveryRouteHasAContract(t *testing.T) {
	clk := clock.NewFake(t0)
	h := api.NewRouter(api.Deps{Clock: clk, Log: quiet, Metrics: metrics.New(nil, clk), AdminToken: adminToken})
	var routes []string
	require.NoError(t, chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if route != "/console" && !strings.HasPrefix(route, "/console/") {
			routes = append(routes, method+" "+route)
		}
		return nil
	}))
	doc, err := contracttest.LoadOpenAPI()
	require.NoError(t, err)
	var ops []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			ops = append(ops, method+" "+path)
		}
	}
	slices.Sort(routes)
	slices.Sort(ops)
	require.Equal(t, ops, routes, "the routes of the router are the operations of docs/openapi.yaml")
}

// TestContractIsServed: msgx serves the files of docs/ it was built with,
// without a token; /openapi.json is the same document as the YAML.
func TestContractIsServed(t *testing.T) {
	t.Parallel()
	base := newSendEnv(t).serve(t, withAdmin, withSend)
	for path, want := range map[string][]byte{"/openapi.yaml": docs.OpenAPI, "/asyncapi.yaml": docs.AsyncAPI,
		"/schema/flight.schema.json": docs.FlightSchema} {
		res, body := do(t, http.MethodGet, base+path, "", nil)
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.Equal(t, string(want), string(body), path)
	}
	res, body := do(t, http.MethodGet, base+"/openapi.json", "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	var fromJSON, fromYAML any
	require.NoError(t, json.Unmarshal(body, &fromJSON))
	require.NoError(t, yaml.Unmarshal(docs.OpenAPI, &fromYAML))
	y, err := json.Marshal(fromYAML)
	require.NoError(t, err)
	require.JSONEq(t, string(y), string(body))
	require.Equal(t, "3.1.0", fromJSON.(map[string]any)["openapi"])
}

// TestAPIDocMatchesContract keeps docs/api.md and docs/openapi.yaml from
// drifting: the route tables name exactly the contract's operations (the
// console aside), and every field a row names is a property of that
// operation's request or response schemas.
func TestAPIDocMatchesContract(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "api.md"))
	require.NoError(t, err)
	doc, err := contracttest.LoadOpenAPI()
	require.NoError(t, err)

	route := regexp.MustCompile("`(GET|POST) (/[^`?]*)[^`]*`")
	field := regexp.MustCompile(`[{,\[]\s*"([a-z_]+)"`)
	named := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| `") || len(cells) < 2 {
			continue
		}
		for _, m := range route.FindAllStringSubmatch(cells[0], -1) {
			if strings.HasPrefix(m[2], "/console") {
				continue
			}
			op := m[1] + " " + m[2]
			named[op] = true
			item := doc.Paths.Find(m[2])
			require.NotNil(t, item, "docs/api.md names %s, docs/openapi.yaml does not", op)
			o := item.GetOperation(m[1])
			require.NotNil(t, o, "docs/api.md names %s, docs/openapi.yaml does not", op)
			props := operationProperties(o)
			for _, f := range field.FindAllStringSubmatch(strings.Join(cells[1:], " | "), -1) {
				require.True(t, props[f[1]], "docs/api.md: %s names field %q, docs/openapi.yaml does not", op, f[1])
			}
		}
	}
	headers := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			require.True(t, named[method+" "+path], "docs/openapi.yaml has %s %s, docs/api.md does not name it", method, path)
			for _, r := range o.Responses.Map() {
				for h := range r.Value.Headers {
					headers[h] = true
				}
			}
		}
	}
	// The answer headers: those docs/api.md names are the contract's.
	require.NotEmpty(t, headers)
	for h := range headers {
		require.Contains(t, string(b), "`"+h, "docs/openapi.yaml answers header %s, docs/api.md does not name it", h)
	}
	for _, h := range []string{"X-Request-Id", "WWW-Authenticate", "Retry-After"} {
		require.True(t, headers[h], "docs/api.md names the answer header %s, docs/openapi.yaml does not", h)
	}
}

// operationProperties is every property name in an operation's request
// body and response schemas, at any depth.
func operationProperties(o *openapi3.Operation) map[string]bool {
	out := map[string]bool{}
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.SchemaRef)
	walk = func(s *openapi3.SchemaRef) {
		if s == nil || s.Value == nil || seen[s.Value] {
			return
		}
		seen[s.Value] = true
		for name, p := range s.Value.Properties {
			out[name] = true
			walk(p)
		}
		walk(s.Value.Items)
		if s.Value.AdditionalProperties.Schema != nil {
			walk(s.Value.AdditionalProperties.Schema)
		}
		for _, list := range [][]*openapi3.SchemaRef{s.Value.OneOf, s.Value.AnyOf, s.Value.AllOf} {
			for _, sub := range list {
				walk(sub)
			}
		}
	}
	if o.RequestBody != nil && o.RequestBody.Value != nil {
		for _, mt := range o.RequestBody.Value.Content {
			walk(mt.Schema)
		}
	}
	for _, r := range o.Responses.Map() {
		if r.Value != nil {
			for _, mt := range r.Value.Content {
				walk(mt.Schema)
			}
		}
	}
	return out
}
