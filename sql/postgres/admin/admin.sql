-- Session and transaction administration for msgx's tooling (schema
-- plan/apply, the test harness), on database/sql connections: atlas works on
-- database/sql, so these are generated for it (db/pgadmin), not for pgx.

-- name: SetLocalSearchPath :exec
-- search_path for the rest of the current transaction only.
SELECT set_config('search_path', sqlc.arg(search_path)::text, true);

-- name: AdvisoryLock :exec
-- A session-level advisory lock, held until AdvisoryUnlock or disconnect.
SELECT pg_advisory_lock(sqlc.arg(lock_key)::bigint);

-- name: AdvisoryUnlock :exec
SELECT pg_advisory_unlock(sqlc.arg(lock_key)::bigint);

-- name: DatabaseIsTemplate :one
-- Whether a database exists and is marked as a template (the test harness
-- marks its template last, so false means an interrupted build).
SELECT datistemplate FROM pg_catalog.pg_database WHERE datname = sqlc.arg(name)::text;

-- name: ViewDefinitions :many
-- The views of a schema with what makes them what they are: the definition
-- as the server deparses it (relative to the current search_path) and the
-- comments, and its columns with their types (CREATE OR REPLACE VIEW may
-- only add columns at the end). Atlas's open-source driver does not inspect views, so
-- internal/schema compares these itself.
SELECT c.relname::text AS name,
       pg_catalog.pg_get_viewdef(c.oid)::text AS definition,
       COALESCE(pg_catalog.obj_description(c.oid, 'pg_class'), '')::text AS comment,
       COALESCE((SELECT string_agg(a.attname || ': ' || pg_catalog.col_description(c.oid, a.attnum), E'\n' ORDER BY a.attnum)
                 FROM pg_catalog.pg_attribute a
                 WHERE a.attrelid = c.oid AND a.attnum > 0
                   AND pg_catalog.col_description(c.oid, a.attnum) IS NOT NULL), '')::text AS column_comments,
       COALESCE((SELECT string_agg(pg_catalog.quote_ident(a.attname) || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
                 FROM pg_catalog.pg_attribute a
                 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '')::text AS columns
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = sqlc.arg(schema_name)::text AND c.relkind = 'v'
ORDER BY c.relname;

-- name: TableStorageParams :many
-- The storage parameters (CREATE TABLE ... WITH (...), ALTER TABLE ... SET
-- (...)) of the tables of a schema, one row per table and parameter. Atlas's
-- open-source driver inspects those of indexes only, so internal/schema
-- compares these itself. A table's TOAST parameters (toast.*) live on its
-- TOAST table and are not listed.
SELECT c.relname::text AS table_name,
       o.option_name::text AS name,
       o.option_value::text AS value
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN LATERAL pg_catalog.pg_options_to_table(c.reloptions) o
WHERE n.nspname = sqlc.arg(schema_name)::text AND c.relkind IN ('r', 'p')
ORDER BY 1, 2;

-- name: ViewDependencies :many
-- What each view of a schema reads of the relations (tables, views) of that
-- schema, from PostgreSQL's own dependency record: a view's rewrite rule
-- depends on every column it reads (column = its name) and on every
-- relation it reads at all (an empty column). PostgreSQL refuses to drop, or to
-- change the type of, what a view depends on; internal/schema drops and
-- re-creates only the views a table change touches (views.go).
SELECT DISTINCT v.relname::text AS view_name,
       r.relname::text AS relation,
       COALESCE(a.attname::text, '')::text AS column_name
FROM pg_catalog.pg_rewrite w
JOIN pg_catalog.pg_class v ON v.oid = w.ev_class AND v.relkind = 'v'
JOIN pg_catalog.pg_namespace n ON n.oid = v.relnamespace
JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid = w.oid
 AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.refobjid <> v.oid
JOIN pg_catalog.pg_class r ON r.oid = d.refobjid AND r.relnamespace = v.relnamespace
LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
WHERE n.nspname = sqlc.arg(schema_name)::text
ORDER BY 1, 2, 3;

-- name: AdvisoryXactLock :exec
-- A transaction-level advisory lock, released at commit or rollback.
SELECT pg_advisory_xact_lock(sqlc.arg(lock_key)::bigint);

-- name: SchemaVersionList :many
-- The migrations `msgx schema migrate` recorded (sql/postgres/bookkeeping), in order.
SELECT version, name, sha256, baseline, applied_at FROM msgx_schema_version ORDER BY version;

-- name: SchemaVersionAdd :exec
-- Records one migration as applied (or as a baseline, not executed).
INSERT INTO msgx_schema_version (version, name, sha256, baseline, applied_at)
VALUES (sqlc.arg(version)::text, sqlc.arg(name)::text, sqlc.arg(sha256)::text, sqlc.arg(baseline)::boolean, sqlc.arg(applied_at)::timestamptz);

-- name: SchemaVersionTableExists :one
-- Whether a schema has msgx_schema_version yet.
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = sqlc.arg(schema_name)::text AND tablename = 'msgx_schema_version') AS version_table;

-- name: SchemaHasTables :one
-- Whether a schema holds any table: msgx's tables without a version record
-- mean a database set up with `msgx schema apply` (needs --baseline).
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = sqlc.arg(schema_name)::text AND tablename <> 'msgx_schema_version') AS has_tables;
