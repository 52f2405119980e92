// Package sqlfiles embeds the SQL sources of every dialect, so the binary
// carries its desired schema and migrations: the service and the test harness
// read them from here, never from the working directory (`msgx schema` reads a
// checkout's sql/postgres/schema when run in one: docs/schema.md).
package sqlfiles

import "embed"

// PostgresSchema is the desired state of msgx's own PostgreSQL schema
// (postgres/schema/*.sql, applied in file-name order).
//
//go:embed postgres/schema/*.sql
var PostgresSchema embed.FS

// PostgresMigrations is the atlas-format versioned migration directory
// (postgres/migrations/*.sql plus atlas.sum).
//
//go:embed postgres/migrations
var PostgresMigrations embed.FS

// PostgresBookkeeping is msgx's version table for `msgx schema migrate`
// (postgres/bookkeeping/schema_version.sql), outside the desired schema.
//
//go:embed postgres/bookkeeping/schema_version.sql
var PostgresBookkeeping []byte

// MailboxSchema is the shared MySQL/MariaDB mailbox (cminmsgs, coutmsgs) as the
// AODB side owns it; msgx creates it only in dev and tests.
//
//go:embed mysql/schema/*.sql
var MailboxSchema embed.FS

// MailboxQueries are the sqlc sources of db/mailbox: tests EXPLAIN the real
// text of a query.
//
//go:embed mysql/queries/*.sql
var MailboxQueries embed.FS

// OracleQueries are the Oracle 11g twins of postgres/queries (same names and
// kinds), loaded by name by internal/store/orastore.
//
//go:embed oracle11g/queries/*.sql
var OracleQueries embed.FS

// OracleSchema is the desired state of msgx's schema on Oracle 11g
// (oracle11g/schema/*.sql, applied in file-name order by DBAs; see
// docs/schema.md).
//
//go:embed oracle11g/schema/*.sql
var OracleSchema embed.FS

// OracleMigrations are the versioned Oracle 11g migrations
// (oracle11g/migrations/NNNN_name.sql, applied in order and recorded in
// MSGX_SCHEMA_VERSION by `msgx schema migrate --dialect oracle11g`).
//
//go:embed oracle11g/migrations/*.sql
var OracleMigrations embed.FS
