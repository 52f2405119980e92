-- Oracle 11g twin of sql/postgres/queries/snapshot.sql (README.md here).
-- Days are DATE at midnight, bound as 'YYYY-MM-DD' text through TO_DATE.

-- name: SchdGenGet :one
SELECT * FROM schd_gen WHERE fday = TO_DATE(:fday, 'YYYY-MM-DD')

-- name: SchdGenCreate :execrows
-- First generation of a day; 0 rows when another snapshot created it first
-- (a concurrent first insert's ORA-00001 is also 0 rows, in the adapter).
MERGE INTO schd_gen t
USING (SELECT TO_DATE(:fday, 'YYYY-MM-DD') AS fday FROM DUAL) s
ON (t.fday = s.fday)
WHEN NOT MATCHED THEN INSERT (fday, version, last_message_id, content_digest, updated_at, msg_dttm_raw, msg_dttm)
  VALUES (s.fday, 1, :last_message_id, :content_digest, :now, :msg_dttm_raw, :msg_dttm)

-- name: SchdGenAdvance :execrows
UPDATE schd_gen SET
  version = version + 1,
  last_message_id = :last_message_id,
  content_digest = :content_digest,
  updated_at = :now,
  msg_dttm_raw = :msg_dttm_raw,
  msg_dttm = :msg_dttm
WHERE fday = TO_DATE(:fday, 'YYYY-MM-DD') AND version = :expected_version

-- name: SchdGenFlidReplace :exec
-- Deletes the day's members; SchdGenFlidInsert then inserts the new ones.
-- The PostgreSQL twin writes only the difference; here every member is
-- written again (one array-bound INSERT, no foreign key checks).
DELETE FROM schd_gen_flid WHERE fday = TO_DATE(:fday, 'YYYY-MM-DD')

-- name: SchdGenFlidInsert :copyfrom
-- step of: SchdGenFlidReplace
-- Executed array-bound (one element per row).
INSERT INTO schd_gen_flid (fday, flid) VALUES (TO_DATE(:fday, 'YYYY-MM-DD'), :flid)

-- name: SchdGenFlidListByDay :many
SELECT flid FROM schd_gen_flid WHERE fday = TO_DATE(:fday, 'YYYY-MM-DD') ORDER BY flid

-- name: SchdSnapLogInsert :exec
INSERT INTO schd_snap_log (
  snap_id, msg_id, msg_subtype, fday, gen_version, scope_begin, scope_end,
  record_count, changed, unchanged, pruned, kept_newer, recv_at, outcome, msg_dttm, stale_of)
VALUES (
  schd_snap_log_seq.NEXTVAL, :msg_id, :msg_subtype, TO_DATE(:fday, 'YYYY-MM-DD'), :gen_version, :scope_begin, :scope_end,
  :record_count, :changed, :unchanged, :pruned, :kept_newer, :recv_at, :outcome, :msg_dttm, :stale_of)

-- name: SchdSnapLogListByMessage :many
SELECT * FROM schd_snap_log WHERE msg_id = :msg_id ORDER BY fday, snap_id

-- name: SchdSnapLogPurge :one
-- Retention (90 days by default): rows received and whose scope ended before
-- :before, oldest first, at most :max_rows; count and oldest/newest RECV_AT
-- into the OUT binds; with :dry_run 1 nothing is deleted.
DECLARE
  batch SYS.ODCINUMBERLIST;
BEGIN
  SELECT snap_id BULK COLLECT INTO batch FROM (
    SELECT l.snap_id FROM schd_snap_log l
    WHERE l.recv_at < :before AND (l.scope_end IS NULL OR l.scope_end < :before)
    ORDER BY l.recv_at, l.snap_id
  ) WHERE ROWNUM <= :max_rows;
  SELECT COUNT(*), MIN(recv_at), MAX(recv_at) INTO :affected, :oldest, :newest
  FROM schd_snap_log WHERE snap_id IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  IF :dry_run = 0 THEN
    DELETE FROM schd_snap_log WHERE snap_id IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  END IF;
END;
