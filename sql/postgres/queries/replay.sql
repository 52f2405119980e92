-- Replay in bounded batches and the flights' last change, for internal/replay
-- (msgx replay, POST /admin/replay). The replayable classes are CODEC_ERROR,
-- UNSUPPORTED, INFRA and EXHAUSTED (docs/design.md §3).

-- name: ReplayCandidates :many
-- What a replay would move back to PENDING, paged by MSG_ID: FAILED/DEAD rows
-- of the replayable classes, among @msg_ids when given (NULL: any id), of one
-- class when given.
SELECT * FROM proc_state
WHERE status IN ('FAILED', 'DEAD')
  AND error_class IN ('CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')
  AND msg_id > @after_msg_id
  AND (sqlc.narg(msg_ids)::bigint[] IS NULL OR msg_id = ANY(sqlc.narg(msg_ids)::bigint[]))
  AND (sqlc.narg(error_class)::varchar IS NULL OR error_class = sqlc.narg(error_class))
ORDER BY msg_id
LIMIT @max_rows;

-- name: ReplayByIDs :many
-- Moves those of @msg_ids that are FAILED/DEAD of a replayable class back to
-- PENDING (attempts, next attempt and the head-deadline's start reset,
-- identity kept, the old error kept as audit). One bounded batch per call.
-- A replayed id re-enters the queue, maybe inside the range of a run the
-- pump has read (a finished id above the head, after a late row): like an
-- enqueue below the largest known id it counts itself in PIPELINE_LOCK's
-- enqueued_below, under that lock, so such a run is abandoned
-- (ProcStateListRun, PipelineLockAcquire). The lock row is taken first
-- (the move reads the count's result), in the pump's order: lock row, then
-- queue rows.
WITH counted AS (
  INSERT INTO pipeline_lock (id, locked_at, enqueued_below) VALUES (1, @now, 1)
  ON CONFLICT (id) DO UPDATE SET locked_at = EXCLUDED.locked_at,
    enqueued_below = pipeline_lock.enqueued_below + 1
  RETURNING enqueued_below
)
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
  updated_at = @now
WHERE status IN ('FAILED', 'DEAD')
  AND error_class IN ('CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')
  AND msg_id = ANY(@msg_ids::bigint[])
  AND EXISTS (SELECT 1 FROM counted)
RETURNING msg_id;

-- name: FlightMarks :many
-- What the flight rows record about their last change (the message that last
-- changed the state and the version it made), for the flights that exist.
SELECT flid, state_version, last_message_id, lifecycle, operation_day, updated_at
FROM flight_schd
WHERE flid = ANY(@flids::bigint[])
ORDER BY flid;
