package app

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/oneline"
)

// LoadConfig is config.Load with the checks that need a package config does
// not import (config is a leaf): every command loads through it, so an
// invalid value exits 2 before anything connects.
func LoadConfig(path string, getenv func(string) string) (config.Config, error) {
	return config.Load(path, getenv, checkKafka, checkRequest, checkDatabases)
}

// checkKafka: delivery safety is not negotiable in any environment (issue
// #5); the Kafka package owns those rules and names each setting.
func checkKafka(c config.Config) error { return KafkaConfig(c).Validate() }

func checkRequest(c config.Config) error {
	if _, _, _, err := aodbrequest.ParseDailyAt(c.Request.DailyAt); err != nil {
		return fmt.Errorf("%s: %v", config.Name("request.daily-at"), err)
	}
	return nil
}

// checkDatabases checks the database URLs without connecting.
func checkDatabases(c config.Config) error {
	var errs []error
	if c.Dialect == config.DialectPostgres {
		if err := checkPostgresURL(c.PGURL); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", config.Name("postgres.url"), err))
		}
	}
	if _, err := mysql.ParseDSN(c.MailboxDSN); err != nil {
		errs = append(errs, fmt.Errorf("%s: not a go-sql-driver/mysql DSN such as user:password@tcp(host:3306)/db: %v", config.Name("mailbox.dsn"), err))
	}
	return errors.Join(errs...)
}

// checkPostgresURL checks a PostgreSQL URL without connecting. The messages
// never repeat the URL: it may hold a password.
func checkPostgresURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("not a URL such as postgres://user@host:5432/msgx")
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return fmt.Errorf("scheme %q is not postgres:// or postgresql://", u.Scheme)
	}
	if _, err := pgx.ParseConfig(raw); err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			return fmt.Errorf("not a valid PostgreSQL URL: %s", oneline.Err(inner))
		}
		return errors.New("not a valid PostgreSQL URL")
	}
	return nil
}

// KafkaConfig is the producer's configuration (kafka.*).
func KafkaConfig(c config.Config) kafka.Config {
	k := c.Kafka
	return kafka.Config{
		Brokers: append([]string(nil), k.Brokers...), ClientID: k.ClientID, TopicMsg: k.TopicMsg, TopicSchd: k.TopicSchd,
		Acks: k.Acks, Idempotence: k.Idempotence, MaxInFlight: k.MaxInFlight,
		ProduceTimeout: k.ProduceTimeout, DialTimeout: k.DialTimeout, MaxRecordBytes: k.MaxRecordBytes,
		TLS: kafka.TLS(k.TLS), SASL: kafka.SASL(k.SASL),
	}
}

// RequestConfig is the request service's configuration (request.*).
func RequestConfig(c config.Config) aodbrequest.Config {
	return aodbrequest.Config{
		Sender: c.Request.Sender, RoutingID: c.Request.RoutingID, Timeout: c.Request.Timeout, Location: c.Location,
		Shadow: c.Shadow, OnStart: c.Request.OnStart, DailyAt: c.Request.DailyAt, MaxDays: c.Request.MaxDays,
	}
}
