-- Processing pipeline: the inbound queue, its archive, the pipeline lock, the
-- ingress watermark and the mailbox backfill todos.
--
-- Oracle 11g Release 2 mirror of sql/postgres/schema/010_pipeline.sql: same
-- tables, columns, constraints and indexes; the type mapping and every
-- difference are in sql/oracle11g/README.md.

CREATE TABLE PROC_STATE (
  MSG_ID             NUMBER(19)                  NOT NULL,
  STATUS             VARCHAR2(16 CHAR)           DEFAULT 'PENDING' NOT NULL,
  IDENTITY_KEY       VARCHAR2(300 CHAR)          NULL,
  KIND               VARCHAR2(32 CHAR)           NULL,
  MSG_TYPE           VARCHAR2(8 CHAR)            NULL,
  MSG_SUBTYPE        VARCHAR2(8 CHAR)            NULL,
  META_SNDR          VARCHAR2(32 CHAR)           NULL,
  META_SEQN          NUMBER(19)                  NULL,
  META_DTTM_RAW      VARCHAR2(32 CHAR)           NULL,
  META_DTTM          TIMESTAMP(6) WITH TIME ZONE NULL,
  ATTEMPTS           NUMBER(10)                  DEFAULT 0 NOT NULL,
  NEXT_ATTEMPT_AT    TIMESTAMP(6) WITH TIME ZONE NULL,
  FIRST_SEEN_AT      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  FAILING_SINCE      TIMESTAMP(6) WITH TIME ZONE NULL,
  ERROR_CLASS        VARCHAR2(16 CHAR)           NULL,
  REASON             VARCHAR2(1000 CHAR)         NULL,
  DUPLICATE_OF       NUMBER(19)                  NULL,
  REPLAY_COUNT       NUMBER(10)                  DEFAULT 0 NOT NULL,
  PREV_ERROR_CLASS   VARCHAR2(16 CHAR)           NULL,
  PREV_REASON        VARCHAR2(1000 CHAR)         NULL,
  FINISHED_AT        TIMESTAMP(6) WITH TIME ZONE NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  LATE_AFTER         NUMBER(19)                  NULL,
  RAW_DIGEST         RAW(16)                     NULL,
  CONSTRAINT PROC_STATE_PKEY PRIMARY KEY (MSG_ID),
  CONSTRAINT PROC_STATE_STATUS_CK CHECK (STATUS IN ('PENDING', 'FAILED', 'SUCCEEDED', 'SKIPPED', 'DEAD')),
  CONSTRAINT PROC_STATE_CLASS_CK CHECK (ERROR_CLASS IN ('MALFORMED', 'PROTOCOL', 'CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')),
  CONSTRAINT PROC_STATE_PREV_CLASS_CK CHECK (PREV_ERROR_CLASS IN ('MALFORMED', 'PROTOCOL', 'CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')),
  CONSTRAINT PROC_STATE_ATTEMPTS_CK CHECK (ATTEMPTS >= 0 AND REPLAY_COUNT >= 0)
);
-- The queue head: the smallest unfinished MSG_ID. PostgreSQL uses a partial
-- index; 11g has none, so this is a function-based index whose key is NULL for
-- every other row. A B-tree index stores no entry whose key columns are all
-- NULL, so the index still holds only the backlog, not the millions of terminal
-- rows. A query uses it only when it repeats the expression exactly, e.g.
--   WHERE CASE WHEN STATUS IN ('PENDING', 'FAILED') THEN MSG_ID END IS NOT NULL
--   ORDER BY CASE WHEN STATUS IN ('PENDING', 'FAILED') THEN MSG_ID END
CREATE INDEX PROC_STATE_HEAD_IX ON PROC_STATE (CASE WHEN STATUS IN ('PENDING', 'FAILED') THEN MSG_ID END);
-- One holder per identity (PostgreSQL: partial unique index WHERE
-- duplicate_of IS NULL AND identity_key IS NOT NULL): the key is NULL for a
-- SKIPPED duplicate, which keeps the identity it repeats, and for a row not
-- yet bound, and a unique index ignores all-NULL keys.
CREATE UNIQUE INDEX PROC_STATE_IDENTITY_UQ ON PROC_STATE (CASE WHEN DUPLICATE_OF IS NULL THEN IDENTITY_KEY END);
-- Dead letters (PostgreSQL: partial index WHERE status = 'DEAD').
CREATE INDEX PROC_STATE_DEAD_IX ON PROC_STATE (CASE WHEN STATUS = 'DEAD' THEN ERROR_CLASS END, CASE WHEN STATUS = 'DEAD' THEN MSG_ID END);
-- The late rows of a period (msgx status): the partial index as an expression.
CREATE INDEX PROC_STATE_LATE_IX ON PROC_STATE (CASE WHEN LATE_AFTER IS NOT NULL THEN FIRST_SEEN_AT END);
-- The duplicates of a period (identity conflicts in msgx status): the partial index as an expression.
CREATE INDEX PROC_STATE_DUPLICATE_IX ON PROC_STATE (CASE WHEN DUPLICATE_OF IS NOT NULL THEN FINISHED_AT END);

