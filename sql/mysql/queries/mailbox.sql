-- name: InboundListAfter :many
-- Unprocessed rows after the watermark, in ID order, bounded.
SELECT CMINMSGS_ID FROM cminmsgs
WHERE CMINMSGS_DATE_PROCESSED IS NULL AND CMINMSGS_ID > sqlc.arg(after_id)
ORDER BY CMINMSGS_ID
LIMIT ?;

-- name: InboundRescan :many
-- Bounded rescan behind the watermark: unprocessed rows in (from_id, to_id]
-- received after a cut-off (or without a receive time), so a row committed late
-- with a smaller ID is still found. It reads the primary key over the window
-- and stops at the limit: O(RescanDistance) at most. The test of
-- DATE_PROCESSED is wrapped (COALESCE) so no index on it is usable: MariaDB
-- 10.11 otherwise picks a ref lookup of DATE_PROCESSED IS NULL on
-- cminmsgs_unprocessed_ix and filters the id range row by row, reading every
-- unprocessed row of the table before the window on each poll
-- (TestRescanReadsOnlyItsWindow).
SELECT CMINMSGS_ID FROM cminmsgs
WHERE COALESCE(CMINMSGS_DATE_PROCESSED) IS NULL
  AND CMINMSGS_ID > sqlc.arg(from_id) AND CMINMSGS_ID <= sqlc.arg(to_id)
  AND (CMINMSGS_DATE_RECEIVED IS NULL OR CMINMSGS_DATE_RECEIVED >= sqlc.arg(received_after))
ORDER BY CMINMSGS_ID
LIMIT ?;

-- name: InboundVisibleAfter :many
-- Every row after the watermark, processed or not, in ID order, bounded: the
-- poller needs the ids that exist to find the holes (ids no row has while a
-- larger one is visible; docs/design.md §1.1) and enqueues the unprocessed,
-- with the byte length of each XML: the pump's byte budget then needs no
-- second read of the rows (it reads the rows here anyway: the primary key is
-- the table).
SELECT CMINMSGS_ID, CMINMSGS_DATE_PROCESSED IS NOT NULL AS processed, LENGTH(CMINMSGS_CLOB_MSG) AS size FROM cminmsgs
WHERE CMINMSGS_ID > sqlc.arg(after_id)
ORDER BY CMINMSGS_ID
LIMIT ?;

-- name: InboundUnprocessedPage :many
-- The reconciliation pass (docs/design.md §1.1): unprocessed rows in
-- (after_id, up_to], in ID order, one bounded page. It wants the index
-- cminmsgs_unprocessed_ix (CMINMSGS_DATE_PROCESSED, CMINMSGS_ID) from the
-- AODB's DBA: then a page reads only unprocessed rows, however old the table.
-- MariaDB 10.11 takes a range over both key parts, (NULL, after_id] to
-- (NULL, up_to], and stops at the limit: a page reads its rows, never the
-- unprocessed backlog before after_id (TestUnprocessedPageReadsOnlyItsPage).
SELECT CMINMSGS_ID FROM cminmsgs
WHERE CMINMSGS_DATE_PROCESSED IS NULL
  AND CMINMSGS_ID > sqlc.arg(after_id) AND CMINMSGS_ID <= sqlc.arg(up_to)
ORDER BY CMINMSGS_ID
LIMIT ?;

-- name: InboundListAfterAny :many
-- Shadow mode: every row after the watermark, processed or not (another
-- system may be backfilling them while msgx only watches).
SELECT CMINMSGS_ID FROM cminmsgs
WHERE CMINMSGS_ID > sqlc.arg(after_id)
ORDER BY CMINMSGS_ID
LIMIT ?;

-- name: InboundRescanAny :many
-- Shadow mode: the bounded rescan, processed or not.
SELECT CMINMSGS_ID FROM cminmsgs
WHERE CMINMSGS_ID > sqlc.arg(from_id) AND CMINMSGS_ID <= sqlc.arg(to_id)
  AND (CMINMSGS_DATE_RECEIVED IS NULL OR CMINMSGS_DATE_RECEIVED >= sqlc.arg(received_after))
ORDER BY CMINMSGS_ID
LIMIT ?;

-- name: InboundGetRaw :one
SELECT CMINMSGS_CLOB_MSG FROM cminmsgs WHERE CMINMSGS_ID = ?;

-- name: InboundGetRawMany :many
-- The XML of the messages of a run, in one round trip.
SELECT CMINMSGS_ID, CMINMSGS_CLOB_MSG FROM cminmsgs WHERE CMINMSGS_ID IN (sqlc.slice(ids));

