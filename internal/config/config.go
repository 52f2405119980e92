// Package config loads and validates msgx's configuration: the documented
// defaults, then an optional YAML file (--config or MSGX_CONFIG), then the
// MSGX_* environment variables, each layer overriding the one before. Layering
// and YAML parsing are koanf's; every key, with its variable, default and
// meaning, is one row of the table in fields.go, from which docs/config.md is
// generated. An invalid value is refused at start naming the key and reason.
//
// config is a leaf: it holds plain values and imports nothing of msgx and no
// driver or client library (deps_test.go). Each package turns the values into
// its own settings in internal/app's wiring; a check that needs such a
// package (a Kafka, PostgreSQL or MySQL rule) is a Check that app.LoadConfig
// hands to Load.
package config

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
)

// Config is the whole service configuration.
type Config struct {
	Env    string // dev | prod
	Shadow bool   // process into our own PostgreSQL only: no backfill, no Kafka

	Dialect    string // DialectPostgres or DialectOracle11g: msgx's own database
	OracleDSN  string // msgx's own Oracle schema (godror DSN) when Dialect is oracle11g
	PGURL      string // msgx's own PostgreSQL
	MailboxDSN string // shared mailbox, go-sql-driver/mysql DSN

	HTTPAddr     string
	AdminToken   string // Bearer token of /admin/*; required in prod
	SendToken    string // Bearer token of POST /cminmsgs/send; required in prod
	MaxJSONBytes int    // body limit of the JSON routes

	MaxConcurrentSends int // POST /cminmsgs/send handled at once; 503 beyond

	AirportTZ string
	Location  *time.Location
	LogLevel  string
	GCPercent int // Go GC target of serve (GOGC); a GOGC environment variable wins
	// GCMemoryLimit is the soft memory limit of serve (GOMEMLIMIT) in
	// bytes; 0 derives it (MemoryLimit). A GOMEMLIMIT variable wins.
	GCMemoryLimit int64

	PollInterval   time.Duration
	PollBatch      int
	RescanDistance int64
	RescanAge      time.Duration
	// GapWait and ReconcileInterval: ids in order and nothing missed (rules 16–17).
	GapWait           time.Duration
	ReconcileInterval time.Duration

	MaxAttempts  int
	BackoffBase  time.Duration
	BackoffCap   time.Duration
	HeadDeadline time.Duration
	RunLength    int
	RunBytes     int // raw XML bytes a run reads, at least its head

	SnapshotPrune      bool
	IgnoreTypes        []string
	MaxMessageBytes    int
	IncludeDayBoundary bool

	BackfillInterval time.Duration

	LeaderLockID        int64
	LeaderRetryInterval time.Duration

	Kafka       Kafka // the producer; its safety rules are kafka.Config.Validate (run by app.LoadConfig)
	Relay       Relay
	Schd        Schd
	Request     Request
	Maintenance Maintenance

	// Deprecated says, one line each, which former key names (renamed.go)
	// the file or the environment used; the commands print or log them.
	Deprecated []string
}

// Kafka is the broker connection and producer policy (internal/kafka's
// kafka.Config, which internal/app makes of it).
type Kafka struct {
	Brokers        []string
	ClientID       string
	TopicMsg       string // KAFKA:msg, every change
	TopicSchd      string // KAFKA:schd, latest state per flight
	Acks           string
	Idempotence    bool
	MaxInFlight    int
	ProduceTimeout time.Duration
	DialTimeout    time.Duration
	MaxRecordBytes int32 // largest record, key and headers included
	TLS            KafkaTLS
	SASL           KafkaSASL
}

// KafkaTLS is the broker TLS configuration.
type KafkaTLS struct {
	Enabled            bool
	CAFile             string
	CertFile, KeyFile  string
	ServerName         string
	InsecureSkipVerify bool
}

// KafkaSASL is the broker authentication; an empty Mechanism is none.
type KafkaSASL struct {
	Mechanism string
	Username  string
	Password  string
}

// Request is the requests to the AODB and the RESP guard (docs/requests.md).
type Request struct {
	Guard     string // request | mailbox | off
	Timeout   time.Duration
	OnStart   bool
	DailyAt   string // HH:MM airport time, "" = off
	RoutingID string // coutmsgs ROUTINGID
	Sender    string // META SNDR of our requests
	MaxDays   int    // most operation days one flights request spans
}