COMMENT ON TABLE PROC_STATE IS 'One row per inbound mailbox row (cminmsgs): its processing status, bound identity, attempts and error. The queue is every row with status PENDING or FAILED, in MSG_ID order.';
COMMENT ON COLUMN PROC_STATE.MSG_ID IS 'CMINMSGS_ID of the mailbox row. Primary key: a mailbox row is enqueued at most once, so rescans are harmless.';
COMMENT ON COLUMN PROC_STATE.STATUS IS 'PENDING (waiting), FAILED (retrying with backoff; still holds the head), SUCCEEDED, SKIPPED, DEAD (terminal).';
COMMENT ON COLUMN PROC_STATE.IDENTITY_KEY IS 'Business identity SNDR|TYPE|STYP|SEQN[|day], bound once after decode; unique among holders (duplicate_of NULL) so a message is processed once; a SKIPPED duplicate shows the identity it repeats. NULL until decoded.';
COMMENT ON COLUMN PROC_STATE.KIND IS 'Decoded message kind (schedule, flight ops, flight delete, reference, ignored, unsupported).';
COMMENT ON COLUMN PROC_STATE.META_SNDR IS 'META SNDR as decoded; with the other meta_* columns it is what the mailbox backfill writes.';
COMMENT ON COLUMN PROC_STATE.META_DTTM_RAW IS 'META DTTM exactly as sent (yyyyMMddHHmmss, airport local time).';
COMMENT ON COLUMN PROC_STATE.META_DTTM IS 'META DTTM parsed in the airport time zone.';
COMMENT ON COLUMN PROC_STATE.ATTEMPTS IS 'Failed processing attempts so far; at max-attempts the row becomes DEAD(EXHAUSTED).';
COMMENT ON COLUMN PROC_STATE.NEXT_ATTEMPT_AT IS 'Earliest time a FAILED head may be retried (backoff 1, 2, 4, 8, 16 s, each capped).';
COMMENT ON COLUMN PROC_STATE.FIRST_SEEN_AT IS 'When msgx first enqueued the row; never changes (latency and head age are measured from it).';
COMMENT ON COLUMN PROC_STATE.FAILING_SINCE IS 'When the current series of counted failures began (the first one since enqueue or the last replay); the head-deadline runs from it. NULL while nothing failed.';
COMMENT ON COLUMN PROC_STATE.ERROR_CLASS IS 'MALFORMED, PROTOCOL, CODEC_ERROR, UNSUPPORTED, INFRA or EXHAUSTED; NULL when no error.';
COMMENT ON COLUMN PROC_STATE.REASON IS 'Error reason, or the SKIPPED reason (duplicate-of:<id>, ignored:<TYPE>, no-match:flight, no-match:flight-deleted, stale-snapshot:<id>, no-match:request); docs/api.md lists them all.';
COMMENT ON COLUMN PROC_STATE.DUPLICATE_OF IS 'For SKIPPED duplicates: the MSG_ID that holds the identity.';
COMMENT ON COLUMN PROC_STATE.REPLAY_COUNT IS 'How often an operator replayed the row back to PENDING.';
COMMENT ON COLUMN PROC_STATE.PREV_ERROR_CLASS IS 'Audit: the error class the row had before its last replay.';
COMMENT ON COLUMN PROC_STATE.PREV_REASON IS 'Audit: the reason the row had before its last replay.';
COMMENT ON COLUMN PROC_STATE.FINISHED_AT IS 'When the row reached a terminal status (SUCCEEDED, SKIPPED, DEAD).';
COMMENT ON COLUMN PROC_STATE.LATE_AFTER IS 'Late row (rule 17): the largest MSG_ID already finished when this row was enqueued, so its effect lands after that one''s (shown as late:<id>). NULL for a row enqueued in order.';
COMMENT ON COLUMN PROC_STATE.RAW_DIGEST IS 'SHA-256 of the raw mailbox message, first 16 bytes, bound with the identity (rule 2): a duplicate whose digest differs from its holder''s is SKIPPED duplicate-of:<id>:content-differs. NULL until bound, and on rows bound before digests were kept (unknown: a plain duplicate).';

