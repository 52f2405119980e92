-- name: StatusBackfill :many
-- Backfill todos for status and metrics (internal/status): one row (none when
-- there are no todos) with the oldest registration, how many todos there are
-- and how many failed at least once. The queue head, counts by status and the
-- outbox lag come from ProcStateListHead, ProcStateCountBacklogAndDead and EventLag.
SELECT
  created_at AS oldest,
  count(*) OVER () AS todos,
  count(*) FILTER (WHERE attempts > 0) OVER () AS failing
FROM backfill_todo
ORDER BY created_at
LIMIT 1;
