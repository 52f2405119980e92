package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

// MaxReplayIDs bounds the ids of one POST /admin/replay.
const MaxReplayIDs = 1000

func (s *server) mountAdmin(r chi.Router) {
	r.Route("/admin", func(r chi.Router) {
		r.Use(s.requireToken(newBearer("admin", s.AdminToken, func(w http.ResponseWriter) {
			// Production refuses to start without an admin token.
			writeError(w, http.StatusForbidden, "admin API disabled: no admin token configured")
		})))
		r.Post("/replay", s.replay)
		r.Get("/queue", s.queue)
		// The public routes with the stored error texts in full.
		r.Get("/messages/{id}", s.getMessage(fullReason))
		r.Get("/messages/{id}/raw", s.getRaw)
		r.Get("/dead-letters", s.deadLetters(fullReason))
		r.Get("/readyz", s.readyz(fullReason))
		s.mountRequests(r) // requests.go
	})
}

// replayRequest is the body of POST /admin/replay: ids or class, and dry_run
// (required, so a forgotten flag never replays by accident).
type replayRequest struct {
	IDs    []int64 `json:"ids"`
	Class  string  `json:"class"`
	DryRun *bool   `json:"dry_run"`
}

// replayPreview is the answer of a dry run: the plan (messages, total,
// truncated, rejected ids with reasons, warnings).
type replayPreview struct {
	DryRun bool `json:"dry_run"`
	replay.Plan
}

// replayResult is the answer of a replay.
type replayResult struct {
	DryRun   bool          `json:"dry_run"`
	Filter   replay.Filter `json:"filter"`
	Replayed []int64       `json:"replayed"` // moved back to PENDING, in MSG_ID order
	Count    int           `json:"count"`
	// NotReplayed are the ids asked for that were not moved (preview says why).
	NotReplayed []int64 `json:"not_replayed"`
}

// replay is POST /admin/replay: a dry run previews what would move back to
// PENDING and warns where an older message would be applied over a newer
// state (replay.Preview); a real run moves the messages (replay.Apply).
func (s *server) replay(w http.ResponseWriter, r *http.Request) {
	var req replayRequest
	if !readJSON(w, r, &req) {
		return
	}
	switch {
	case req.DryRun == nil:
		writeError(w, http.StatusBadRequest, "dry_run is required: true to preview, false to replay")
		return
	case len(req.IDs) > MaxReplayIDs:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("ids: at most %d per request, got %d", MaxReplayIDs, len(req.IDs)))
		return
	}
	f := replay.Filter{IDs: req.IDs, Class: req.Class}
	if err := f.Validate(); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}

	if *req.DryRun {
		var raws replay.RawReader = noMailbox{}
		if s.Mailbox != nil {
			raws = s.Mailbox
		}
		plan, err := replay.Preview(r.Context(), s.Store, raws, f, replay.Options{Decode: s.Decode})
		if err != nil {
			s.storeError(w, r, "replay preview", err, "class", req.Class, "ids", len(req.IDs))
			return
		}
		s.answer(w, r, http.StatusOK, "replay-preview", replayPreview{DryRun: true, Plan: plan})
		return
	}

	moved, err := replay.Apply(r.Context(), s.Store, f, s.Clock.Now(), nil)
	if len(moved) > 0 {
		s.Log.Info("api: replayed messages", "count", len(moved), "first_msg_id", moved[0], "last_msg_id", moved[len(moved)-1],
			"class", req.Class, "ids", len(req.IDs))
	}
	if err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, store.ErrUnavailable) {
			status = http.StatusServiceUnavailable
		}
		s.serverError(w, r, status, fmt.Sprintf("replay interrupted after %d messages moved back to PENDING; preview and retry", len(moved)),
			"replay", err, "moved", len(moved))
		return
	}
	res := replayResult{Filter: f, Replayed: moved, Count: len(moved), NotReplayed: []int64{}}
	seen := make(map[int64]bool, len(moved))
	for _, id := range moved {
		seen[id] = true
	}
	for _, id := range req.IDs {
		if !seen[id] {
			seen[id] = true
			res.NotReplayed = append(res.NotReplayed, id)
		}
	}
	s.answer(w, r, http.StatusOK, "replay-result", res)
}

// getRaw is GET /admin/messages/{id}/raw: the message as it stands in the
// mailbox (application/xml; the console shows it escaped in a fragment).
func (s *server) getRaw(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "id")
	if !ok {
		return
	}
	if s.Mailbox == nil {
		writeError(w, http.StatusServiceUnavailable, "mailbox not configured")
		return
	}
	raws, err := s.Mailbox.ReadRaws(r.Context(), []int64{id})
	if err != nil {
		s.serverError(w, r, http.StatusServiceUnavailable, "mailbox unavailable", "read raw", err, "msg_id", id)
		return
	}
	raw, found := raws[id]
	if !found {
		writeError(w, http.StatusNotFound, "no mailbox row "+strconv.FormatInt(id, 10))
		return
	}
	if fromConsole(r) {
		s.answer(w, r, http.StatusOK, "raw-xml", string(raw))
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(raw)
}

// noMailbox stands for an unconfigured mailbox: the preview warns that it
// could not read what the messages concern.
type noMailbox struct{}

func (noMailbox) ReadRaws(context.Context, []int64) (map[int64][]byte, error) {
	return nil, errors.New("mailbox not configured")
}

// queue is GET /admin/queue: the status report (`msgx status` as JSON).
func (s *server) queue(w http.ResponseWriter, r *http.Request) {
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.storeError(w, r, "status", err)
		return
	}
	s.writeValue(w, r, "status", rep)
}

// statusReport is the status report with this instance's role (GET
// /admin/queue, the console's overview).
func (s *server) statusReport(ctx context.Context) (status.Report, error) {
	rep, err := status.Collect(ctx, s.Store, s.Clock.Now())
	if err != nil {
		return status.Report{}, err
	}
	if s.Mode != nil {
		role, shadow := s.Mode()
		rep.Role, rep.Shadow = &role, shadow
	}
	rep.Dependencies = s.Metrics.Dependencies()
	return rep, nil
}
