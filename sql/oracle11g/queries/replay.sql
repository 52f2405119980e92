-- Oracle 11g twin of sql/postgres/queries/replay.sql (README.md here).

-- name: ReplayCandidates :many
-- :any_id is 1 when no id list is given (PostgreSQL: a NULL array).
SELECT * FROM (
  SELECT * FROM proc_state
  WHERE status IN ('FAILED', 'DEAD')
    AND error_class IN ('CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')
    AND msg_id > :after_msg_id
    AND (:any_id = 1 OR msg_id IN (SELECT COLUMN_VALUE FROM TABLE(:msg_ids)))
    AND (:error_class IS NULL OR error_class = :error_class)
  ORDER BY msg_id
) WHERE ROWNUM <= :max_rows

-- name: ReplayByIDs :many
-- Step 1 of 2 (no multi-row RETURNING without an array out bind): lock the
-- replayable rows among :msg_ids; step 2 moves exactly those. The adapter
-- takes PIPELINE_LOCK before, counting the replay as an enqueue below the
-- largest known id (PipelineLockEnqueueBelow): a replayed id may re-enter
-- inside a run the pump has read.
SELECT msg_id FROM proc_state
WHERE status IN ('FAILED', 'DEAD')
  AND error_class IN ('CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')
  AND msg_id IN (SELECT COLUMN_VALUE FROM TABLE(:msg_ids))
ORDER BY msg_id
FOR UPDATE

-- name: ReplayByIDsMove :execrows
-- step of: ReplayByIDs
-- Step 2: back to PENDING, attempts and head-deadline reset, old error kept as audit.
UPDATE proc_state SET
  status = 'PENDING',
  attempts = 0,
  next_attempt_at = NULL,
  failing_since = NULL,
  prev_error_class = error_class,
  prev_reason = reason,
  error_class = NULL,
  reason = NULL,
  finished_at = NULL,
  replay_count = replay_count + 1,
  updated_at = :now
WHERE msg_id IN (SELECT COLUMN_VALUE FROM TABLE(:msg_ids))
  AND status IN ('FAILED', 'DEAD')
  AND error_class IN ('CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')

-- name: FlightMarks :many
SELECT flid, state_version, last_message_id, lifecycle, operation_day, updated_at
FROM flight_schd
WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))
ORDER BY flid
