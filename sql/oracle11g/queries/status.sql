-- Oracle 11g twin of sql/postgres/queries/status.sql (README.md here).

-- name: StatusBackfill :many
-- Outstanding backfills: the todos and the terminal messages above the
-- backfill mark (no replay's: it has a todo). One row (none when nothing is
-- outstanding): the oldest, how many, how many failed at least once.
SELECT MIN(o.since) AS oldest, COUNT(*) AS todos, COUNT(CASE WHEN o.attempts > 0 THEN 1 END) AS failing
FROM (
  SELECT b.created_at AS since, b.attempts FROM backfill_todo b
  UNION ALL
  SELECT p.finished_at, 0 FROM proc_state p
  WHERE p.msg_id > NVL((SELECT m.through_msg_id FROM backfill_mark m WHERE m.id = 1), 0)
    AND p.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD') AND p.replay_count = 0
    AND NOT EXISTS (SELECT 1 FROM backfill_todo b WHERE b.msg_id = p.msg_id)
) o
HAVING COUNT(*) > 0
