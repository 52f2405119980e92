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
