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

-- name: RefReplaceList :execrows
-- A matched reference RESP is the whole list: every key of the list it
-- lacks is deleted (the keys it carries are upserted one by one).
DELETE FROM ref_master WHERE rtype = @rtype AND NOT (rkey = ANY(@keep::text[]));
