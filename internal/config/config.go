// Package config loads and validates msgx's configuration from MSGX_*
// environment variables. Every key is documented in docs/config.md; an
// invalid value is refused at start with the key and the reason.
package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Config is the whole service configuration.
type Config struct {
	Env        string // dev | prod
	PGURL      string // msgx's own PostgreSQL
	MailboxDSN string // shared mailbox, go-sql-driver/mysql DSN
	HTTPAddr   string

	AirportTZ string
	Location  *time.Location

	PollInterval   time.Duration
	ClaimBatch     int
	RescanDistance int64
	RescanAge      time.Duration

	MaxAttempts  int
	BackoffBase  time.Duration
	BackoffCap   time.Duration
	HeadDeadline time.Duration
	RunLength    int

	SnapshotPrune      bool
	IgnoreTypes        []string
	MaxMessageBytes    int
	IncludeDayBoundary bool

	BackfillInterval time.Duration
}

// Defaults are the documented defaults (docs/config.md).
func Defaults() Config {
	return Config{
		Env:        "dev",
		PGURL:      "postgres://postgres@127.0.0.1:5432/msgx?sslmode=disable",
		MailboxDSN: "root@tcp(127.0.0.1:3306)/msgx_mailbox?parseTime=true",
		HTTPAddr:   "127.0.0.1:8080",
		AirportTZ:  "Asia/Shanghai",

		PollInterval: time.Second, ClaimBatch: 50, RescanDistance: 1000, RescanAge: 10 * time.Minute,
		MaxAttempts: 5, BackoffBase: time.Second, BackoffCap: time.Minute, HeadDeadline: 10 * time.Minute, RunLength: 500,
		SnapshotPrune: true, IgnoreTypes: []string{"LDM", "REGN", "RSTA", "EROR"}, MaxMessageBytes: 16 << 20,
		BackfillInterval: 30 * time.Second,
	}
}

// Load reads the MSGX_* variables through getenv (os.Getenv in production)
// over the defaults and validates the result.
func Load(getenv func(string) string) (Config, error) {
	c := Defaults()
	var errs []error
	str := func(key string, into *string) {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			*into = v
		}
	}
	parse := func(key string, set func(string) error) {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			if err := set(v); err != nil {
				errs = append(errs, fmt.Errorf("%s=%q: %w", key, v, err))
			}
		}
	}
	positiveInt := func(key string, into *int) {
		parse(key, func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return errors.New("must be a positive integer")
			}
			*into = n
			return nil
		})
	}
	duration := func(key string, into *time.Duration) {
		parse(key, func(v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return errors.New("must be a positive duration such as 1s, 500ms, 10m")
			}
			*into = d
			return nil
		})
	}
	boolean := func(key string, into *bool) {
		parse(key, func(v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return errors.New("must be true or false")
			}
			*into = b
			return nil
		})
	}

	str("MSGX_ENV", &c.Env)
	str("MSGX_PG_URL", &c.PGURL)
	str("MSGX_MAILBOX_DSN", &c.MailboxDSN)
	str("MSGX_HTTP_ADDR", &c.HTTPAddr)
	str("MSGX_AIRPORT_TZ", &c.AirportTZ)
	duration("MSGX_POLL_INTERVAL", &c.PollInterval)
	positiveInt("MSGX_CLAIM_BATCH", &c.ClaimBatch)
	parse("MSGX_RESCAN_DISTANCE", func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return errors.New("must be a non-negative integer")
		}
		c.RescanDistance = n
		return nil
	})
	duration("MSGX_RESCAN_AGE", &c.RescanAge)
	positiveInt("MSGX_MAX_ATTEMPTS", &c.MaxAttempts)
	duration("MSGX_BACKOFF_BASE", &c.BackoffBase)
	duration("MSGX_BACKOFF_CAP", &c.BackoffCap)
	duration("MSGX_HEAD_DEADLINE", &c.HeadDeadline)
	positiveInt("MSGX_RUN_LENGTH", &c.RunLength)
	boolean("MSGX_SNAPSHOT_PRUNE", &c.SnapshotPrune)
	parse("MSGX_IGNORE_TYPES", func(v string) error {
		c.IgnoreTypes = nil
		for _, t := range strings.Split(v, ",") {
			if t = strings.ToUpper(strings.TrimSpace(t)); t != "" {
				c.IgnoreTypes = append(c.IgnoreTypes, t)
			}
		}
		return nil
	})
	positiveInt("MSGX_MAX_MESSAGE_BYTES", &c.MaxMessageBytes)
	boolean("MSGX_IDENTITY_INCLUDE_DAY_BOUNDARY", &c.IncludeDayBoundary)
	duration("MSGX_BACKFILL_INTERVAL", &c.BackfillInterval)

	if c.Env != "dev" && c.Env != "prod" {
		errs = append(errs, fmt.Errorf("MSGX_ENV=%q: must be dev or prod", c.Env))
	}
	loc, err := time.LoadLocation(c.AirportTZ)
	if err != nil {
		errs = append(errs, fmt.Errorf("MSGX_AIRPORT_TZ=%q: not a time zone: %w", c.AirportTZ, err))
	}
	c.Location = loc
	if c.BackoffCap < c.BackoffBase {
		errs = append(errs, fmt.Errorf("MSGX_BACKOFF_CAP=%s: must not be below MSGX_BACKOFF_BASE=%s", c.BackoffCap, c.BackoffBase))
	}
	if c.Env == "prod" && c.MailboxDSN == Defaults().MailboxDSN && getenv("MSGX_MAILBOX_DSN") == "" {
		errs = append(errs, errors.New("MSGX_MAILBOX_DSN: must be set in prod (the dev default points at a local MariaDB)"))
	}
	return c, errors.Join(errs...)
}
