package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// The operator console (docs/console.md): server-rendered pages under
// /console built from the same functions as the JSON API's answers (no query
// of their own), public like the read API (reasons redacted). Its writes —
// replay, requests, a message's raw XML — are the admin routes, called by
// the pages with the admin token the browser keeps for the session; those
// routes answer an HTML fragment instead of JSON when htmx asks
// (HX-Request), so both answers come from one handler.
//
// This file mounts the pages; each page family has its own file:
// console_overview.go (the front page), console_messages.go (dead letters
// and one message), console_flights.go (search and one flight),
// console_outbox.go and console_requests.go. console_render.go renders the
// templates, console_chart.go draws the overview's chart.

func (s *server) mountConsole(r chi.Router) {
	r.Get("/console/static/*", serveConsoleStatic)
	r.Route("/console", func(r chi.Router) {
		r.Use(consoleHeaders)
		r.Get("/", s.consoleOverview)
		r.Get("/dead-letters", s.consoleDeadLetters)
		r.Get("/messages/{id}", s.consoleMessage)
		r.Get("/flights", s.consoleFlights)
		r.Get("/flights/{flid}", s.consoleFlight)
		r.Get("/outbox", s.consoleOutbox)
		r.Get("/requests", s.consoleRequests)
	})
	r.With(consoleHeaders).Get("/console", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/console/", http.StatusMovedPermanently)
	})
}

// consolePage parses ?cursor=&limit= like the JSON lists, answering a page.
func consolePage(w http.ResponseWriter, r *http.Request, s *server) (page, bool) {
	p, err := parsePage(r)
	if err != nil {
		s.consoleBadRequest(w, r, err.Error())
		return page{}, false
	}
	return p, true
}
