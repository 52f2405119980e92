-- Oracle 11g twin of sql/postgres/queries/request.sql (README.md here).

-- name: ReqNextSeqn :one
-- MERGE has no RETURNING in 11g: the upsert and the read back in one block;
-- 1 first, back to 1 after the MEDIUMINT maximum; the row lock holds to commit.
BEGIN
  MERGE INTO req_seqn t
  USING (SELECT 1 AS id FROM DUAL) s
  ON (t.id = s.id)
  WHEN MATCHED THEN UPDATE SET t.seqn = CASE WHEN t.seqn >= 8388607 THEN 1 ELSE t.seqn + 1 END
  WHEN NOT MATCHED THEN INSERT (id, seqn) VALUES (1, 1);
  SELECT seqn INTO :seqn FROM req_seqn WHERE id = 1;
END;

-- name: ReqInsert :one
-- The other columns are the inserted values (REGISTERED, NULLs), known to the adapter.
INSERT INTO req_track (req_id, req_type, req_key, list_code, range_begin, range_end, sender, seqn, status, registered_at, expires_at, origin)
VALUES (req_track_seq.NEXTVAL, :req_type, :req_key, :list_code, :range_begin, :range_end, :sender, :seqn, 'REGISTERED', :now, :expires_at, :origin)
RETURNING req_id INTO :req_id

-- name: ReqGet :one
SELECT * FROM req_track WHERE req_id = :req_id

-- name: ReqOpenForUpdate :one
SELECT * FROM req_track
WHERE CASE WHEN status IN ('REGISTERED', 'SENT') THEN req_key END = :req_key
FOR UPDATE

-- name: ReqLastDone :one
SELECT * FROM (
  SELECT * FROM req_track WHERE req_key = :req_key AND status = 'DONE' ORDER BY done_at DESC, req_id DESC
) WHERE ROWNUM <= 1

-- name: ReqListOpen :many
SELECT * FROM req_track WHERE status IN ('REGISTERED', 'SENT') ORDER BY req_id

-- name: ReqList :many
SELECT * FROM (
  SELECT * FROM req_track WHERE req_id < :before_id ORDER BY req_id DESC
) WHERE ROWNUM <= :page_size

-- name: ReqMarkSent :execrows
UPDATE req_track SET status = 'SENT', outbound_id = :outbound_id, sent_at = :sent_at, expires_at = :expires_at
WHERE req_id = :req_id AND status = 'REGISTERED'

-- name: ReqMarkDone :execrows
UPDATE req_track SET status = 'DONE', response_msg_id = :response_msg_id, done_at = :now, match_rule = :match_rule
WHERE req_id = :req_id AND status = 'SENT'

-- name: ReqExpireKey :many
-- Step 1 of 2: the open request of a key, locked; step 2 (ReqExpireIDs) expires it.
SELECT req_id FROM req_track
WHERE CASE WHEN status IN ('REGISTERED', 'SENT') THEN req_key END = :req_key
FOR UPDATE

-- name: ReqCountDue :one
-- What the expiry job would expire now (its dry run): open requests past
-- their deadline, with the oldest and newest deadline.
SELECT COUNT(*) AS due, NVL(MIN(expires_at), :now) AS oldest, NVL(MAX(expires_at), :now) AS newest
FROM req_track
WHERE status IN ('REGISTERED', 'SENT') AND expires_at <= :now

-- name: ReqExpireDue :many
-- Step 1 of 2: open requests past their deadline, oldest first; the adapter
-- keeps the first max_rows it could lock (SKIP LOCKED cannot be combined
-- with ROWNUM in one query block) and expires them with ReqExpireIDs.
SELECT req_id FROM req_track
WHERE status IN ('REGISTERED', 'SENT') AND expires_at <= :now
ORDER BY req_id
FOR UPDATE SKIP LOCKED

-- name: ReqExpireIDs :execrows
-- step of: ReqExpireKey, ReqExpireDue
-- Step 2 of ReqExpireKey and ReqExpireDue: expire the locked ids, with the
-- given note or (NULL) the reason of the deadline.
UPDATE req_track SET status = 'EXPIRED', done_at = :now,
  note = COALESCE(:note, CASE WHEN status = 'SENT' THEN 'timed out: no answer by expires_at' ELSE 'never sent: no outbound row by expires_at' END)
WHERE req_id IN (SELECT COLUMN_VALUE FROM TABLE(:req_ids))
  AND status IN ('REGISTERED', 'SENT')
