package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// field is one configuration key: its YAML path, its environment variable,
// its default (as text, parsed like any other value) and its documentation.
type field struct {
	key, env, def, doc string
	section            string
	set                func(c *Config, v string) error
	get                func(c *Config) string
}

// name is how errors name the field: both spellings an operator may have used.
func (f *field) name() string { return f.key + " (" + f.env + ")" }

// fields is the one table of the configuration. Order is documentation order.
var fields = []field{
	// service
	oneOf("service", "env", "MSGX_ENV", "dev", "`dev` or `prod`. `prod` refuses every development convenience: default database URLs, the embedded Kafka, a missing admin or send token, weakened Kafka settings.", []string{"dev", "prod"}, func(c *Config) *string { return &c.Env }),
	boolean("service", "shadow", "MSGX_SHADOW", "false", "Shadow mode, to run beside the system that owns the mailbox: msgx reads every mailbox row (processed by the other system or not) into its own PostgreSQL, but never writes the mailbox (no backfill, `POST /cminmsgs/send` answers 409), writes no outbox events and never connects to Kafka — state built in shadow mode is not announced when shadow mode ends. Shown in logs, `/readyz`, `msgx status` and the `msgx_shadow` metric.", func(c *Config) *bool { return &c.Shadow }),
	oneOf("service", "log.level", "MSGX_LOG_LEVEL", "info", "`debug`, `info`, `warn` or `error`. Message bodies are logged at debug only.", []string{"debug", "info", "warn", "error"}, func(c *Config) *string { return &c.LogLevel }),
	positive("service", "gc.percent", "MSGX_GC_PERCENT", "100", "Go garbage-collector target of `msgx serve` (as `GOGC`): the heap may grow this many percent above its live data before a collection. Draining ordinary messages the resident set peaks near 110 MB at 100, 130 MB at 150, 130–140 MB at 200, 160–170 MB at 300 and 230–245 MB at 400 (`BenchmarkTenantCPU`, docs/dev/performance-notes.md); a larger value buys little CPU for that memory (150: msgx 0.96× per FLOP message, before msgx allocated a quarter less; the collector now takes 6–7 µs of a message's ≈ 40). A `GOGC` environment variable takes precedence. `gc.memory-limit` caps the heap when messages are large.", func(c *Config) *int { return &c.GCPercent }),
	nonNegative64("service", "gc.memory-limit", "MSGX_GC_MEMORY_LIMIT", "0", "Soft memory limit of `msgx serve` in bytes (as `GOMEMLIMIT`): near it the garbage collector runs as often as it must, whatever `gc.percent`, and returns freed memory to the OS. `0` derives it from `pipeline.run-bytes`: 4 × run-bytes + 64 MiB (320 MiB by default), room for a run and a read-ahead of large messages, for what the largest message costs while it is applied (a 38 000-flight download: about 230 MB live) and for collecting; the resident set peaks some 20–30 MB above it. Soft: live data above it is kept and the collector runs more often (the runtime caps it near half the CPU), so a too-small limit costs CPU, never messages. A `GOMEMLIMIT` environment variable takes precedence.", func(c *Config) *int64 { return &c.GCMemoryLimit }),
	str("service", "airport.timezone", "MSGX_AIRPORT_TZ", "Asia/Shanghai", "Airport time zone (IANA) of every SIS time and of operation days.", func(c *Config) *string { return &c.AirportTZ }),

	// databases
	oneOf("databases", "database.dialect", "MSGX_DATABASE_DIALECT", "postgres", "msgx's own database: `postgres` (`postgres.url`) or `oracle11g` (`oracle.dsn`, Oracle 11g Release 2 or later through godror; needs the Oracle client libraries at run time, see docs/oracle.md).", []string{DialectPostgres, DialectOracle11g}, func(c *Config) *string { return &c.Dialect }),
	str("databases", "oracle.dsn", "MSGX_ORACLE_DSN", "", "msgx's own Oracle schema when `database.dialect` is `oracle11g` (godror DSN, e.g. `user/password@dbhost:1521/service`). Required then.", func(c *Config) *string { return &c.OracleDSN }),
	str("databases", "postgres.url", "MSGX_PG_URL", "postgres://postgres@127.0.0.1:5432/msgx?sslmode=disable", "msgx's own PostgreSQL (pgx URL, `postgres://` or `postgresql://`, checked before connecting; the pool holds 10 connections unless `pool_max_conns` says otherwise). Must be set explicitly in prod.", func(c *Config) *string { return &c.PGURL }),
	str("databases", "mailbox.dsn", "MSGX_MAILBOX_DSN", "root@tcp(127.0.0.1:3306)/msgx_mailbox?parseTime=true", "The shared AODB mailbox (go-sql-driver/mysql DSN); msgx forces `parseTime=true` and `loc=UTC` and converts DATETIME columns in the airport zone itself; it sets `interpolateParams=true` unless the DSN sets it (one command per statement on the AODB's server instead of prepare, execute and close; the driver escapes for the server's NO_BACKSLASH_ESCAPES and refuses the charsets where escaping is unsafe, BIG5, CP932, GB18030, GBK, SJIS, with which msgx keeps server-side statements; docs/dev/performance-notes.md). Must be set explicitly in prod.", func(c *Config) *string { return &c.MailboxDSN }),

	// HTTP
	str("http", "http.addr", "MSGX_HTTP_ADDR", "127.0.0.1:8080", "HTTP listen address of the API, health and metrics: `host:port` (`:8080` for every interface), checked before anything starts.", func(c *Config) *string { return &c.HTTPAddr }),
	str("http", "http.admin-token", "MSGX_ADMIN_TOKEN", "", "Bearer token of `/admin/*` (at least 16 characters; compared in constant time). Empty disables the admin API; required in prod.", func(c *Config) *string { return &c.AdminToken }),
	str("http", "http.send-token", "MSGX_HTTP_SEND_TOKEN", "", "Bearer token of `POST /cminmsgs/send` (at least 32 characters; compared in constant time); `msgx send` sends it. Required in prod; empty in dev lets anyone who reaches the API send, with a warning at start.", func(c *Config) *string { return &c.SendToken }),
	positive("http", "http.max-concurrent-sends", "MSGX_HTTP_MAX_CONCURRENT_SENDS", "4", "`POST /cminmsgs/send` requests handled at once (each holds its body, up to `limits.max-message-bytes`, while it is written to the mailbox); one more is answered 503 with `Retry-After: 1` before its body is read.", func(c *Config) *int { return &c.MaxConcurrentSends }),
	positive("http", "http.max-json-bytes", "MSGX_HTTP_MAX_JSON_BYTES", "65536", "Body limit of the JSON routes (413 above).", func(c *Config) *int { return &c.MaxJSONBytes }),

	// pipeline
	dur("pipeline", "pipeline.poll-interval", "MSGX_POLL_INTERVAL", "1s", "Mailbox poll interval (a full batch polls again at once).", func(c *Config) *time.Duration { return &c.PollInterval }),
	positive("pipeline", "pipeline.poll-batch", "MSGX_POLL_BATCH", "500", "Mailbox rows read per poll (and per page of the rescan behind the watermark): each poll lists them and rescans its window, so fewer, larger polls cost the AODB's database less.", func(c *Config) *int { return &c.PollBatch }),
	nonNegative64("pipeline", "pipeline.rescan-distance", "MSGX_RESCAN_DISTANCE", "1000", "Rescan behind the watermark by this many ids, for rows committed late with a smaller id.", func(c *Config) *int64 { return &c.RescanDistance }),
	dur("pipeline", "pipeline.rescan-age", "MSGX_RESCAN_AGE", "10m", "… and by this age.", func(c *Config) *time.Duration { return &c.RescanAge }),
	dur("pipeline", "pipeline.gap-wait", "MSGX_GAP_WAIT", "3s", "How long a hole in the mailbox ids (an id no row has while a larger one is visible: a row not committed yet, or rolled back) holds the ids after it, from when it was first seen, so they enter the queue in id order. When it runs out the hole is given up as a gap (`msgx_ingress_gaps_total`) and the ids after it are enqueued; a row that commits in it later is a late row. Without a hole nothing waits.", func(c *Config) *time.Duration { return &c.GapWait }),
	dur("pipeline", "pipeline.reconcile-interval", "MSGX_RECONCILE_INTERVAL", "5m", "How often the leader's reconciliation pass (`msgx maintenance run reconcile`) pages every unprocessed mailbox row up to the watermark, at any age, and enqueues those the queue does not hold (late rows: `msgx_ingress_late_rows_total`). Does nothing in shadow mode.", func(c *Config) *time.Duration { return &c.ReconcileInterval }),
	positive("pipeline", "pipeline.max-attempts", "MSGX_MAX_ATTEMPTS", "5", "Attempts of a failing head before DEAD(EXHAUSTED).", func(c *Config) *int { return &c.MaxAttempts }),
	dur("pipeline", "pipeline.backoff-base", "MSGX_BACKOFF_BASE", "1s", "First retry delay of a failing head; doubles per attempt (1, 2, 4, 8, 16 s).", func(c *Config) *time.Duration { return &c.BackoffBase }),
	dur("pipeline", "pipeline.backoff-cap", "MSGX_BACKOFF_CAP", "1m", "Cap of each retry delay.", func(c *Config) *time.Duration { return &c.BackoffCap }),
	dur("pipeline", "pipeline.head-deadline", "MSGX_HEAD_DEADLINE", "10m", "A head failing for this long, counted from its first counted failure (reset by a replay), becomes DEAD(EXHAUSTED).", func(c *Config) *time.Duration { return &c.HeadDeadline }),
	positive("pipeline", "pipeline.run-length", "MSGX_RUN_LENGTH", "1000", "Most consecutive head messages committed together (fewer when fewer are queued: no waiting for a run to fill, or when `pipeline.run-bytes` cuts the run first). Each message stays all-or-nothing: a run that fails is retried one message per savepoint, so the failure lands on the message that caused it. 1000 measured faster than 500 and 2000 (`make bench`).", func(c *Config) *int { return &c.RunLength }),
	positive("pipeline", "pipeline.run-bytes", "MSGX_RUN_BYTES", "67108864", "Most a run reads and holds (64 MiB), each message counted at its raw XML bytes or, when larger, at what it holds decoded (a 15 MiB FLOP of 300 000 two-value records holds about 80 MB): a run ends at `pipeline.run-length` messages or at this size, whichever comes first, but always takes its head message whatever its size. The read-ahead of the next run keeps to it too. It bounds the pump's memory by what messages hold, not their count: with the defaults any mix of messages peaks under 400 MB resident (`BenchmarkHostileMemory`). Each MiB more lets a run and its read-ahead hold up to 2 MiB more, and raises the derived `gc.memory-limit` by 4 MiB; less makes runs of large messages shorter, not fewer messages possible. A step that read a quarter of it returns the freed memory to the OS when done.", func(c *Config) *int { return &c.RunBytes }),
	dur("pipeline", "pipeline.backfill-interval", "MSGX_BACKFILL_INTERVAL", "30s", "Mailbox backfill sweep interval (failed backfills back off 30 s → 15 min).", func(c *Config) *time.Duration { return &c.BackfillInterval }),
	list("pipeline", "pipeline.ignore-types", "MSGX_IGNORE_TYPES", "LDM,REGN,RSTA,EROR", "Message TYPEs that are SKIPPED `ignored:<TYPE>` (comma list, or a YAML list).", func(c *Config) *[]string { return &c.IgnoreTypes }),
	boolean("pipeline", "snapshot.prune", "MSGX_SNAPSHOT_PRUNE", "true", "A DNLD/RESP deletes the previous-generation members of its day that it no longer lists.", func(c *Config) *bool { return &c.SnapshotPrune }),
	positive("pipeline", "limits.max-message-bytes", "MSGX_MAX_MESSAGE_BYTES", "16777216", "Largest message accepted (codec and `POST /cminmsgs/send`). For the send route an upper bound: at start msgx lowers it to the largest body the mailbox server takes in one INSERT (its `max_allowed_packet` less 1 KiB) and logs the limit in effect.", func(c *Config) *int { return &c.MaxMessageBytes }),
	boolean("pipeline", "identity.include-day-boundary", "MSGX_IDENTITY_INCLUDE_DAY_BOUNDARY", "false", "**Not a tuning knob**: appends DTTM's date to the identity key, which changes what counts as a duplicate. Decide once per site, before the first message.", func(c *Config) *bool { return &c.IncludeDayBoundary }),

	// requests to the AODB
	oneOf("requests", "request.guard", "MSGX_REQUEST_GUARD", "request", "Which `SCHD/RESP` and `<LIST>/RESP` apply (docs/requests.md): `request` — only one answering the open SENT request of its kind in REQ_TRACK (others are SKIPPED `no-match:request`); `mailbox` — read-only, for a shadow beside the live system: an RQFD/RQRD row in `coutmsgs` inserted before the RESP's DTTM (within `request.timeout`) counts; `off` — every RESP applies like a DNLD (the old behaviour; warned at start).", []string{"request", "mailbox", "off"}, func(c *Config) *string { return &c.Request.Guard }),
	dur("requests", "request.timeout", "MSGX_REQUEST_TIMEOUT", "10m", "A SENT request not answered by sent_at + this becomes EXPIRED (checked every 30 s on the leader); a later RESP is SKIPPED.", func(c *Config) *time.Duration { return &c.Request.Timeout }),
	boolean("requests", "request.on-start", "MSGX_REQUEST_ON_START", "true", "When an instance becomes leader and today's FDAY (airport time) has no generation, request today's flights (RQFD 00:00–23:59) — unless a flight request is open or was answered within `request.timeout` (a restarting leader sends one; an operator's request is never superseded). Never in shadow mode.", func(c *Config) *bool { return &c.Request.OnStart }),
	str("requests", "request.daily-at", "MSGX_REQUEST_DAILY_AT", "22:00", "Airport time `HH:MM` at which the leader requests the next day's flights every day, unless a flight request is open or was answered within `request.timeout`; empty = off. Never in shadow mode.", func(c *Config) *string { return &c.Request.DailyAt }),
	str("requests", "request.routing-id", "MSGX_REQUEST_ROUTING_ID", "AODB", "`ROUTINGID` of the request rows msgx writes to `coutmsgs` (at most 23 characters).", func(c *Config) *string { return &c.Request.RoutingID }),
	positive("requests", "request.max-days", "MSGX_REQUEST_MAX_DAYS", "7", "Most operation days (airport calendar days, both ends counted) one flights request (RQFD) may span; a longer one is refused before anything is registered (`msgx request flights` exits 2, `POST /admin/requests` answers 400). The AODB answers a request with one RESP of every flight in the range, applied in one transaction.", func(c *Config) *int { return &c.Request.MaxDays }),
	str("requests", "request.sender", "MSGX_REQUEST_SENDER", "MSGX", "META `SNDR` of msgx's requests (letters and digits, at most 32). SEQN comes from msgx's own sequence (table `req_seqn`, 1 to 8388607, cycling); SNDR + SEQN find a request's `coutmsgs` row again after a crash.", func(c *Config) *string { return &c.Request.Sender }),

	// single active instance
	int64Field("leader", "leader.lock-id", "MSGX_LEADER_LOCK_ID", "7166317496771264632", "PostgreSQL advisory lock key held by the active instance; instances sharing a database must share it.", func(c *Config) *int64 { return &c.LeaderLockID }),
	dur("leader", "leader.retry-interval", "MSGX_LEADER_RETRY_INTERVAL", "2s", "How often the leader checks its lock connection, and the longest single lock wait of a standby before it waits again (a waiting standby takes the lock the moment the leader's session ends).", func(c *Config) *time.Duration { return &c.LeaderRetryInterval }),

	// Kafka
	list("kafka", "kafka.brokers", "MSGX_KAFKA_BROKERS", "", "Seed brokers (comma list). Empty in dev: `msgx serve` starts an embedded broker and logs its address; refused in prod.", func(c *Config) *[]string { return &c.Kafka.Brokers }),
	str("kafka", "kafka.client-id", "MSGX_KAFKA_CLIENT_ID", "msgx", "Kafka client id.", func(c *Config) *string { return &c.Kafka.ClientID }),
	str("kafka", "kafka.topic-msg", "MSGX_KAFKA_TOPIC_MSG", "msgx.flight.msg", "Topic of every change (`KAFKA:msg`); must exist.", func(c *Config) *string { return &c.Kafka.TopicMsg }),
	str("kafka", "kafka.topic-schd", "MSGX_KAFKA_TOPIC_SCHD", "msgx.flight.schd", "Topic of the latest state per flight (`KAFKA:schd`); must exist.", func(c *Config) *string { return &c.Kafka.TopicSchd }),
	str("kafka", "kafka.acks", "MSGX_KAFKA_ACKS", "all", "Must be `all`; anything else is refused.", func(c *Config) *string { return &c.Kafka.Acks }),
	boolean("kafka", "kafka.idempotence", "MSGX_KAFKA_IDEMPOTENCE", "true", "Must be `true`; `false` is refused.", func(c *Config) *bool { return &c.Kafka.Idempotence }),
	positive("kafka", "kafka.max-in-flight", "MSGX_KAFKA_MAX_IN_FLIGHT", "5", "Produce requests in flight per broker, 1..5 (more breaks ordering).", func(c *Config) *int { return &c.Kafka.MaxInFlight }),
	dur("kafka", "kafka.produce-timeout", "MSGX_KAFKA_PRODUCE_TIMEOUT", "10s", "Bound of one produce call, retries included.", func(c *Config) *time.Duration { return &c.Kafka.ProduceTimeout }),
	dur("kafka", "kafka.dial-timeout", "MSGX_KAFKA_DIAL_TIMEOUT", "10s", "Bound of one broker connection attempt.", func(c *Config) *time.Duration { return &c.Kafka.DialTimeout }),
	positive32("kafka", "kafka.max-record-bytes", "MSGX_KAFKA_MAX_RECORD_BYTES", "1000012", "Largest Kafka record, key and headers included (the producer's batch cap per partition). A message whose event would be larger is refused, DEAD(PROTOCOL) naming the flight and the size, nothing written (not in shadow mode: no events); an event over it already in the outbox is DEAD at once. Must not exceed the topics' `max.message.bytes`: the broker refuses a too-large batch as a whole.", func(c *Config) *int32 { return &c.Kafka.MaxRecordBytes }),
	boolean("kafka", "kafka.tls.enabled", "MSGX_KAFKA_TLS", "false", "Connect with TLS.", func(c *Config) *bool { return &c.Kafka.TLS.Enabled }),
	str("kafka", "kafka.tls.ca-file", "MSGX_KAFKA_TLS_CA_FILE", "", "PEM CA bundle (default: system roots).", func(c *Config) *string { return &c.Kafka.TLS.CAFile }),
	str("kafka", "kafka.tls.cert-file", "MSGX_KAFKA_TLS_CERT_FILE", "", "PEM client certificate (mutual TLS), with the key file.", func(c *Config) *string { return &c.Kafka.TLS.CertFile }),
	str("kafka", "kafka.tls.key-file", "MSGX_KAFKA_TLS_KEY_FILE", "", "PEM client key.", func(c *Config) *string { return &c.Kafka.TLS.KeyFile }),
	str("kafka", "kafka.tls.server-name", "MSGX_KAFKA_TLS_SERVER_NAME", "", "Server name to verify (default: the broker host).", func(c *Config) *string { return &c.Kafka.TLS.ServerName }),
	boolean("kafka", "kafka.tls.insecure-skip-verify", "MSGX_KAFKA_TLS_INSECURE_SKIP_VERIFY", "false", "Skip certificate verification (dev only; refused in prod).", func(c *Config) *bool { return &c.Kafka.TLS.InsecureSkipVerify }),
	oneOf("kafka", "kafka.sasl.mechanism", "MSGX_KAFKA_SASL_MECHANISM", "", "`PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512` or empty (no SASL).", []string{"", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}, func(c *Config) *string { return &c.Kafka.SASL.Mechanism }),
	str("kafka", "kafka.sasl.username", "MSGX_KAFKA_SASL_USERNAME", "", "SASL user.", func(c *Config) *string { return &c.Kafka.SASL.Username }),
	str("kafka", "kafka.sasl.password", "MSGX_KAFKA_SASL_PASSWORD", "", "SASL password (prefer the variable to the file).", func(c *Config) *string { return &c.Kafka.SASL.Password }),

	// the relay: the outbox (MSG_EVENT) to Kafka
	positive("relay", "relay.batch-size", "MSGX_RELAY_BATCH_SIZE", "500", "`KAFKA:msg` events produced per step.", func(c *Config) *int { return &c.Relay.BatchSize }),
	positive("relay", "relay.max-attempts", "MSGX_RELAY_MAX_ATTEMPTS", "10", "Failed deliveries of an event the broker refused (`CORRUPT_MESSAGE`) before it becomes DEAD (kept as the dead letter). A record refused for good (too large, invalid) is DEAD at once; broker outages never make an event DEAD.", func(c *Config) *int { return &c.Relay.MaxAttempts }),
	dur("relay", "relay.backoff-base", "MSGX_RELAY_BACKOFF_BASE", "1s", "First retry delay of a failed delivery; doubles per attempt.", func(c *Config) *time.Duration { return &c.Relay.BackoffBase }),
	dur("relay", "relay.backoff-cap", "MSGX_RELAY_BACKOFF_CAP", "1m", "Cap of each delivery retry delay.", func(c *Config) *time.Duration { return &c.Relay.BackoffCap }),
	dur("relay", "schd.flush-period", "MSGX_SCHD_FLUSH_PERIOD", "3s", "`KAFKA:schd` flush period: how often the flights' pending marks are sent.", func(c *Config) *time.Duration { return &c.Schd.FlushPeriod }),
	positive("relay", "schd.flush-limit", "MSGX_SCHD_FLUSH_LIMIT", "500", "Flights per `KAFKA:schd` batch.", func(c *Config) *int { return &c.Schd.FlushLimit }),

	// maintenance (leader only; `msgx maintenance run <job>` runs one by hand)
	boolean("maintenance", "history.enabled", "MSGX_HISTORY_ENABLED", "true", "The history sweep moves flights to FLIGHT_HST and deletes their live rows. `false`: it deletes nothing (and logs so); DELETED flights stay readable as such.", func(c *Config) *bool { return &c.Maintenance.HistoryEnabled }),
	clockTime("maintenance", "history.at", "MSGX_HISTORY_AT", "03:30", "Time of day (airport time, `HH:MM`) after which the daily history sweep and snapshot log retention run; computed from the calendar, so DST days run at the same wall-clock time.", func(c *Config) (*string, *int, *int) {
		return &c.Maintenance.HistoryAt, &c.Maintenance.HistoryHour, &c.Maintenance.HistoryMinute
	}),
	dur("maintenance", "history.retention", "MSGX_HISTORY_RETENTION", "168h", "A flight is swept when its operation day ended this long ago and it was DELETED, or ACTIVE and unchanged, for as long (a flight deleted today stays, in the reports too); an ACTIVE one gets a TOMBSTONE.", func(c *Config) *time.Duration { return &c.Maintenance.HistoryRetention }),
	positive("maintenance", "history.batch", "MSGX_HISTORY_BATCH", "200", "Flights per history sweep batch. A batch reads its flights first, then writes the history and deletes them in one transaction holding the pipeline lock (the pump waits for it), and then pauses four times as long as it took, so the pump keeps ≥ 80 % of its throughput (`make bench`).", func(c *Config) *int { return &c.Maintenance.HistoryBatch }),
	dur("maintenance", "snaplog.retention", "MSGX_SNAPLOG_RETENTION", "2160h", "SCHD_SNAP_LOG rows received, and whose scope ended, longer ago than this (90 days) are deleted, daily with the history sweep, and so are the INGRESS_GAP rows given up longer ago than this.", func(c *Config) *time.Duration { return &c.Maintenance.SnapLogRetention }),
	dur("maintenance", "archive.every", "MSGX_ARCHIVE_EVERY", "1h", "How often the queue archive runs.", func(c *Config) *time.Duration { return &c.Maintenance.ArchiveEvery }),
	dur("maintenance", "archive.after", "MSGX_ARCHIVE_AFTER", "168h", "Terminal PROC_STATE rows (SUCCEEDED, SKIPPED, DEAD) finished longer ago than this, with their mailbox backfill done, move to PROC_STATE_HST; their identities still deduplicate, `GET /messages/{id}` still answers them.", func(c *Config) *time.Duration { return &c.Maintenance.ArchiveAfter }),
	dur("maintenance", "outbox.retention-every", "MSGX_OUTBOX_RETENTION_EVERY", "1h", "How often outbox retention runs.", func(c *Config) *time.Duration { return &c.Maintenance.OutboxEvery }),
	dur("maintenance", "outbox.retention", "MSGX_OUTBOX_RETENTION", "168h", "Delivered MSG_EVENT rows older than this are deleted; DEAD rows (dead letters) never, and a `KAFKA:msg` row never while a `KAFKA:schd` mark or dead letter still reads its payload.", func(c *Config) *time.Duration { return &c.Maintenance.OutboxRetention }),
	positive("maintenance", "maintenance.batch", "MSGX_MAINTENANCE_BATCH", "1000", "Rows per statement of the snapshot log, archive and outbox jobs; a run goes on until a batch is short.", func(c *Config) *int { return &c.Maintenance.Batch }),
	dur("maintenance", "maintenance.pause", "MSGX_MAINTENANCE_PAUSE", "100ms", "Longest pause between two batches of a job (a random wait of half to all of it), so the pump and the relay get the database between them.", func(c *Config) *time.Duration { return &c.Maintenance.Pause }),
	dur("maintenance", "maintenance.statement-timeout", "MSGX_MAINTENANCE_STATEMENT_TIMEOUT", "1m", "Bound of each batch of a job.", func(c *Config) *time.Duration { return &c.Maintenance.StatementTimeout }),
}

