package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// checkTimeout bounds each readiness check.
const checkTimeout = 2 * time.Second

// readinessProbe is /readyz: msgx's database (own: "postgres" or "oracle"), the
// mailbox and (unless in shadow mode) Kafka really answer, plus this
// instance's role.
func readinessProbe(cfg config.Config, own readiness.Check, mb *mailbox.Mailbox, out *outbound, el *leader.Elector, pause *pump.PauseState) func(context.Context) readiness.Readiness {
	checks := []readiness.Check{
		own,
		{Name: "mailbox", Run: mb.Ping},
		{Name: "pump", Run: func(context.Context) error {
			if p, ok := pause.Get(); ok {
				return fmt.Errorf("paused: %s: %s (since %s)", p.Dependency, p.Reason, p.Since.UTC().Format(time.RFC3339))
			}
			return nil
		}},
	}
	if out != nil {
		checks = append(checks, readiness.Check{Name: "kafka", Run: out.ping})
	}
	return readiness.Prober(modeOf(cfg, el), checkTimeout, checks...)
}

// modeOf reports the instance's role and whether it runs in shadow mode.
func modeOf(cfg config.Config, el *leader.Elector) readiness.Mode {
	return func() (string, bool) { return string(el.Role()), cfg.Shadow }
}

// sendLimit is the body limit of POST /cminmsgs/send: limits.max-message-bytes,
// lowered to what the mailbox server takes in one INSERT (api.SendLimit).
// Logged, so an operator sees which of the two bounds.
func sendLimit(ctx context.Context, cfg config.Config, mb *mailbox.Mailbox, log *slog.Logger) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	limit, err := api.SendLimit(ctx, mb, int64(cfg.MaxMessageBytes))
	if err != nil {
		return 0, fmt.Errorf("mailbox: cannot read max_allowed_packet (check MSGX_MAILBOX_DSN): %s", oneline.Err(err))
	}
	log.Info("send body limit", "bytes", limit, "limits.max-message-bytes", cfg.MaxMessageBytes,
		"lowered_by_mailbox_max_allowed_packet", limit < int64(cfg.MaxMessageBytes))
	return limit, nil
}

func apiDeps(cfg config.Config, st store.Store, mb *mailbox.Mailbox, sendMax int64, clk clock.Clock, log *slog.Logger,
	met *metrics.Metrics, el *leader.Elector, ready func(context.Context) readiness.Readiness, inserted *wake.Signal, reqs *aodbrequest.Service) api.Deps {
	return api.Deps{
		Store: st, Mailbox: mb, Clock: clk, Log: log,
		MaxBodyBytes:       sendMax,
		MaxConcurrentSends: cfg.MaxConcurrentSends,
		MaxJSONBytes:       int64(cfg.MaxJSONBytes),
		AdminToken:         cfg.AdminToken,
		SendToken:          cfg.SendToken,
		Decode:             decodeOptions(cfg),
		Ready:              ready,
		Mode:               modeOf(cfg, el),
		Metrics:            met,
		Inserted:           inserted.Ring,
		Requests:           reqs,
	}
}