-- name: InboundGetRawRange :many
-- InboundGetRawMany for consecutive ids (a run's usually are): one range of
-- the PRIMARY key, each row read by next, no list of ids to parse (≈ 1.5 µs
-- of server CPU per id: docs/dev/performance-notes.md). A plain read takes no locks.
SELECT CMINMSGS_ID, CMINMSGS_CLOB_MSG FROM cminmsgs
WHERE CMINMSGS_ID BETWEEN sqlc.arg(first) AND sqlc.arg(last);

-- name: InboundGet :one
SELECT * FROM cminmsgs WHERE CMINMSGS_ID = ?;

-- name: InboundState :one
-- The processing columns of a row without its CLOB: whether it exists and
-- whether (and how) it was backfilled.
SELECT CMINMSGS_ID, CMINMSGS_DATE_RECEIVED, CMINMSGS_DATE_PROCESSED, CMINMSGS_STATUS,
  CMINMSGS_SUBSYSTEM_NAME, CMINMSGS_SUBSYSTEM_SEQUENCE, CMINMSGS_SUBSYSTEM_DATE_SENT,
  CMINMSGS_SUBSYSTEM_TYPE, CMINMSGS_SUBSYSTEM_SUBTYPE
FROM cminmsgs WHERE CMINMSGS_ID = ?;

-- name: InboundInsert :execlastid
-- HTTP /cminmsgs/send: the raw body as a new inbound row.
INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_STATUS)
VALUES (sqlc.arg(body), sqlc.arg(received_at), 'VALID');

-- name: InboundBackfill :execrows
-- Writes the terminal outcome and META of a processed row, once: while
-- DATE_PROCESSED is NULL. Rule 18's one exception: with overwrites_status
-- (DEAD, a replayed message) a row that still holds msgx's own earlier
-- backfill — that STATUS and the same META (the was_* values, = the new
-- ones), or no META at all (the message died before its META decoded) — is
-- written again with the new outcome.
UPDATE cminmsgs SET
  CMINMSGS_DATE_PROCESSED = sqlc.arg(processed_at),
  CMINMSGS_STATUS = sqlc.arg(status),
  CMINMSGS_SUBSYSTEM_NAME = sqlc.arg(sndr),
  CMINMSGS_SUBSYSTEM_SEQUENCE = sqlc.arg(seqn),
  CMINMSGS_SUBSYSTEM_DATE_SENT = sqlc.arg(dttm),
  CMINMSGS_SUBSYSTEM_TYPE = sqlc.arg(msg_type),
  CMINMSGS_SUBSYSTEM_SUBTYPE = sqlc.arg(msg_subtype)
WHERE CMINMSGS_ID = sqlc.arg(id)
  AND (CMINMSGS_DATE_PROCESSED IS NULL
    OR (CMINMSGS_STATUS = sqlc.narg(overwrites_status)
      AND ((CMINMSGS_SUBSYSTEM_NAME <=> sqlc.arg(was_sndr)
          AND CMINMSGS_SUBSYSTEM_SEQUENCE <=> sqlc.arg(was_seqn)
          AND CMINMSGS_SUBSYSTEM_TYPE <=> sqlc.arg(was_msg_type)
          AND CMINMSGS_SUBSYSTEM_SUBTYPE <=> sqlc.arg(was_msg_subtype))
        OR (CMINMSGS_SUBSYSTEM_NAME IS NULL AND CMINMSGS_SUBSYSTEM_SEQUENCE IS NULL
          AND CMINMSGS_SUBSYSTEM_TYPE IS NULL AND CMINMSGS_SUBSYSTEM_SUBTYPE IS NULL))));

-- name: OutboundInsert :execlastid
-- An outbound request (RQFD/RQRD) for the AODB.
INSERT INTO coutmsgs (COUTMSGS_CLOB_MSG, COUTMSGS_DATE_INSERTED, ROUTINGID)
VALUES (sqlc.arg(body), sqlc.arg(inserted_at), sqlc.arg(routing_id));

-- name: OutboundGet :one
SELECT * FROM coutmsgs WHERE COUTMSGS_ID = ?;