// Maintenance is the leader's housekeeping (internal/maintenance).
type Maintenance struct {
	HistoryEnabled   bool
	HistoryAt        string // HH:MM airport time
	HistoryHour      int    // parsed from HistoryAt
	HistoryMinute    int
	HistoryRetention time.Duration
	HistoryBatch     int
	SnapLogRetention time.Duration
	ArchiveEvery     time.Duration
	ArchiveAfter     time.Duration
	OutboxEvery      time.Duration
	OutboxRetention  time.Duration
	Batch            int
	Pause            time.Duration
	StatementTimeout time.Duration
}

// Relay is the KAFKA:msg dispatcher's delivery policy (internal/relay).
type Relay struct {
	BatchSize   int
	MaxAttempts int
	BackoffBase time.Duration
	BackoffCap  time.Duration
}

// Schd is the KAFKA:schd aggregation.
type Schd struct {
	FlushPeriod time.Duration
	FlushLimit  int
}

// Defaults returns the documented defaults (every field's default in fields.go).
func Defaults() Config {
	var c Config
	for _, f := range fields {
		if err := f.set(&c, f.def); err != nil {
			panic(fmt.Sprintf("config: default of %s: %v", f.key, err))
		}
	}
	c.Location, _ = time.LoadLocation(c.AirportTZ)
	return c
}

// MemoryLimit is the soft memory limit of serve in bytes: gc.memory-limit,
// or when 0, room for a run and a read-ahead of large messages held while
// the collector works (4 × pipeline.run-bytes) plus the rest of the service
// (64 MiB).
func (c Config) MemoryLimit() int64 {
	if c.GCMemoryLimit > 0 {
		return c.GCMemoryLimit
	}
	return 4*int64(c.RunBytes) + 64<<20
}

// A Check validates what needs a package config does not import (a Kafka
// rule, a driver's URL syntax). Its error names each setting, as Name does,
// one per line (errors.Join).
type Check func(c Config) error

// Load builds the configuration from the defaults, the YAML file at path
// (when path is empty, $MSGX_CONFIG; when that is empty too, no file) and the
// MSGX_* variables read through getenv, and validates it: its own rules, then
// each check. The error names every invalid key, one per line.
func Load(path string, getenv func(string) string, checks ...Check) (Config, error) {
	if path == "" {
		path = strings.TrimSpace(getenv("MSGX_CONFIG"))
	}
	k := koanf.New(".")
	var errs []error
	var deprecated []string
	if path != "" {
		if err := k.Load(file.Provider(path), yaml.Parser()); err != nil {
			return Config{}, fmt.Errorf("config file %s: %w", path, err)
		}
		for _, key := range k.Keys() {
			if fieldByKey(key) == nil && !isFormer(key) {
				errs = append(errs, fmt.Errorf("%s: unknown key in %s (see docs/config.md)", key, path))
			}
		}
		deprecated = fileFormer(k, path)
	}
	trimmed := func(name string) string { return strings.TrimSpace(getenv(name)) }
	fromEnv := map[string]any{}
	for _, f := range fields {
		if v := trimmed(f.env); v != "" {
			fromEnv[f.key] = v
		}
	}
	deprecated = append(deprecated, envFormer(trimmed, fromEnv)...)
	if err := k.Load(confmap.Provider(fromEnv, "."), nil); err != nil {
		return Config{}, fmt.Errorf("config: environment: %w", err)
	}

	c := Defaults()
	c.Deprecated = deprecated
	for _, f := range fields {
		if !k.Exists(f.key) {
			continue
		}
		v := text(k.Get(f.key))
		if err := f.set(&c, v); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", f.name(), v, err))
		}
	}
	explicit := func(key string) bool { return k.Exists(key) }
	errs = append(errs, validate(&c, explicit)...)
	for _, check := range checks {
		if err := check(c); err != nil {
			errs = append(errs, err)
		}
	}
	return c, errors.Join(errs...)
}

// text turns a YAML value (string, number, bool or list) into the text form
// the fields parse, so a file and the environment are read the same way.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = text(e)
		}
		return strings.Join(parts, ",")
	default:
		return fmt.Sprint(x)
	}
}

