package contracttest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// Exempt says which requests the OpenAPI document does not describe: the
// operator console's pages (HTML for people, not an API) and the console's
// htmx calls, which get HTML fragments from the same handlers.
func Exempt(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/console/") || r.URL.Path == "/console" ||
		r.Header.Get("HX-Request") == "true"
}

// Wrap returns h checking every answer against docs/openapi.yaml: the route
// and method must be in the contract (or be answered 404/405), the status
// code must be one the operation lists, and the headers and body must
// follow its schema. A violation fails t. Exempt requests pass unchecked.
func Wrap(t testing.TB, h http.Handler) http.Handler {
	t.Helper()
	oa, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if Exempt(r) {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if err := oa.check(r, rec.Result().StatusCode, rec.Header(), rec.Body.Bytes()); err != nil {
			t.Errorf("contract: %s %s answered %d: %v\nbody: %.600s", r.Method, r.URL, rec.Code, err, rec.Body.Bytes())
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// CheckResponse checks one answer to r against docs/openapi.yaml, as Wrap does.
func CheckResponse(r *http.Request, status int, header http.Header, body []byte) error {
	oa, err := loadOpenAPI()
	if err != nil {
		return err
	}
	return oa.check(r, status, header, body)
}

func (oa *openAPI) check(r *http.Request, status int, header http.Header, body []byte) error {
	// The router matches on the URL of the request as the client sent it.
	u := *r.URL
	u.Scheme, u.Host = "", ""
	req := r.Clone(r.Context())
	req.URL = &u
	route, params, err := oa.router.FindRoute(req)
	switch {
	case errors.Is(err, routers.ErrPathNotFound) && status == http.StatusNotFound,
		errors.Is(err, routers.ErrMethodNotAllowed) && status == http.StatusMethodNotAllowed:
		return nil // msgx's generic 404 and 405 for what it does not serve
	case err != nil && strings.HasPrefix(r.URL.Path, "/admin/") && authStatus(status):
		return nil // the admin token is checked before routing, for any path under /admin
	case err != nil:
		return fmt.Errorf("no operation in the contract: %w", err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	return openapi3filter.ValidateResponse(r.Context(), in)
}

func authStatus(status int) bool {
	return status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusTooManyRequests
}
