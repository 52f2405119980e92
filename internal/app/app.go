// Package app wires msgx's service: the ingress poller, the strict-FIFO pump,
// the backfill sweep and the HTTP API over msgx's own database (PostgreSQL or
// Oracle, opened by dbopen) and the shared mailbox, and shuts them down
// without cutting a business transaction.
package app

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/gctune"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sdnotify"
	"github.com/msgx-aodb/msgx/internal/service"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// Bounds of start and shutdown.
const (
	startupTimeout  = 20 * time.Second // every start check together
	stepTimeout     = 30 * time.Second // grace of the pump step in flight when shutdown begins
	shutdownTimeout = 10 * time.Second // HTTP requests in flight
)

// HTTP server timeouts: the API answers small requests; a send carries at
// most MaxMessageBytes.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second
)

// Options are the test seams of serve; the zero value is production.
type Options struct {
	// Listener serves HTTP instead of listening on cfg.HTTPAddr (tests pass
	// 127.0.0.1:0 and read the port from it).
	Listener net.Listener
	// StepTimeout is the grace of the pump step in flight at shutdown
	// (default 30 s); a step is never bounded before.
	StepTimeout time.Duration
	// MaintenanceStagger spreads the maintenance jobs' first checks after
	// the lead is taken (default maintenance.DefaultStagger).
	MaintenanceStagger time.Duration
	// Notifier tells systemd READY, STOPPING and the watchdog (Type=notify);
	// nil: the one systemd configured ($NOTIFY_SOCKET), if any.
	Notifier *sdnotify.Notifier
}

// Serve runs the service until ctx is cancelled, then shuts down gracefully
// and returns nil. A failed start check returns a one-line, actionable error.
func Serve(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	return serve(ctx, cfg, log, Options{})
}

