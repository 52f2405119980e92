-- InboundBackfillMany: InboundBackfill (queries/mailbox.sql) for many rows
-- in one statement (one round trip instead of one per row). Not a sqlc query:
-- sqlc's MySQL parser does not know JSON_TABLE, so this file is embedded
-- (sql/embed.go, MailboxBackfillMany) and run by internal/mailbox. rows is one JSON array, one object per row:
-- {"id", "at", "status", and "sndr", "seqn", "dttm", "type", "styp" when not
-- NULL}; a key left out is NULL. JSON_TABLE makes it a derived table that
-- drives the join: each element finds its row by an eq_ref on the PRIMARY
-- key, so the statement reads the rows it updates and nothing else
-- (TestBackfillManyReadsOnlyItsRows). Rows backfilled before are left as
-- they are; ids that no longer exist match nothing.
UPDATE cminmsgs m
JOIN JSON_TABLE(?, '$[*]' COLUMNS (
  id BIGINT PATH '$.id',
  processed_at DATETIME PATH '$.at',
  status VARCHAR(20) PATH '$.status',
  sndr VARCHAR(4) PATH '$.sndr',
  seqn MEDIUMINT PATH '$.seqn',
  dttm DATETIME PATH '$.dttm',
  msg_type VARCHAR(4) PATH '$.type',
  msg_subtype VARCHAR(4) PATH '$.styp'
)) j ON m.CMINMSGS_ID = j.id
SET
  m.CMINMSGS_DATE_PROCESSED = j.processed_at,
  m.CMINMSGS_STATUS = j.status,
  m.CMINMSGS_SUBSYSTEM_NAME = j.sndr,
  m.CMINMSGS_SUBSYSTEM_SEQUENCE = j.seqn,
  m.CMINMSGS_SUBSYSTEM_DATE_SENT = j.dttm,
  m.CMINMSGS_SUBSYSTEM_TYPE = j.msg_type,
  m.CMINMSGS_SUBSYSTEM_SUBTYPE = j.msg_subtype
WHERE m.CMINMSGS_DATE_PROCESSED IS NULL;
