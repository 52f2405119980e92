-- name: SchdGenGet :one
SELECT * FROM schd_gen WHERE fday = @fday;

-- name: SchdGenCreate :execrows
-- First generation of a day; 0 rows when another snapshot created it first.
INSERT INTO schd_gen (fday, version, last_message_id, content_digest, updated_at, msg_dttm_raw, msg_dttm)
VALUES (@fday, 1, @last_message_id, @content_digest, @now, @msg_dttm_raw, @msg_dttm)
ON CONFLICT (fday) DO NOTHING;

-- name: SchdGenAdvance :execrows
-- Compare-and-set: advances the day's generation by exactly one from the
-- version the caller read; 0 rows when it moved meanwhile.
UPDATE schd_gen SET
  version = version + 1,
  last_message_id = @last_message_id,
  content_digest = @content_digest,
  updated_at = @now,
  msg_dttm_raw = @msg_dttm_raw,
  msg_dttm = @msg_dttm
WHERE fday = @fday AND version = @expected_version;

-- name: SchdGenFlidReplace :exec
-- Makes @flids the members of the day's generation, writing only the
-- difference: the members it lacks are deleted, the flights not yet members
-- inserted, so a snapshot of the same flights (the daily resend) writes no
-- row. The difference is a full join of the day's members (primary key
-- prefix) and the list, which PostgreSQL can only run as a hash or merge
-- join: on a new day the statistics know none of the day's rows, and the
-- anti-joins this was before then became nested loops comparing every member
-- with every listed flight (issue #35). A FLID listed twice fails on the
-- primary key.
WITH diff AS (
  SELECT m.flid AS member, l.flid AS listed
  FROM (SELECT g.flid FROM schd_gen_flid g WHERE g.fday = @fday) m
  FULL JOIN unnest(@flids::bigint[]) AS l(flid) ON l.flid = m.flid
  WHERE m.flid IS NULL OR l.flid IS NULL
), gone AS (
  DELETE FROM schd_gen_flid g USING diff d
  WHERE g.fday = @fday AND g.flid = d.member
)
INSERT INTO schd_gen_flid (fday, flid)
SELECT @fday, d.listed FROM diff d
WHERE d.listed IS NOT NULL;

-- name: SchdGenFlidListByDay :many
SELECT flid FROM schd_gen_flid WHERE fday = @fday ORDER BY flid;

-- name: SchdSnapLogInsert :exec
-- One row per message and flight day: APPLIED, or STALE (left alone).
INSERT INTO schd_snap_log (
  msg_id, msg_subtype, fday, gen_version, scope_begin, scope_end,
  record_count, changed, unchanged, pruned, kept_newer, recv_at, outcome, msg_dttm, stale_of)
VALUES (
  @msg_id, @msg_subtype, @fday, @gen_version, @scope_begin, @scope_end,
  @record_count, @changed, @unchanged, @pruned, @kept_newer, @recv_at, @outcome, @msg_dttm, @stale_of);

-- name: SchdSnapLogListByMessage :many
SELECT * FROM schd_snap_log WHERE msg_id = @msg_id ORDER BY fday, snap_id;

-- name: SchdSnapLogPurge :one
-- Retention (90 days by default): rows received and whose scope ended before
-- the cut-off, oldest first, at most @max_rows; with @dry_run only counts.
-- Oldest/newest: RECV_AT.
WITH doomed AS (
  SELECT l.snap_id, l.recv_at FROM schd_snap_log l
  WHERE l.recv_at < @before::timestamptz AND (l.scope_end IS NULL OR l.scope_end < @before::timestamptz)
  ORDER BY l.recv_at, l.snap_id
  LIMIT @max_rows
), gone AS (
  DELETE FROM schd_snap_log l USING doomed d
  WHERE l.snap_id = d.snap_id AND NOT @dry_run::boolean
  RETURNING l.snap_id
)
SELECT count(*) AS affected, min(d.recv_at) AS oldest, max(d.recv_at) AS newest,
  (SELECT count(*) FROM gone) AS deleted
FROM doomed d;
