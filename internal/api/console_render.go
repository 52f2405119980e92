package api

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

// The console's templates and static files (console/static/README.md names
// the vendored htmx and its license), embedded in the binary: the console
// works without internet and without a separate build.
//
//go:embed console/templates console/static
var consoleFiles embed.FS

// consoleCSP allows the console's own script and style only: no inline
// script or style, nothing from elsewhere.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// consoleTemplates are the page templates, each the layout with its content,
// and the fragments the admin routes answer htmx with. Each server parses its
// own: the pages show times in its airport zone and say when it has no admin
// token.
type consoleTemplates struct {
	pages     map[string]*template.Template
	fragments *template.Template
}

func parseConsole(loc *time.Location, adminOn bool) consoleTemplates {
	if loc == nil {
		loc = time.UTC
	}
	funcs := template.FuncMap{
		"age":     humanAge,
		"ts":      func(t time.Time) template.HTML { return timeHTML(t, loc) },
		"tsp":     func(t *time.Time) template.HTML { return optTimeHTML(t, loc) },
		"str":     func(s *string) string { return optString(s) },
		"int":     func(n *int64) string { return optInt(n) },
		"lower":   strings.ToLower,
		"join":    strings.Join,
		"sumMap":  sumMap,
		"deleted": func(lifecycle string) bool { return lifecycle == "DELETED" },
		"meaning": sis.Meaning,
		"kind":    kindLabel,
		"adminOn": func() bool { return adminOn },
		"zone":    func() string { return loc.String() },
		"replayForm": func(ids, class string, classes []string) replayFormView {
			return replayFormView{IDs: ids, Class: class, Classes: classes}
		},
	}
	base := template.Must(template.New("console").Funcs(funcs).ParseFS(consoleFiles, "console/templates/layout.html", "console/templates/fragments.html"))
	pages := map[string]*template.Template{}
	names, err := fs.Glob(consoleFiles, "console/templates/page-*.html")
	if err != nil {
		panic(err)
	}
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "console/templates/page-"), ".html")
		pages[name] = template.Must(template.Must(base.Clone()).ParseFS(consoleFiles, n))
	}
	return consoleTemplates{pages: pages, fragments: base}
}

// kindLabel is a message kind as the console shows it: a message whose kind
// was never bound (it did not decode) is UNKNOWN, as in the metrics' labels.
func kindLabel(k any) string {
	switch v := k.(type) {
	case *string:
		if v != nil && *v != "" {
			return *v
		}
	case string:
		if v != "" {
			return v
		}
	}
	return string(sis.KindUnknown)
}

// timeHTML is a time in the airport zone (status.Stamp), carrying its UTC
// form for the console's UTC box (console.js).
func timeHTML(t time.Time, loc *time.Location) template.HTML {
	return template.HTML(`<time datetime="` + t.UTC().Format(time.RFC3339) + `" data-utc="` + status.Stamp(t, time.UTC) + `">` +
		status.Stamp(t, loc) + `</time>`)
}

func optTimeHTML(t *time.Time, loc *time.Location) template.HTML {
	if t == nil {
		return "—"
	}
	return timeHTML(*t, loc)
}

// consoleHeaders sets the CSP and the other headers of every console page.
func consoleHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", consoleCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// serveConsoleStatic serves the embedded CSS and JS (cacheable: they change
// only with the binary).
func serveConsoleStatic(w http.ResponseWriter, r *http.Request) {
	sub, _ := fs.Sub(consoleFiles, "console")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	http.StripPrefix("/console", http.FileServerFS(sub)).ServeHTTP(w, r)
}

// replayFormView is the replay form: of fixed ids, or of a class or ids chosen.
type replayFormView struct {
	IDs, Class string
	Classes    []string
}

// pageData wraps a page's view with what the layout needs.
type pageData struct {
	Title string
	Nav   string
	Now   time.Time
	View  any
	Error string
}

var pageTitles = map[string]string{
	"overview": "Queue", "dead-letters": "Dead letters", "message": "Message", "flights": "Flights",
	"flight": "Flight", "outbox": "Outbox", "requests": "Requests and jobs", "error": "Error",
}

// render writes a page; a template failure is a 500 with the request id.
func (s *server) render(w http.ResponseWriter, r *http.Request, name string, view any) {
	s.renderStatus(w, r, http.StatusOK, name, pageData{View: view})
}

func (s *server) renderStatus(w http.ResponseWriter, r *http.Request, code int, name string, d pageData) {
	t, ok := s.console.pages[name]
	if !ok {
		s.serverError(w, r, http.StatusInternalServerError, "internal error", "console page", fmt.Errorf("no template %q", name))
		return
	}
	d.Title, d.Now = pageTitles[name], s.Clock.Now()
	if d.Nav == "" {
		d.Nav = name
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", d); err != nil {
		s.serverError(w, r, http.StatusInternalServerError, "internal error", "render console "+name, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

// consoleError answers a store failure as a page: not found 404, the
// database unreachable 503, else 500 (the error itself to the log only).
func (s *server) consoleError(w http.ResponseWriter, r *http.Request, op string, err error) {
	code, msg := http.StatusInternalServerError, "internal error (request "+w.Header().Get(requestIDHeader)+")"
	switch {
	case errors.Is(err, store.ErrNotFound):
		code, msg = http.StatusNotFound, "not found"
	case errors.Is(err, store.ErrUnavailable):
		code, msg = http.StatusServiceUnavailable, "database unavailable; retry later"
	}
	if code >= 500 {
		s.logFor(r).Error("api: console "+op+" failed", "err", err)
	}
	s.renderStatus(w, r, code, "error", pageData{Error: msg})
}

func (s *server) consoleBadRequest(w http.ResponseWriter, r *http.Request, msg string) {
	s.renderStatus(w, r, http.StatusBadRequest, "error", pageData{Error: msg})
}

// fromConsole tells an htmx request of the console (it wants HTML).
func fromConsole(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// answer writes v as JSON, or, for the console, as the named fragment.
func (s *server) answer(w http.ResponseWriter, r *http.Request, code int, fragment string, v any) {
	if !fromConsole(r) {
		if code == http.StatusOK {
			s.writeValue(w, r, fragment, v)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		body, _ := json.Marshal(v)
		_, _ = w.Write(body)
		return
	}
	var b bytes.Buffer
	if err := s.console.fragments.ExecuteTemplate(&b, fragment, v); err != nil {
		s.serverError(w, r, http.StatusInternalServerError, "internal error", "render fragment "+fragment, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

// humanAge is a duration in seconds as "1h 2m", "3m 4s" or "5s".
func humanAge(sec float64) string {
	d := time.Duration(math.Round(sec)) * time.Second
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd %dh", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
	case d >= time.Hour:
		return fmt.Sprintf("%dh %dm", d/time.Hour, d%time.Hour/time.Minute)
	case d >= time.Minute:
		return fmt.Sprintf("%dm %ds", d/time.Minute, d%time.Minute/time.Second)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

func optString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func optInt(n *int64) string {
	if n == nil {
		return ""
	}
	return fmt.Sprint(*n)
}

func sumMap(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
