package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

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
