package main

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// depCheckTimeout bounds each of status's own dependency checks, as /readyz
// bounds its checks.
const depCheckTimeout = 2 * time.Second

// statusDependencies is `msgx status`'s own attempt on each dependency
// (rule 20): another process's attempts are not known here. msgx's own
// database answered already (the report was read from it); the mailbox is
// pinged; Kafka only where brokers are configured and not in shadow mode
// (the embedded broker of dev lives inside msgx serve).
func statusDependencies(ctx context.Context, cfg config.Config) map[string]bool {
	deps := map[string]bool{dbopen.Name(cfg.Dialect): true}
	deps[vocab.DependencyMailbox] = reachable(ctx, func(ctx context.Context) error {
		_, db, err := openMailbox(ctx, cfg)
		if err != nil {
			return err
		}
		defer db.Close()
		return db.PingContext(ctx)
	})
	kc := app.KafkaConfig(cfg)
	if len(kc.Brokers) > 0 && !cfg.Shadow {
		deps[vocab.DependencyKafka] = reachable(ctx, func(ctx context.Context) error {
			cl, err := kafka.NewClient(kc)
			if err != nil {
				return err
			}
			defer cl.Close()
			return cl.Ping(ctx)
		})
	}
	return deps
}

// reachable runs one check within depCheckTimeout.
func reachable(ctx context.Context, check func(context.Context) error) bool {
	ctx, cancel := context.WithTimeout(ctx, depCheckTimeout)
	defer cancel()
	return check(ctx) == nil
}
