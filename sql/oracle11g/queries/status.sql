-- Oracle 11g twin of sql/postgres/queries/status.sql (README.md here).

-- name: StatusBackfill :many
-- One row (none without todos): the oldest registration, how many todos and
-- how many failed at least once (window aggregates before the ROWNUM cut).
SELECT oldest, todos, failing FROM (
  SELECT
    created_at AS oldest,
    COUNT(*) OVER () AS todos,
    COUNT(CASE WHEN attempts > 0 THEN 1 END) OVER () AS failing
  FROM backfill_todo
  ORDER BY created_at
) WHERE ROWNUM = 1
