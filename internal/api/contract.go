package api

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"
	"go.yaml.in/yaml/v3"

	"github.com/msgx-aodb/msgx/docs"
)

// mountContract serves msgx's contracts, embedded from docs/ (no token):
// what a client generates its code from is what this binary was built with.
// The contracts refer to the flight schema by the relative path
// schema/flight.schema.json, which resolves against these URLs too.
func (s *server) mountContract(r chi.Router) {
	r.Get("/openapi.yaml", serveBytes("application/yaml", docs.OpenAPI))
	r.Get("/asyncapi.yaml", serveBytes("application/yaml", docs.AsyncAPI))
	r.Get("/"+docs.FlightSchemaPath, serveBytes("application/schema+json", docs.FlightSchema))
	r.Get("/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		b, err := openAPIJSON()
		if err != nil {
			s.serverError(w, r, http.StatusInternalServerError, "internal error", "convert docs/openapi.yaml", err)
			return
		}
		writeJSON(w, b)
	})
}

func serveBytes(contentType string, b []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(b)
	}
}

// openAPIJSON is docs/openapi.yaml as JSON, converted once.
var openAPIJSON = sync.OnceValues(func() ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(docs.OpenAPI, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
})
