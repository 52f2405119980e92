-- name: StatusBackfill :many
-- Outstanding backfills for status and metrics (internal/status): the todos
-- and the terminal messages above the backfill mark (no replay's: it has a
-- todo). One row (none when nothing is outstanding) with the oldest (a
-- todo's registration, a message's finish), how many and how many failed
-- at least once. Above the mark are the messages of the last commits, a
-- range of the primary key. The queue head, counts by status and the outbox
-- lag come from ProcStateListHead, ProcStateCountBacklogAndDead and EventLag.
WITH m AS (SELECT COALESCE((SELECT through_msg_id FROM backfill_mark WHERE id = 1), 0) AS through),
o AS (
  SELECT b.created_at AS since, b.attempts FROM backfill_todo b
  UNION ALL
  SELECT p.finished_at, 0 FROM proc_state p, m
  WHERE p.msg_id > m.through AND p.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD') AND p.replay_count = 0
    AND NOT EXISTS (SELECT 1 FROM backfill_todo b WHERE b.msg_id = p.msg_id)
)
SELECT min(o.since)::timestamptz AS oldest, count(*) AS todos, count(*) FILTER (WHERE o.attempts > 0) AS failing
FROM o
HAVING count(*) > 0;