// clockTime is a time of day, HH:MM (24 h).
func clockTime(section, key, env, def, doc string, p func(*Config) (*string, *int, *int)) field {
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error {
			t, err := time.Parse("15:04", v)
			if err != nil {
				return errors.New("must be a time of day HH:MM, such as 03:30")
			}
			s, h, m := p(c)
			*s, *h, *m = t.Format("15:04"), t.Hour(), t.Minute()
			return nil
		},
		get: func(c *Config) string { s, _, _ := p(c); return *s }}
}

func str(section, key, env, def, doc string, p func(*Config) *string) field {
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error { *p(c) = v; return nil },
		get: func(c *Config) string { return *p(c) }}
}

func oneOf(section, key, env, def, doc string, allowed []string, p func(*Config) *string) field {
	f := str(section, key, env, def, doc, p)
	f.set = func(c *Config, v string) error {
		if !slices.Contains(allowed, v) {
			return fmt.Errorf("must be one of %s", strings.Join(slices.DeleteFunc(slices.Clone(allowed), func(s string) bool { return s == "" }), ", "))
		}
		*p(c) = v
		return nil
	}
	return f
}

func dur(section, key, env, def, doc string, p func(*Config) *time.Duration) field {
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return errors.New("must be a positive duration such as 500ms, 1s, 10m")
			}
			*p(c) = d
			return nil
		},
		get: func(c *Config) string { return p(c).String() }}
}