-- name: InboundBackfillMany :execrows
-- InboundBackfill for many rows in one statement (one round trip instead of
-- one per row), for rows without an overwrite condition. The rows' ids are
-- in ids. A column whose value is the same for every row of the statement
-- (STATUS, SNDR, TYPE and DATE_PROCESSED mostly are) is that one value, X_all:
-- otherwise X_all is NULL and the list X has one element per id of
-- (before_first, before_first + len], so a row's value is at position
-- CMINMSGS_ID - before_first: ELT picks it in O(1), no search. (ELT(FIELD(id,
-- ids…)) once searched the chunk's ids per row and column, O(rows × chunk),
-- and a JSON_TABLE joined on the key made a multi-table update that parses
-- JSON and buffers its rows: docs/dev/performance-notes.md.) Every literal of the
-- statement costs the server a parse and an item, about as much as a row's
-- read, hence the one value instead of a list where it can. Positions of ids
-- not in ids hold an empty string and are never read. The values travel as
-- text, an empty string for NULL (never a valid value here). The test of
-- DATE_PROCESSED is wrapped (COALESCE) so the rows are found by the PRIMARY
-- key, one point per id: on cminmsgs_unprocessed_ix, whose key the statement
-- changes, MariaDB would buffer the rows first ("Using buffer",
-- TestBackfillManyUsesThePrimaryKey). Points, not a range BETWEEN the first
-- and last id: a range locks the gap after its last row (REPEATABLE READ),
-- and when that is the newest row the AODB's inserts wait for msgx's commit
-- (TestBackfillManyNeverBlocksInserts). FORCE INDEX (PRIMARY): on a small
-- mailbox (hundreds of rows, most of them in the list) MariaDB chose a full
-- scan, whose locking reads waited for every row an AODB transaction still
-- held open (an uncommitted insert) — 1–6 s per held writer, and the
-- backfills behind it fell to the 30 s sweep (rule 20,
-- TestBackfillDoesNotWaitForHeldInserts). Rows backfilled before are left
-- as they are, ids that no longer exist match nothing.
UPDATE cminmsgs FORCE INDEX (PRIMARY) SET
  CMINMSGS_DATE_PROCESSED = COALESCE(sqlc.narg(processed_at_all), ELT(CMINMSGS_ID - sqlc.arg(before_first), sqlc.slice(processed_at))),
  CMINMSGS_STATUS = COALESCE(sqlc.narg(status_all), ELT(CMINMSGS_ID - sqlc.arg(before_first), sqlc.slice(status))),
  CMINMSGS_SUBSYSTEM_NAME = NULLIF(COALESCE(sqlc.narg(sndr_all), ELT(CMINMSGS_ID - sqlc.arg(before_first), sqlc.slice(sndr))), ''),
  CMINMSGS_SUBSYSTEM_SEQUENCE = NULLIF(COALESCE(sqlc.narg(seqn_all), ELT(CMINMSGS_ID - sqlc.arg(before_first), sqlc.slice(seqn))), ''),
  CMINMSGS_SUBSYSTEM_DATE_SENT = NULLIF(COALESCE(sqlc.narg(dttm_all), ELT(CMINMSGS_ID - sqlc.arg(before_first), sqlc.slice(dttm))), ''),
  CMINMSGS_SUBSYSTEM_TYPE = NULLIF(COALESCE(sqlc.narg(msg_type_all), ELT(CMINMSGS_ID - sqlc.arg(before_first), sqlc.slice(msg_type))), ''),
  CMINMSGS_SUBSYSTEM_SUBTYPE = NULLIF(COALESCE(sqlc.narg(msg_subtype_all), ELT(CMINMSGS_ID - sqlc.arg(before_first), sqlc.slice(msg_subtype))), '')
WHERE CMINMSGS_ID IN (sqlc.slice(ids)) AND COALESCE(CMINMSGS_DATE_PROCESSED) IS NULL;

-- name: MaxAllowedPacket :one
-- The server's largest packet: an INSERT of a body must fit in it whole
-- (statement, body and protocol overhead), or the server refuses it.
SELECT CAST(@@max_allowed_packet AS SIGNED) AS max_allowed_packet;

-- name: InboundRawSizes :many
-- The byte length of the XML of the messages of a run, without the XML: the
-- pump cuts a run at its byte budget before reading it.
SELECT CMINMSGS_ID, LENGTH(CMINMSGS_CLOB_MSG) AS size FROM cminmsgs WHERE CMINMSGS_ID IN (sqlc.slice(ids));

-- name: InboundRawSizesRange :many
-- InboundRawSizes for consecutive ids, as InboundGetRawRange.
SELECT CMINMSGS_ID, LENGTH(CMINMSGS_CLOB_MSG) AS size FROM cminmsgs
WHERE CMINMSGS_ID BETWEEN sqlc.arg(first) AND sqlc.arg(last);

-- name: OutboundFind :many
-- Our own request rows: inserted since a time and whose XML carries a
-- pattern (SNDR and SEQN); the caller decodes them to confirm.
SELECT COUTMSGS_ID, COUTMSGS_DATE_INSERTED, COUTMSGS_CLOB_MSG FROM coutmsgs
WHERE COUTMSGS_DATE_INSERTED >= sqlc.arg(since) AND COUTMSGS_CLOB_MSG LIKE sqlc.arg(pattern)
ORDER BY COUTMSGS_ID DESC
LIMIT ?;

-- name: OutboundBetween :many
-- Request rows inserted in [from, to], newest first (the mailbox guard).
SELECT COUTMSGS_ID, COUTMSGS_DATE_INSERTED, COUTMSGS_CLOB_MSG FROM coutmsgs
WHERE COUTMSGS_DATE_INSERTED >= sqlc.arg(from_time) AND COUTMSGS_DATE_INSERTED <= sqlc.arg(to_time)
ORDER BY COUTMSGS_ID DESC
LIMIT ?;