// validate checks what no single field can: cross-field rules and the
// refusals of production (each names its setting).
func validate(c *Config, explicit func(key string) bool) []error {
	var errs []error
	bad := func(key, reason string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", Name(key), fmt.Sprintf(reason, a...)))
	}
	loc, err := time.LoadLocation(c.AirportTZ)
	if err != nil {
		bad("airport.timezone", "%q is not a time zone: %v", c.AirportTZ, err)
	}
	c.Location = loc
	if c.BackoffCap < c.BackoffBase {
		bad("pipeline.backoff-cap", "%s must not be below pipeline.backoff-base %s", c.BackoffCap, c.BackoffBase)
	}
	if c.Relay.BackoffCap < c.Relay.BackoffBase {
		bad("relay.backoff-cap", "%s must not be below relay.backoff-base %s", c.Relay.BackoffCap, c.Relay.BackoffBase)
	}
	if n := len(c.Request.RoutingID); n == 0 || n > 23 {
		bad("request.routing-id", "must be 1 to 23 characters (coutmsgs.ROUTINGID)")
	}
	if !validSender(c.Request.Sender) {
		bad("request.sender", "must be 1 to 32 letters or digits (META SNDR)")
	}
	if err := checkListenAddr(c.HTTPAddr); err != nil {
		bad("http.addr", "%v", err)
	}
	if c.Dialect == DialectOracle11g && c.OracleDSN == "" {
		bad("oracle.dsn", "must be set when database.dialect is oracle11g")
	}
	if c.AdminToken != "" && len(c.AdminToken) < minAdminToken {
		bad("http.admin-token", "must be at least %d characters", minAdminToken)
	}
	if c.SendToken != "" && len(c.SendToken) < minSendToken {
		bad("http.send-token", "must be at least %d characters", minSendToken)
	}

	if c.Env != "prod" {
		return errs
	}
	// Production refuses every development convenience, naming the setting.
	if !explicit("postgres.url") {
		bad("postgres.url", "must be set in prod (the default points at a local development database)")
	}
	if !explicit("mailbox.dsn") {
		bad("mailbox.dsn", "must be set in prod (the default points at a local MariaDB)")
	}
	if len(c.Kafka.Brokers) == 0 {
		bad("kafka.brokers", "must be set in prod (the embedded development broker is refused)")
	}
	if c.AdminToken == "" {
		bad("http.admin-token", "must be set in prod (the admin API replays messages)")
	}
	if c.SendToken == "" {
		bad("http.send-token", "must be set in prod (without it anyone who reaches the API can inject messages, an FDEL or a pruning DNLD)")
	}
	if c.Kafka.TLS.InsecureSkipVerify {
		bad("kafka.tls.insecure-skip-verify", "is refused in prod")
	}
	return errs
}

// The dialects of msgx's own database (database.dialect).
const (
	DialectPostgres  = "postgres"
	DialectOracle11g = "oracle11g"
)

// The shortest tokens accepted: short tokens are guessable. The ingest
// token is longer than the admin token's minimum: it sits in the config of
// every sending system.
const (
	minAdminToken = 16
	minSendToken  = 32
)

// Keys lists every configuration key in documentation order.
func Keys() []string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
	}
	return keys
}

// EnvOf returns the environment variable of a key ("" if unknown).
func EnvOf(key string) string {
	if f := fieldByKey(key); f != nil {
		return f.env
	}
	return ""
}

// Name is how errors name a key: the key and its variable, such as
// "mailbox.dsn (MSGX_MAILBOX_DSN)" (a Check's errors use it too).
func Name(key string) string {
	f := fieldByKey(key)
	if f == nil {
		panic("config: no key " + key)
	}
	return f.name()
}

func fieldByKey(key string) *field {
	i := slices.IndexFunc(fields, func(f field) bool { return f.key == key })
	if i < 0 {
		return nil
	}
	return &fields[i]
}

// validSender: our SNDR goes into XML and into a LIKE pattern; letters and
// digits need no escaping in either.
func validSender(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// checkListenAddr checks a listen address without listening: host:port with a
// port number (the host may be empty: every interface).
func checkListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port, such as 127.0.0.1:8080 or :8080", addr)
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || (n == 0 && port != "0") {
		return fmt.Errorf("port %q of %q is not a number from 0 to 65535", port, addr)
	}
	return nil
}
