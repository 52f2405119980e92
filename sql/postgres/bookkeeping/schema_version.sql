-- msgx's record of the versioned migrations applied to a database
-- (`msgx schema migrate`; docs/upgrade.md). Not part of the desired schema in
-- sql/postgres/schema: it is created by the first migrate, before the
-- baseline migration runs, and `msgx schema plan|apply` leave it alone.
-- Oracle's twin is MSGX_SCHEMA_VERSION (sql/oracle11g/queries/session.sql).
CREATE TABLE IF NOT EXISTS msgx_schema_version (
  version    text        NOT NULL PRIMARY KEY, -- the migration file's version (its UTC timestamp)
  name       text        NOT NULL,             -- the file name, e.g. 20261202155912_baseline.sql
  sha256     text        NOT NULL,             -- hex SHA-256 of the file as applied: a released migration must never change
  baseline   boolean     NOT NULL DEFAULT false, -- recorded by --baseline, not executed
  applied_at timestamptz NOT NULL
);
