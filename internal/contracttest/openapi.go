package contracttest

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/msgx-aodb/msgx/docs"
)

// openAPI is docs/openapi.yaml loaded, checked and routed, once per process.
type openAPI struct {
	doc    *openapi3.T
	router routers.Router
}

var loadOpenAPI = sync.OnceValues(func() (*openAPI, error) {
	doc, err := LoadOpenAPI()
	if err != nil {
		return nil, err
	}
	// Test servers listen on any port: match the paths alone.
	doc.Servers = nil
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("docs/openapi.yaml: routes: %w", err)
	}
	return &openAPI{doc: doc, router: r}, nil
})

func init() {
	// The media types msgx answers that kin-openapi has no decoder for.
	openapi3filter.RegisterBodyDecoder("application/xml", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/xml", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/schema+json", openapi3filter.JSONBodyDecoder)
}

// LoadOpenAPI loads the embedded docs/openapi.yaml, its reference to the
// flight schema resolved from the embedded file too, and validates it as an
// OpenAPI 3.1 document (examples included).
func LoadOpenAPI() (*openapi3.T, error) { return loadOpenAPIFrom(docs.OpenAPI) }

func loadOpenAPIFrom(data []byte) (*openapi3.T, error) {
	l := openapi3.NewLoader()
	l.ReadFromURIFunc = func(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
		if path.Clean(u.Path) == docs.FlightSchemaPath {
			return docs.FlightSchema, nil
		}
		return nil, fmt.Errorf("docs/openapi.yaml refers to %s: only %s is embedded", u, docs.FlightSchemaPath)
	}
	doc, err := l.LoadFromDataWithPath(data, &url.URL{Path: "openapi.yaml"})
	if err != nil {
		return nil, fmt.Errorf("docs/openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("docs/openapi.yaml: %w", err)
	}
	return doc, nil
}