// serve starts in this order: databases (a start check fails fast), Kafka
// (not in shadow mode), the HTTP server (health, metrics and the read API
// answer on a standby too), then the election: the workers run only while
// this instance leads. On ctx's end HTTP stops taking requests, the workers
// finish or roll back the step in flight, and the lock is released last.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, opt Options) error {
	if log == nil {
		log = slog.Default()
	}
	if opt.StepTimeout <= 0 {
		opt.StepTimeout = stepTimeout
	}
	gctune.Apply(cfg.GCPercent, cfg.MemoryLimit(), log)
	clk := clock.Real{}
	switch mode := respmatch.Mode(cfg.Request.Guard); {
	case mode == respmatch.ModeOff:
		log.Warn("request.guard=off: every SCHD/RESP and <LIST>/RESP is applied, asked for or not (a RESP prunes like a DNLD)")
	case mode == respmatch.ModeRequest && cfg.Shadow:
		log.Warn("shadow mode sends no requests, so with request.guard=request every RESP is SKIPPED no-match:request; request.guard=mailbox counts the live system's requests")
	}
	if cfg.Shadow {
		log = log.With("shadow", true)
		log.Warn("shadow mode: processing into msgx's PostgreSQL only; the mailbox is never written and nothing is produced to Kafka")
	}

	own, mbdb, err := connect(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer own.Close()
	defer mbdb.Close()
	st := own.Store
	mbOpts := []mailbox.Option{mailbox.WithZone(cfg.Location), mailbox.WithLogger(log)}
	if cfg.Shadow {
		mbOpts = append(mbOpts, mailbox.WithShadow())
	}
	mb := mailbox.New(mbdb, mbOpts...)
	sendMax, err := sendLimit(ctx, cfg, mb, log)
	if err != nil {
		return err
	}

	// The pump's pause (rule 14), shown by /readyz and /metrics; one for the
	// instance, handed to the pump of every lead term.
	pause := &pump.PauseState{}
	met := metrics.New(st, clk, metrics.WithLogger(log), metrics.WithPause(func() (string, bool) {
		p, ok := pause.Get()
		return p.Dependency, ok
	}))
	met.SetShadow(cfg.Shadow)

	var out *outbound // nil in shadow mode: nothing is produced
	if !cfg.Shadow {
		if out, err = startKafka(ctx, cfg, log); err != nil {
			return err
		}
		defer out.close()
	}

	// Rung by polls that enqueued, heard by the pump of every term; inserted
	// is rung by sends (their rows enter the queue through the poller, in id
	// order), heard by the poller of every term.
	enqueued, inserted := wake.New(), wake.New()
	// Requests to the AODB: one service for the admin API and the leader's triggers.
	reqs := requestService(cfg, st, mb, clk, log, met)

	// The leader's services, built afresh for every lead term.
	term := leaderTerm{cfg: cfg, st: st, mb: mb, out: out, clk: clk, log: log, met: met,
		enqueued: enqueued, inserted: inserted, pause: pause, reqs: reqs, opt: opt}
	el := leader.New(leader.Config{LockID: cfg.LeaderLockID, Retry: cfg.LeaderRetryInterval, Dial: own.Dial,
		Term: term.services}, clk, log)
	el.OnChange(func(r leader.Role) { met.SetLeader(r == leader.Leader) })

	ln := opt.Listener
	if ln == nil {
		if ln, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
			return fmt.Errorf("HTTP: listen on %s (http.addr / MSGX_HTTP_ADDR): %w", cfg.HTTPAddr, err)
		}
	}
	ready := readinessProbe(cfg, own.Check, mb, out, el, pause)
	met.ExportReadiness(ready)
	srv := &http.Server{
		Handler:           api.NewRouter(apiDeps(cfg, st, mb, sendMax, clk, log, met, el, ready, inserted, reqs)),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}

	// systemd (Type=notify): the role as the unit's status line, READY below.
	sd := opt.Notifier
	if sd == nil {
		sd = sdnotify.FromEnv()
	}
	sdStatus := func(r leader.Role) string { return "STATUS=" + string(r) + ", serving on " + ln.Addr().String() }
	el.OnChange(func(r leader.Role) { notify(sd, log, sdStatus(r)) })

	if cfg.SendToken == "" && !cfg.Shadow {
		// Only dev gets here: prod refuses to start without the token. Logged
		// before the server accepts a request, so it precedes every send.
		log.Warn("http.send-token (MSGX_HTTP_SEND_TOKEN) is not set: anyone who reaches " + ln.Addr().String() + " can send messages (POST /cminmsgs/send)")
	}
	// run ends on the signal or when HTTP fails; it stops the election.
	run, stop := context.WithCancel(ctx)
	defer stop()
	httpErr := make(chan error, 1)
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			httpErr <- err
			stop()
		}
		close(httpErr)
	}()
	// Every instance's services: the console's chart of the last hour and
	// the election, which runs the leader's services while it leads.
	elected := make(chan struct{})
	go func() {
		defer close(elected)
		if err := service.NewGroup("msgx", log, met.Sampler(st, clk, log), el).Run(run); err != nil {
			stop()
		}
	}()
	log.Info("msgx serving", "http_addr", ln.Addr().String(), "env", cfg.Env, "shadow", cfg.Shadow,
		"poll_interval", cfg.PollInterval.String(), "leader_lock_id", cfg.LeaderLockID)
	notify(sd, log, sdnotify.Ready, sdStatus(el.Role()))
	go sd.RunWatchdog(run, clk, func(err error) { log.Warn("systemd watchdog: notify failed", "err", err) })

	<-run.Done()
	notify(sd, log, sdnotify.Stopping)
	var runErr error
	select {
	case err, ok := <-httpErr:
		if ok && err != nil {
			runErr = fmt.Errorf("HTTP server: %w", err)
			log.Error("shutdown: HTTP server failed", "err", err)
		}
	default:
		log.Info("shutdown: signal received, stopping")
	}

	// Stop taking new work first: no new sends while the workers wind down.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	if err := srv.Shutdown(hctx); err != nil {
		log.Warn("shutdown: HTTP requests still running after the bound, closed", "err", err)
		_ = srv.Close()
	}
	cancel()
	<-elected // the pump has committed or rolled back its step; the lock is released; history stopped
	log.Info("shutdown: complete")
	return runErr
}

// notify tells systemd a state; a failure is logged, never fatal (systemd
// judges a missing READY by its own timeout).
func notify(sd *sdnotify.Notifier, log *slog.Logger, states ...string) {
	if err := sd.Notify(states...); err != nil {
		log.Warn("systemd notify failed", "state", states[0], "err", err)
	}
}

// requestService is the request service of the configuration.
func requestService(cfg config.Config, st store.Store, mb *mailbox.Mailbox, clk clock.Clock, log *slog.Logger, met *metrics.Metrics) *aodbrequest.Service {
	return aodbrequest.New(st, mb, clk, log, RequestConfig(cfg), met)
}

