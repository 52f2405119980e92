package api_test

import (
	"context"
	"log/slog"
	"slices"
	"sync"
)

// logs keeps every record logged through its handler, with the attributes
// of the loggers derived from it (s.Log.With(...)).
type logs struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (l *logs) logger() *slog.Logger { return slog.New(captureHandler{l: l}) }

// named returns the records with message msg.
func (l *logs) named(msg string) []slog.Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []slog.Record
	for _, r := range l.recs {
		if r.Message == msg {
			out = append(out, r)
		}
	}
	return out
}

// attr is a record's attribute as text ("" when absent).
func attr(r slog.Record, key string) string {
	var v string
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == key {
			v = a.Value.String()
			return false
		}
		return true
	})
	return v
}

type captureHandler struct {
	l     *logs
	attrs []slog.Attr
}

func (captureHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h captureHandler) Handle(_ context.Context, r slog.Record) error {
	r = r.Clone()
	r.AddAttrs(h.attrs...)
	h.l.mu.Lock()
	h.l.recs = append(h.l.recs, r)
	h.l.mu.Unlock()
	return nil
}

func (h captureHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return captureHandler{l: h.l, attrs: append(slices.Clip(h.attrs), as...)}
}

func (h captureHandler) WithGroup(string) slog.Handler { return h }
