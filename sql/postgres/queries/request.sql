-- Requests to the AODB (REQ_TRACK, docs/design.md §7).

-- name: ReqNextSeqn :one
-- The META SEQN of the next request: 1 first, then one more, back to 1
-- after the MEDIUMINT maximum.
INSERT INTO req_seqn AS s (id, seqn) VALUES (1, 1)
ON CONFLICT (id) DO UPDATE SET seqn = CASE WHEN s.seqn >= 8388607 THEN 1 ELSE s.seqn + 1 END
RETURNING seqn;

-- name: ReqInsert :one
-- Registers a request; the partial unique index refuses a second open one of the same key.
INSERT INTO req_track (req_type, req_key, list_code, range_begin, range_end, sender, seqn, status, registered_at, expires_at, origin)
VALUES (@req_type, @req_key, @list_code, @range_begin, @range_end, @sender, @seqn, 'REGISTERED', @now, @expires_at, @origin)
RETURNING *;

-- name: ReqGet :one
SELECT * FROM req_track WHERE req_id = @req_id;

-- name: ReqOpenForUpdate :one
-- The open request of a key, locked for the transaction that answers or
-- supersedes it.
SELECT * FROM req_track WHERE req_key = @req_key AND status IN ('REGISTERED', 'SENT') FOR UPDATE;

-- name: ReqLastDone :one
-- The request of a key answered last: an automatic trigger registers
-- nothing within request.timeout of an answer.
SELECT * FROM req_track WHERE req_key = @req_key AND status = 'DONE'
ORDER BY done_at DESC, req_id DESC LIMIT 1;

-- name: ReqListOpen :many
SELECT * FROM req_track WHERE status IN ('REGISTERED', 'SENT') ORDER BY req_id;

-- name: ReqList :many
-- The newest requests first.
SELECT * FROM req_track WHERE req_id < @before_id ORDER BY req_id DESC LIMIT @page_size;

-- name: ReqMarkSent :execrows
UPDATE req_track SET status = 'SENT', outbound_id = @outbound_id, sent_at = @sent_at::timestamptz, expires_at = @expires_at::timestamptz
WHERE req_id = @req_id AND status = 'REGISTERED';

-- name: ReqMarkDone :execrows
UPDATE req_track SET status = 'DONE', response_msg_id = @response_msg_id, done_at = @now::timestamptz, match_rule = @match_rule
WHERE req_id = @req_id AND status = 'SENT';

-- name: ReqExpireKey :many
-- Expires the open request of a key (a new one of the same kind supersedes it).
UPDATE req_track SET status = 'EXPIRED', done_at = @now::timestamptz, note = @note
WHERE req_key = @req_key AND status IN ('REGISTERED', 'SENT')
RETURNING req_id;

-- name: ReqCountDue :one
-- What the expiry job would expire now (its dry run): open requests past
-- their deadline, with the oldest and newest deadline.
SELECT count(*) AS due, COALESCE(min(expires_at), @now::timestamptz)::timestamptz AS oldest,
  COALESCE(max(expires_at), @now::timestamptz)::timestamptz AS newest
FROM req_track
WHERE status IN ('REGISTERED', 'SENT') AND expires_at <= @now::timestamptz;

-- name: ReqExpireDue :many
-- Expires open requests past their deadline, oldest first, bounded.
UPDATE req_track SET status = 'EXPIRED', done_at = @now::timestamptz,
  note = CASE WHEN status = 'SENT' THEN 'timed out: no answer by expires_at' ELSE 'never sent: no outbound row by expires_at' END
WHERE req_id IN (
  SELECT req_id FROM req_track
  WHERE status IN ('REGISTERED', 'SENT') AND expires_at <= @now::timestamptz
  ORDER BY req_id LIMIT @max_rows FOR UPDATE SKIP LOCKED)
RETURNING req_id;