var (
	_ aodbrequest.Observer = (*metrics.Metrics)(nil)
	_ pump.RequestObserver = (*metrics.Metrics)(nil)
)

// pollerConfig maps the service configuration onto the poller's.
func pollerConfig(cfg config.Config, enqueued, inserted *wake.Signal, met *metrics.Metrics) ingress.Config {
	return ingress.Config{
		Batch: cfg.PollBatch, RescanDistance: cfg.RescanDistance, RescanAge: cfg.RescanAge, GapWait: cfg.GapWait,
		Enqueued: enqueued, Inserted: inserted, Shadow: cfg.Shadow, Observer: met, Interval: cfg.PollInterval,
		StoreName: dbopen.Name(cfg.Dialect),
	}
}

var (
	_ ingress.Observer           = (*metrics.Metrics)(nil)
	_ pump.IdentityObserver      = (*metrics.Metrics)(nil)
	_ ingress.DependencyObserver = (*metrics.Metrics)(nil)
)

// pumpConfig maps the service configuration onto the pump's.
func pumpConfig(cfg config.Config) pump.Config {
	p := pump.DefaultConfig()
	p.StoreName = dbopen.Name(cfg.Dialect)
	p.MaxAttempts = cfg.MaxAttempts
	p.BackoffBase = cfg.BackoffBase
	p.BackoffCap = cfg.BackoffCap
	p.HeadDeadline = cfg.HeadDeadline
	p.RunLength = cfg.RunLength
	p.RunBytes = cfg.RunBytes
	p.Prune = cfg.SnapshotPrune
	p.CheckTimeout = checkTimeout // its outage probe is bounded as a readiness check is
	// An idle pump wakes when the poller enqueued (a send too, through the
	// poller); it also looks
	// for work as often as the poller brings it (e.g. a replay's rows).
	p.Idle = min(p.Idle, cfg.PollInterval)
	p.Decode = decodeOptions(cfg)
	p.Shadow = cfg.Shadow
	p.MaxRecordBytes = int(cfg.Kafka.MaxRecordBytes)
	p.EventBytes = kafka.EventBytes // the relay's record, sized before it is written
	return p
}

// decodeOptions are the codec options of the configuration (the pump's, and
// the replay preview's in the API).
func decodeOptions(cfg config.Config) sis.Options {
	d := sis.DefaultOptions()
	d.Location = cfg.Location
	d.MaxSize = cfg.MaxMessageBytes
	d.IgnoreTypes = append([]string{}, cfg.IgnoreTypes...) // non-nil: an empty list ignores nothing
	d.IncludeDayBoundary = cfg.IncludeDayBoundary
	return d
}

// connect opens and checks both databases. Every error is one line that
// says what to do.
func connect(ctx context.Context, cfg config.Config, log *slog.Logger) (*dbopen.DB, *sql.DB, error) {
	ctx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	own, err := dbopen.Open(ctx, cfg, dbopen.Options{Leader: true, Log: log})
	if err != nil {
		return nil, nil, err
	}
	if err := checkSchema(ctx, own); err != nil {
		own.Close()
		return nil, nil, err
	}
	db, err := mailbox.Open(ctx, cfg.MailboxDSN)
	if err == nil {
		err = mailbox.New(db).Ping(ctx)
		if err != nil {
			db.Close()
		}
	}
	if err != nil {
		own.Close()
		return nil, nil, fmt.Errorf("mailbox unreachable (check MSGX_MAILBOX_DSN): %s", oneline.Err(err))
	}
	return own, db, nil
}

// checkSchema reads the queue head and the watermark: cheap, and it fails
// when msgx's tables are missing or older than this build (store.ErrSchema,
// whichever the dialect). `msgx schema migrate` takes the dialect from the
// same configuration.
func checkSchema(ctx context.Context, own *dbopen.DB) error {
	_, err := own.Store.QueueHead(ctx, 1)
	if err == nil {
		_, err = own.Store.IngressMark(ctx, ingress.DefaultConfig().Source)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrSchema):
		return fmt.Errorf("%s: msgx's schema is missing or outdated (%s); run: msgx schema migrate --yes (docs/upgrade.md; a development database: msgx schema apply --yes)", own.Product, oneline.Err(err))
	default:
		return fmt.Errorf("%s: checking the schema: %s", own.Product, oneline.Err(err))
	}
}
