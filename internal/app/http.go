package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/pipeline"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

// checkTimeout bounds each readiness check.
const checkTimeout = 2 * time.Second

// readiness is /readyz: PostgreSQL, the mailbox and (unless in shadow mode)
// Kafka really answer, plus this instance's role.
func readiness(cfg config.Config, pool *pgxpool.Pool, mb *mailbox.Mailbox, out *outbound, el *leader.Elector) func(context.Context) status.Readiness {
	checks := []status.Check{
		{Name: "postgres", Run: pool.Ping},
		{Name: "mailbox", Run: mb.Ping},
	}
	if out != nil {
		checks = append(checks, status.Check{Name: "kafka", Run: out.ping})
	}
	return status.Prober(modeOf(cfg, el), checkTimeout, checks...)
}

// modeOf reports the instance's role and whether it runs in shadow mode.
func modeOf(cfg config.Config, el *leader.Elector) status.Mode {
	return func() (string, bool) { return string(el.Role()), cfg.Shadow }
}

func apiDeps(cfg config.Config, st store.Store, mb *mailbox.Mailbox, clk clock.Clock, log *slog.Logger,
	met *metrics.Metrics, el *leader.Elector, ready func(context.Context) status.Readiness, bell *pipeline.Bell) api.Deps {
	return api.Deps{
		Store: st, Mailbox: mb, Clock: clk, Log: log,
		MaxBodyBytes: int64(cfg.MaxMessageBytes),
		MaxJSONBytes: int64(cfg.MaxJSONBytes),
		AdminToken:   cfg.AdminToken,
		Decode:       decodeOptions(cfg),
		Ready:        ready,
		Mode:         modeOf(cfg, el),
		Metrics:      met,
		Enqueued:     bell.Ring,
		Requests:     requestService(cfg, st, mb, clk, log, met),
	}
}