CREATE TABLE PROC_STATE_HST (
  MSG_ID             NUMBER(19)                  NOT NULL,
  STATUS             VARCHAR2(16 CHAR)           NOT NULL,
  IDENTITY_KEY       VARCHAR2(300 CHAR)          NULL,
  KIND               VARCHAR2(32 CHAR)           NULL,
  MSG_TYPE           VARCHAR2(8 CHAR)            NULL,
  MSG_SUBTYPE        VARCHAR2(8 CHAR)            NULL,
  META_SNDR          VARCHAR2(32 CHAR)           NULL,
  META_SEQN          NUMBER(19)                  NULL,
  META_DTTM_RAW      VARCHAR2(32 CHAR)           NULL,
  META_DTTM          TIMESTAMP(6) WITH TIME ZONE NULL,
  ATTEMPTS           NUMBER(10)                  NOT NULL,
  FIRST_SEEN_AT      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  ERROR_CLASS        VARCHAR2(16 CHAR)           NULL,
  REASON             VARCHAR2(1000 CHAR)         NULL,
  DUPLICATE_OF       NUMBER(19)                  NULL,
  REPLAY_COUNT       NUMBER(10)                  NOT NULL,
  PREV_ERROR_CLASS   VARCHAR2(16 CHAR)           NULL,
  PREV_REASON        VARCHAR2(1000 CHAR)         NULL,
  FINISHED_AT        TIMESTAMP(6) WITH TIME ZONE NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  ARCHIVED_AT        TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  LATE_AFTER         NUMBER(19)                  NULL,
  RAW_DIGEST         RAW(16)                     NULL,
  CONSTRAINT PROC_STATE_HST_PKEY PRIMARY KEY (MSG_ID),
  CONSTRAINT PROC_STATE_HST_STATUS_CK CHECK (STATUS IN ('SUCCEEDED', 'SKIPPED', 'DEAD'))
);
-- On a TIMESTAMP WITH TIME ZONE column Oracle builds a function-based index on
-- SYS_EXTRACT_UTC(col) by itself; compare the column with a TIMESTAMP WITH TIME
-- ZONE value (bind) so the optimizer can use it.
CREATE INDEX PROC_STATE_HST_ARCHIVED_IX ON PROC_STATE_HST (ARCHIVED_AT);
CREATE UNIQUE INDEX PROC_STATE_HST_IDENTITY_UQ ON PROC_STATE_HST (CASE WHEN DUPLICATE_OF IS NULL THEN IDENTITY_KEY END);
CREATE INDEX PROC_STATE_HST_LATE_IX ON PROC_STATE_HST (CASE WHEN LATE_AFTER IS NOT NULL THEN FIRST_SEEN_AT END);
-- The archive's twin of PROC_STATE_DUPLICATE_IX: the identity conflicts of
-- the last 24 h without reading a day of archive.
CREATE INDEX PROC_STATE_HST_DUPLICATE_IX ON PROC_STATE_HST (CASE WHEN DUPLICATE_OF IS NOT NULL THEN FINISHED_AT END);
COMMENT ON TABLE PROC_STATE_HST IS 'Archive of terminal PROC_STATE rows. Identity keys of holders stay unique here and are checked on bind, so an archived message still deduplicates.';
COMMENT ON COLUMN PROC_STATE_HST.ARCHIVED_AT IS 'When the row was moved out of PROC_STATE.';
COMMENT ON COLUMN PROC_STATE_HST.LATE_AFTER IS 'As proc_state.late_after.';
COMMENT ON COLUMN PROC_STATE_HST.RAW_DIGEST IS 'As proc_state.raw_digest.';

