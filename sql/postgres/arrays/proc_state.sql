-- name: ProcStateFinishMany :many
-- Moves unfinished messages to their terminal status (SUCCEEDED, SKIPPED,
-- DEAD), all rows of a run in one statement. A row with bind = true also
-- binds identity, kind and META in the same row write (without it they are
-- kept). Returns the ids finished.
-- Each row is finished only while it is as the pump read it (read_status,
-- read_replay_count, read_identity: vocab.RowRead), in place of a FOR UPDATE
-- read before it: a replay, or any writer, committed since the read fails
-- the check, and one in flight makes this UPDATE wait for it and check its
-- new row version (READ COMMITTED). The caller compares the ids returned
-- with the ids sent. A NULL read_status checks only that the row is
-- unfinished; a NULL read_replay_count is 0, a NULL read_identity none bound
-- (NULL and '' alike, as the store reads them).
-- The rows travel as one array per column, element i of each the column of
-- finish i (a NULL element: a NULL column; a NULL array: the column NULL in
-- every row, as unnest in the select list pads a shorter result with NULLs),
-- read a row of every array at a time (a ProjectSet). Binary arrays cost
-- PostgreSQL a third less per row than json_to_recordset, which parsed each
-- object's keys into a hash (issue #34, docs/dev/performance-notes.md), and
-- no more for a single row; unnest(a, b, ...) in FROM would be as slow as
-- the JSON (a function scan per array).
UPDATE proc_state p SET
  identity_key = CASE WHEN v.bind THEN v.identity_key ELSE p.identity_key END,
  kind = CASE WHEN v.bind THEN v.kind ELSE p.kind END,
  msg_type = CASE WHEN v.bind THEN v.msg_type ELSE p.msg_type END,
  msg_subtype = CASE WHEN v.bind THEN v.msg_subtype ELSE p.msg_subtype END,
  meta_sndr = CASE WHEN v.bind THEN v.meta_sndr ELSE p.meta_sndr END,
  meta_seqn = CASE WHEN v.bind THEN v.meta_seqn ELSE p.meta_seqn END,
  meta_dttm_raw = CASE WHEN v.bind THEN v.meta_dttm_raw ELSE p.meta_dttm_raw END,
  meta_dttm = CASE WHEN v.bind THEN v.meta_dttm ELSE p.meta_dttm END,
  raw_digest = CASE WHEN v.bind AND v.raw_digest IS NOT NULL THEN v.raw_digest ELSE p.raw_digest END,
  status = v.status,
  error_class = v.error_class,
  reason = v.reason,
  duplicate_of = v.duplicate_of,
  next_attempt_at = NULL,
  finished_at = @now::timestamptz,
  updated_at = @now::timestamptz
FROM (SELECT
  unnest(@msg_id::bigint[]) AS msg_id,
  unnest(@status::varchar[]) AS status,
  unnest(@error_class::varchar[]) AS error_class,
  unnest(@reason::varchar[]) AS reason,
  unnest(@duplicate_of::bigint[]) AS duplicate_of,
  unnest(@bind::boolean[]) AS bind,
  unnest(@identity_key::varchar[]) AS identity_key,
  unnest(@kind::varchar[]) AS kind,
  unnest(@msg_type::varchar[]) AS msg_type,
  unnest(@msg_subtype::varchar[]) AS msg_subtype,
  unnest(@meta_sndr::varchar[]) AS meta_sndr,
  unnest(@meta_seqn::bigint[]) AS meta_seqn,
  unnest(@meta_dttm_raw::varchar[]) AS meta_dttm_raw,
  unnest(@meta_dttm::timestamptz[]) AS meta_dttm,
  unnest(@raw_digest::bytea[]) AS raw_digest,
  unnest(@read_status::varchar[]) AS read_status,
  unnest(@read_replay_count::bigint[]) AS read_replay_count,
  unnest(@read_identity::varchar[]) AS read_identity) v
WHERE p.msg_id = v.msg_id AND p.status IN ('PENDING', 'FAILED')
  AND (v.read_status IS NULL OR (p.status = v.read_status
    AND p.replay_count = COALESCE(v.read_replay_count, 0)
    AND COALESCE(p.identity_key, '') = COALESCE(v.read_identity, '')))
RETURNING p.msg_id;
