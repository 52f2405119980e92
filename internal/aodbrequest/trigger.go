package aodbrequest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// ParseDailyAt reads request.daily-at: HH:MM, or "" (off).
func ParseDailyAt(s string) (hour, minute int, on bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, false, nil
	}
	h, m, ok := strings.Cut(s, ":")
	hour, e1 := strconv.Atoi(h)
	minute, e2 := strconv.Atoi(m)
	if !ok || e1 != nil || e2 != nil || len(h) != 2 || len(m) != 2 || hour > 23 || minute > 59 || hour < 0 || minute < 0 {
		return 0, 0, false, fmt.Errorf("%q is not HH:MM (00:00–23:59) or empty", s)
	}
	return hour, minute, true, nil
}

// NextDaily is the next local wall time hour:minute strictly after now, by
// the calendar (a DST day is 23 or 25 hours long, never +24 h). Pure.
func NextDaily(now time.Time, hour, minute int, loc *time.Location) time.Time {
	l := now.In(loc)
	next := time.Date(l.Year(), l.Month(), l.Day(), hour, minute, 0, 0, loc)
	if !next.After(now) {
		next = time.Date(l.Year(), l.Month(), l.Day()+1, hour, minute, 0, 0, loc)
	}
	return next
}

// Triggers is the leader's automatic requests as a service (Service.Triggers).
type Triggers struct{ s *Service }

// Triggers is the service of the automatic requests, one per lead term.
func (s *Service) Triggers() *Triggers { return &Triggers{s: s} }

// Name is the triggers' name as a service.
func (t *Triggers) Name() string { return "request-triggers" }

// Run is runTriggers; it returns nil (failures are logged and retried).
func (t *Triggers) Run(ctx context.Context) error {
	t.s.runTriggers(ctx)
	return nil
}

// runTriggers is the leader's automatic requests: at start, today's flights
// when today's FDAY has no generation (request.on-start); then daily at
// request.daily-at, the next day's flights. Neither registers anything while
// a flight request is open or was answered within request.timeout, so a
// leader restarting many times sends one request and never supersedes an
// operator's (ErrHeld). It returns when ctx ends.
func (s *Service) runTriggers(ctx context.Context) {
	if s.cfg.Shadow {
		return
	}
	if s.cfg.OnStart {
		if err := s.OnStart(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("request at leader start failed", "err", err)
		}
	}
	hour, minute, on, err := ParseDailyAt(s.cfg.DailyAt)
	if err != nil || !on {
		return
	}
	for {
		now := s.clk.Now()
		next := NextDaily(now, hour, minute, s.cfg.Location)
		select {
		case <-ctx.Done():
			return
		case <-s.clk.After(next.Sub(now)):
		}
		l := next.In(s.cfg.Location)
		from, to := DayRange(time.Date(l.Year(), l.Month(), l.Day()+1, 12, 0, 0, 0, s.cfg.Location), s.cfg.Location)
		if req, err := s.flights(ctx, from, to, vocab.OriginDaily); errors.Is(err, ErrHeld) {
			s.log.Info("daily request not registered", "day", from.Format(time.DateOnly), "why", err)
		} else if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.log.Warn("daily request failed", "day", from.Format(time.DateOnly), "err", err)
		} else {
			s.log.Info("daily request", "req_id", req.ID, "day", from.Format(time.DateOnly))
		}
	}
}

// OnStart requests today's flights when today's FDAY has no generation yet
// and no flight request holds the trigger (ErrHeld: logged, not an error).
func (s *Service) OnStart(ctx context.Context) error {
	from, to := DayRange(s.clk.Now(), s.cfg.Location)
	_, err := s.st.SnapshotGen(ctx, flight.LocalDay(from))
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	req, err := s.flights(ctx, from, to, vocab.OriginOnStart)
	if errors.Is(err, ErrHeld) {
		s.log.Info("no request at leader start: today has no generation, but another flight request holds the trigger", "why", err)
		return nil
	}
	if err != nil {
		return err
	}
	s.log.Info("requested today's flights at leader start: the day has no generation", "req_id", req.ID, "day", from.Format(time.DateOnly))
	return nil
}