CREATE TABLE PIPELINE_LOCK (
  ID                 NUMBER(5)                   NOT NULL,
  LOCKED_AT          TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  ENQUEUED_BELOW     NUMBER(19)                  DEFAULT 0 NOT NULL,
  CONSTRAINT PIPELINE_LOCK_PKEY PRIMARY KEY (ID),
  CONSTRAINT PIPELINE_LOCK_SINGLE_CK CHECK (ID = 1)
);
COMMENT ON TABLE PIPELINE_LOCK IS 'A single row (id = 1) locked by every business transaction, so flight state is only ever written by one transaction at a time.';
COMMENT ON COLUMN PIPELINE_LOCK.LOCKED_AT IS 'Last time a business transaction took the lock (diagnostics only).';
COMMENT ON COLUMN PIPELINE_LOCK.ENQUEUED_BELOW IS 'Counts the enqueues of an id below the largest known one (they hold the lock), in their transaction. The pump reads it with its run and compares it under the lock: a change means an id may have entered inside the run, which is then abandoned (docs/design.md §1.1).';

CREATE TABLE PUMP_STATE (
  ID                 NUMBER(5)                   NOT NULL,
  PAUSED_DEPENDENCY  VARCHAR2(16 CHAR)           NULL,
  PAUSED_REASON      VARCHAR2(1000 CHAR)         NULL,
  PAUSED_SINCE       TIMESTAMP(6) WITH TIME ZONE NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  CONSTRAINT PUMP_STATE_PKEY PRIMARY KEY (ID),
  CONSTRAINT PUMP_STATE_SINGLE_CK CHECK (ID = 1),
  CONSTRAINT PUMP_STATE_DEPENDENCY_CK CHECK (PAUSED_DEPENDENCY IN ('postgres', 'mailbox')),
  CONSTRAINT PUMP_STATE_PAUSED_CK CHECK ((PAUSED_DEPENDENCY IS NULL AND PAUSED_SINCE IS NULL) OR (PAUSED_DEPENDENCY IS NOT NULL AND PAUSED_SINCE IS NOT NULL))
);
COMMENT ON TABLE PUMP_STATE IS 'What the leader''s pump publishes about itself for operators (msgx status): a single row (id = 1).';
COMMENT ON COLUMN PUMP_STATE.PAUSED_DEPENDENCY IS 'The dependency the pump is paused on (postgres, mailbox): it cannot be reached, so the pump waits and probes it without counting attempts (rule 14). NULL while the pump runs.';
COMMENT ON COLUMN PUMP_STATE.PAUSED_REASON IS 'The error that paused the pump, as the driver reported it.';
COMMENT ON COLUMN PUMP_STATE.PAUSED_SINCE IS 'When the pause began.';
COMMENT ON COLUMN PUMP_STATE.UPDATED_AT IS 'When the pump last wrote the row (a pause is re-published while it lasts).';

CREATE TABLE INGRESS_MARK (
  SOURCE             VARCHAR2(32 CHAR)           NOT NULL,
  LAST_ID            NUMBER(19)                  NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT INGRESS_MARK_PKEY PRIMARY KEY (SOURCE),
  CONSTRAINT INGRESS_MARK_LAST_ID_CK CHECK (LAST_ID >= 0)
);
COMMENT ON TABLE INGRESS_MARK IS 'Persistent poll watermark per mailbox source. Not a processed marker: the poller also rescans a bounded window behind it for late-committed smaller IDs.';
COMMENT ON COLUMN INGRESS_MARK.LAST_ID IS 'Largest CMINMSGS_ID enqueued so far.';

CREATE TABLE INGRESS_GAP (
  SOURCE             VARCHAR2(32 CHAR)           NOT NULL,
  FROM_ID            NUMBER(19)                  NOT NULL,
  TO_ID              NUMBER(19)                  NOT NULL,
  SEEN_AT            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  GIVEN_UP_AT        TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  CONSTRAINT INGRESS_GAP_PKEY PRIMARY KEY (SOURCE, FROM_ID),
  CONSTRAINT INGRESS_GAP_RANGE_CK CHECK (FROM_ID > 0 AND TO_ID >= FROM_ID)
);
CREATE INDEX INGRESS_GAP_GIVEN_UP_IX ON INGRESS_GAP (GIVEN_UP_AT);
COMMENT ON TABLE INGRESS_GAP IS 'Holes the poller gave up (rule 16): ids no mailbox row had while a larger id was visible, for longer than pipeline.gap-wait; the ids after them were then enqueued. A row that commits later in a gap is found by the rescan or the reconciliation pass and processed as a late row.';
COMMENT ON COLUMN INGRESS_GAP.FROM_ID IS 'First missing CMINMSGS_ID of the hole.';
COMMENT ON COLUMN INGRESS_GAP.TO_ID IS 'Last missing CMINMSGS_ID of the hole.';
COMMENT ON COLUMN INGRESS_GAP.SEEN_AT IS 'When the poller first saw the hole.';
COMMENT ON COLUMN INGRESS_GAP.GIVEN_UP_AT IS 'When the wait ran out and the hole was given up.';

