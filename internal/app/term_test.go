package app

import (
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/kafka"
)

// A lead term runs every leader service; shadow mode has no relay (nothing
// is produced) and no backfill (the mailbox is never written).
func TestLeaderTermServices(t *testing.T) {
	t.Parallel()
	names := func(cfg config.Config, out *outbound) []string {
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		clk := clock.Real{}
		term := leaderTerm{cfg: cfg, out: out, clk: clk, log: log, reqs: requestService(cfg, nil, nil, clk, log, nil)}
		var ns []string
		for _, s := range term.services() {
			ns = append(ns, s.Name())
		}
		return ns
	}
	cfg := config.Defaults()
	require.Equal(t, []string{"backfill", "relay-msg", "relay-schd", "request-triggers", "poller", "pump", "maintenance"},
		names(cfg, &outbound{cfg: kafka.DefaultConfig()}))
	cfg.Shadow = true
	require.Equal(t, []string{"request-triggers", "poller", "pump", "maintenance"}, names(cfg, nil))
}
