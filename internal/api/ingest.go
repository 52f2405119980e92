package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/redact"
)

func (s *server) mountIngest(r chi.Router) {
	r.With(s.requireToken(newBearer("send", s.SendToken, nil)), limitSends(s.MaxConcurrentSends)).Post("/cminmsgs/send", s.send)
}

// send is POST /cminmsgs/send: the raw XML body becomes a new mailbox row;
// 200 text/plain with the mailbox id means accepted, not processed. The body
// is not parsed here: the pump decodes it like any row the AODB writes.
//
// The send does not enqueue its row itself: the poller does, woken at once
// (Inserted), like every mailbox row. Ids enter the queue in order (rule 16,
// docs/design.md §1.1): an older row of the AODB that is not committed yet
// has a smaller id, and enqueueing this row at once would let it overtake
// that one. Only the poller sees such a hole and waits for it.
func (s *server) send(w http.ResponseWriter, r *http.Request) {
	if msg := checkXMLType(r.Header.Get("Content-Type")); msg != "" {
		writeError(w, http.StatusUnsupportedMediaType, msg)
		return
	}
	if r.ContentLength > s.MaxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, s.overLimit())
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, s.overLimit())
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "reading body: "+redact.Reason(err.Error()))
		return
	case len(bytes.TrimSpace(body)) == 0:
		writeError(w, http.StatusBadRequest, "empty body")
		return
	case !utf8.Valid(body):
		writeError(w, http.StatusBadRequest, "body is not valid UTF-8")
		return
	}

	now := s.Clock.Now()
	id, err := s.Mailbox.Insert(r.Context(), body, now)
	switch {
	case errors.Is(err, mailbox.ErrTooLarge):
		// The server's max_allowed_packet was lowered since start (SendLimit).
		s.logFor(r).Warn("send: the mailbox server refused the body as too large; its max_allowed_packet is below the limit derived at start",
			"bytes", len(body), "limit", s.MaxBodyBytes, "err", err)
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("message of %d bytes is more than the mailbox server accepts now", len(body)))
		return
	case errors.Is(err, mailbox.ErrReadOnly):
		writeError(w, http.StatusConflict, "shadow mode: this instance never writes the shared mailbox")
		return
	case err != nil:
		s.serverError(w, r, http.StatusServiceUnavailable, "mailbox unavailable", "send: mailbox insert", err)
		return
	}
	if s.Inserted != nil {
		s.Inserted()
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, strconv.FormatInt(id, 10))
}

// overLimit is the 413 message of a body over the send limit.
func (s *server) overLimit() string {
	return fmt.Sprintf("message over the limit of %d bytes (the smaller of limits.max-message-bytes and what the mailbox server's max_allowed_packet takes)", s.MaxBodyBytes)
}

// checkXMLType accepts application/xml and text/xml, with parameters, but a
// charset only if it is UTF-8 (the mailbox stores UTF-8 text and nothing
// here transcodes). It returns why a Content-Type is refused, or "".
func checkXMLType(ct string) string {
	if ct == "" {
		return "Content-Type required: application/xml or text/xml"
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "malformed Content-Type: " + err.Error()
	}
	if mt != "application/xml" && mt != "text/xml" {
		return "unsupported media type " + mt + ": application/xml or text/xml"
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return "unsupported charset " + cs + ": utf-8 only"
	}
	return ""
}
