-- name: BackfillTodoAdd :exec
-- Registers backfills in the business transaction, all todos of a run in one
-- statement, one array per column read in the select list (as
-- ProcStateFinishMany's rows). A message that reaches a terminal status
-- again after a replay overwrites its pending todo, under its new
-- registration (rule 18).
INSERT INTO backfill_todo (
  msg_id, mailbox_status, processed_at, meta_sndr, meta_seqn, meta_dttm, meta_type, meta_styp,
  attempts, next_attempt_at, last_error, created_at, registration)
SELECT v.msg_id, v.mailbox_status, v.processed_at, v.meta_sndr, v.meta_seqn, v.meta_dttm, v.meta_type, v.meta_styp,
  0, v.processed_at, NULL, v.processed_at, v.registration
FROM (SELECT
  unnest(@msg_id::bigint[]) AS msg_id,
  unnest(@mailbox_status::varchar[]) AS mailbox_status,
  unnest(@processed_at::timestamptz[]) AS processed_at,
  unnest(@meta_sndr::varchar[]) AS meta_sndr,
  unnest(@meta_seqn::bigint[]) AS meta_seqn,
  unnest(@meta_dttm::timestamptz[]) AS meta_dttm,
  unnest(@meta_type::varchar[]) AS meta_type,
  unnest(@meta_styp::varchar[]) AS meta_styp,
  unnest(@registration::bigint[]) AS registration) v
ON CONFLICT (msg_id) DO UPDATE SET
  mailbox_status = EXCLUDED.mailbox_status,
  processed_at = EXCLUDED.processed_at,
  meta_sndr = EXCLUDED.meta_sndr,
  meta_seqn = EXCLUDED.meta_seqn,
  meta_dttm = EXCLUDED.meta_dttm,
  meta_type = EXCLUDED.meta_type,
  meta_styp = EXCLUDED.meta_styp,
  attempts = 0,
  next_attempt_at = EXCLUDED.next_attempt_at,
  last_error = NULL,
  registration = EXCLUDED.registration;
