-- Oracle 11g twin of sql/postgres/queries/reference.sql (README.md here).

-- name: RefUpsert :execrows
-- The version advances only when the record changed; a matched row the
-- WHERE filters out is not counted (0 rows = already identical).
MERGE INTO ref_master t
USING (SELECT :rtype AS rtype, :rkey AS rkey, :record AS record,
    :last_message_id AS last_message_id, :now AS now_at FROM DUAL) s
ON (t.rtype = s.rtype AND t.rkey = s.rkey)
WHEN MATCHED THEN UPDATE SET
  t.record = s.record,
  t.version = t.version + 1,
  t.last_message_id = s.last_message_id,
  t.updated_at = s.now_at
  WHERE DBMS_LOB.COMPARE(t.record, s.record) <> 0
WHEN NOT MATCHED THEN INSERT (rtype, rkey, record, version, last_message_id, created_at, updated_at)
  VALUES (s.rtype, s.rkey, s.record, 1, s.last_message_id, s.now_at, s.now_at)

-- name: RefDelete :execrows
DELETE FROM ref_master WHERE rtype = :rtype AND rkey = :rkey

-- name: RefGet :one
SELECT * FROM ref_master WHERE rtype = :rtype AND rkey = :rkey

-- name: RefListByType :many
-- Keyset paging needs NLS_SORT = NLS_COMP = BINARY (set by the adapter).
SELECT * FROM (
  SELECT * FROM ref_master WHERE rtype = :rtype AND rkey > :after_rkey ORDER BY rkey
) WHERE ROWNUM <= :page_size

-- name: RefReplaceList :execrows
-- Every key of the list that :keep lacks is deleted (empty: the whole list).
DELETE FROM ref_master
WHERE rtype = :rtype AND rkey NOT IN (SELECT COLUMN_VALUE FROM TABLE(:keep))
