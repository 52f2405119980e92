-- name: RefUpsert :execrows
-- Inserts or replaces a reference record; the version advances only when the
-- record changed (0 rows = already identical).
INSERT INTO ref_master (rtype, rkey, record, version, last_message_id, created_at, updated_at)
VALUES (@rtype, @rkey, @record, 1, @last_message_id, @now, @now)
ON CONFLICT (rtype, rkey) DO UPDATE SET
  record = EXCLUDED.record,
  version = ref_master.version + 1,
  last_message_id = EXCLUDED.last_message_id,
  updated_at = EXCLUDED.updated_at
WHERE ref_master.record IS DISTINCT FROM EXCLUDED.record;

-- name: RefDelete :execrows
DELETE FROM ref_master WHERE rtype = @rtype AND rkey = @rkey;

-- name: RefGet :one
SELECT * FROM ref_master WHERE rtype = @rtype AND rkey = @rkey;

-- name: RefListByType :many
SELECT * FROM ref_master WHERE rtype = @rtype AND rkey > @after_rkey ORDER BY rkey LIMIT @page_size;

-- name: ReqInsert :one
-- Registers a request; the partial unique index refuses a second open one of the same key.
INSERT INTO req_track (req_type, req_key, list_code, range_begin, range_end, sender, seqn, status, registered_at, expires_at)
VALUES (@req_type, @req_key, @list_code, @range_begin, @range_end, @sender, @seqn, 'REGISTERED', @now, @expires_at)
RETURNING *;

-- name: ReqGetOpen :one
SELECT * FROM req_track WHERE req_key = @req_key AND status IN ('REGISTERED', 'SENT');

-- name: ReqMarkSent :execrows
UPDATE req_track SET status = 'SENT', outbound_id = @outbound_id, sent_at = @now::timestamptz
WHERE req_id = @req_id AND status = 'REGISTERED';

-- name: ReqMarkDone :execrows
UPDATE req_track SET status = 'DONE', response_msg_id = @response_msg_id, done_at = @now::timestamptz
WHERE req_id = @req_id AND status = 'SENT';

-- name: ReqExpire :execrows
-- Expires open requests of a key (before a new one) or past their deadline.
UPDATE req_track SET status = 'EXPIRED', done_at = @now::timestamptz, note = @note
WHERE status IN ('REGISTERED', 'SENT')
  AND (req_key = sqlc.narg(req_key) OR expires_at <= @now);
