// Package service is the one shape of msgx's long-running loops (poller,
// pump, backfill, relay, request triggers, maintenance, history, the leader
// elector) and the Group that starts, stops and reports them together.
package service

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
)

// Service is one long-running loop. Everything it needs (interval, clock,
// logger) is given at construction; Run works until ctx ends and then
// returns nil. A non-nil error is a failure that ends its group. Returning
// nil early is allowed (nothing to do, e.g. triggers in shadow mode): the
// others go on.
type Service interface {
	Name() string
	Run(ctx context.Context) error
}

// Func is a Service made of a name and a run function.
func Func(name string, run func(ctx context.Context) error) Service {
	return funcService{name: name, run: run}
}

type funcService struct {
	name string
	run  func(ctx context.Context) error
}

func (f funcService) Name() string                  { return f.name }
func (f funcService) Run(ctx context.Context) error { return f.run(ctx) }

// Group runs services together: all start at once; the first failure (or
// ctx's end) stops them all; Run returns when every one has returned. Each
// exit is logged the same way, with the service's name.
type Group struct {
	name     string
	log      *slog.Logger
	services []Service
}

// NewGroup is a group named name of the services (nil ones are skipped).
func NewGroup(name string, log *slog.Logger, services ...Service) *Group {
	if log == nil {
		log = slog.Default()
	}
	g := &Group{name: name, log: log}
	for _, s := range services {
		if s != nil {
			g.services = append(g.services, s)
		}
	}
	return g
}

// Name is the group's name.
func (g *Group) Name() string { return g.name }

// Services are the group's services, in start order.
func (g *Group) Services() []Service { return append([]Service(nil), g.services...) }

// Run starts every service and waits for all of them. It returns the first
// failure, wrapped with the failed service's name (nil when all ended
// without one); the failure cancels the others' context.
func (g *Group) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for _, s := range g.services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Run(ctx)
			if err == nil {
				g.log.Debug("service stopped", "group", g.name, "service", s.Name())
				return
			}
			err = fmt.Errorf("%s: %w", s.Name(), err)
			if ctx.Err() == nil {
				g.log.Error("service failed, stopping its group", "group", g.name, "service", s.Name(), "err", err)
			} else {
				g.log.Warn("service stopped with an error", "group", g.name, "service", s.Name(), "err", err)
			}
			once.Do(func() { first = err; cancel() })
		}()
	}
	wg.Wait()
	return first
}