func positive(section, key, env, def, doc string, p func(*Config) *int) field {
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return errors.New("must be a positive integer")
			}
			*p(c) = n
			return nil
		},
		get: func(c *Config) string { return strconv.Itoa(*p(c)) }}
}

func positive32(section, key, env, def, doc string, p func(*Config) *int32) field {
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error {
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n <= 0 {
				return errors.New("must be a positive integer below 2^31")
			}
			*p(c) = int32(n)
			return nil
		},
		get: func(c *Config) string { return strconv.FormatInt(int64(*p(c)), 10) }}
}

func nonNegative64(section, key, env, def, doc string, p func(*Config) *int64) field {
	f := int64Field(section, key, env, def, doc, p)
	set := f.set
	f.set = func(c *Config, v string) error {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n < 0 {
			return errors.New("must be a non-negative integer")
		}
		return set(c, v)
	}
	return f
}

func int64Field(section, key, env, def, doc string, p func(*Config) *int64) field {
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return errors.New("must be an integer")
			}
			*p(c) = n
			return nil
		},
		get: func(c *Config) string { return strconv.FormatInt(*p(c), 10) }}
}

func boolean(section, key, env, def, doc string, p func(*Config) *bool) field {
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return errors.New("must be true or false")
			}
			*p(c) = b
			return nil
		},
		get: func(c *Config) string { return strconv.FormatBool(*p(c)) }}
}

// list is a comma-separated list (or a YAML list); entries are trimmed, and
// upper-cased for message types.
func list(section, key, env, def, doc string, p func(*Config) *[]string) field {
	upper := key == "pipeline.ignore-types"
	return field{key: key, env: env, def: def, doc: doc, section: section,
		set: func(c *Config, v string) error {
			out := []string{} // non-nil: an empty ignore list ignores nothing
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					if upper {
						s = strings.ToUpper(s)
					}
					out = append(out, s)
				}
			}
			*p(c) = out
			return nil
		},
		get: func(c *Config) string { return strings.Join(*p(c), ",") }}
}