CREATE TABLE BACKFILL_TODO (
  MSG_ID             NUMBER(19)                  NOT NULL,
  MAILBOX_STATUS     VARCHAR2(20 CHAR)           NOT NULL,
  PROCESSED_AT       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  META_SNDR          VARCHAR2(32 CHAR)           NULL,
  META_SEQN          NUMBER(19)                  NULL,
  META_DTTM          TIMESTAMP(6) WITH TIME ZONE NULL,
  META_TYPE          VARCHAR2(8 CHAR)            NULL,
  META_STYP          VARCHAR2(8 CHAR)            NULL,
  ATTEMPTS           NUMBER(10)                  DEFAULT 0 NOT NULL,
  NEXT_ATTEMPT_AT    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  LAST_ERROR         VARCHAR2(1000 CHAR)         NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  REGISTRATION       NUMBER(19)                  DEFAULT 0 NOT NULL,
  CONSTRAINT BACKFILL_TODO_PKEY PRIMARY KEY (MSG_ID),
  CONSTRAINT BACKFILL_TODO_STATUS_CK CHECK (MAILBOX_STATUS IN ('SUCCEEDED', 'SKIPPED', 'DEAD')),
  CONSTRAINT BACKFILL_TODO_ATTEMPTS_CK CHECK (ATTEMPTS >= 0)
);
-- TIMESTAMP WITH TIME ZONE key: see PROC_STATE_HST_ARCHIVED_IX.
CREATE INDEX BACKFILL_TODO_DUE_IX ON BACKFILL_TODO (NEXT_ATTEMPT_AT);
COMMENT ON TABLE BACKFILL_TODO IS 'Mailbox backfills still to do that the backfill mark does not cover: a replay''s and a late row''s (registered in the same transaction as the terminal status) and a failed one''s (with its backoff); deleted once cminmsgs is written. Self-contained, so the sweep needs no other table.';
COMMENT ON COLUMN BACKFILL_TODO.MAILBOX_STATUS IS 'Terminal status to write into CMINMSGS_STATUS.';
COMMENT ON COLUMN BACKFILL_TODO.PROCESSED_AT IS 'Value for CMINMSGS_DATE_PROCESSED.';
COMMENT ON COLUMN BACKFILL_TODO.NEXT_ATTEMPT_AT IS 'When the backfill sweep may try again (backoff 30 s to 15 min).';
COMMENT ON COLUMN BACKFILL_TODO.REGISTRATION IS 'The message''s REPLAY_COUNT when this todo was registered: a replay re-registers the todo under the next one, so a backfill of the todo before (rule 18) deletes only its own registration, never the new todo.';

CREATE TABLE BACKFILL_MARK (
  ID                 NUMBER(5)                   NOT NULL,
  THROUGH_MSG_ID     NUMBER(19)                  NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT BACKFILL_MARK_PKEY PRIMARY KEY (ID),
  CONSTRAINT BACKFILL_MARK_SINGLE_CK CHECK (ID = 1),
  CONSTRAINT BACKFILL_MARK_THROUGH_CK CHECK (THROUGH_MSG_ID >= 0)
);
COMMENT ON TABLE BACKFILL_MARK IS 'The backfill watermark, a single row (id = 1; none reads as 0): every message with MSG_ID <= THROUGH_MSG_ID that reached a terminal status has been backfilled or has a BACKFILL_TODO row. The terminal PROC_STATE row above it is its own registration: the business transaction writes a todo only below the mark (a late row) or for a replay (docs/design.md §1.4).';
COMMENT ON COLUMN BACKFILL_MARK.THROUGH_MSG_ID IS 'Moved forward only by the backfiller, under the PIPELINE_LOCK, once every PROC_STATE row between the old and the new value is backfilled or has a todo.';
COMMENT ON COLUMN BACKFILL_MARK.UPDATED_AT IS 'When the mark last moved.';
