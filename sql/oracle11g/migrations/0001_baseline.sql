-- msgx Oracle 11g migration 0001: the baseline, the whole schema of
-- sql/oracle11g/schema as of this version (make test checks that the
-- migrations in order build the same tables and columns as the schema).
-- Applied by 'msgx schema apply --dialect oracle11g' or by a DBA with
-- SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
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
-- duplicate_of IS NULL): the key is NULL for a SKIPPED duplicate, which keeps
-- the identity it repeats, and a unique index ignores all-NULL keys.
CREATE UNIQUE INDEX PROC_STATE_IDENTITY_UQ ON PROC_STATE (CASE WHEN DUPLICATE_OF IS NULL THEN IDENTITY_KEY END);
-- Dead letters (PostgreSQL: partial index WHERE status = 'DEAD').
CREATE INDEX PROC_STATE_DEAD_IX ON PROC_STATE (CASE WHEN STATUS = 'DEAD' THEN ERROR_CLASS END, CASE WHEN STATUS = 'DEAD' THEN MSG_ID END);

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
  CONSTRAINT PROC_STATE_HST_PKEY PRIMARY KEY (MSG_ID),
  CONSTRAINT PROC_STATE_HST_STATUS_CK CHECK (STATUS IN ('SUCCEEDED', 'SKIPPED', 'DEAD'))
);
-- On a TIMESTAMP WITH TIME ZONE column Oracle builds a function-based index on
-- SYS_EXTRACT_UTC(col) by itself; compare the column with a TIMESTAMP WITH TIME
-- ZONE value (bind) so the optimizer can use it.
CREATE INDEX PROC_STATE_HST_ARCHIVED_IX ON PROC_STATE_HST (ARCHIVED_AT);
CREATE UNIQUE INDEX PROC_STATE_HST_IDENTITY_UQ ON PROC_STATE_HST (CASE WHEN DUPLICATE_OF IS NULL THEN IDENTITY_KEY END);
COMMENT ON TABLE PROC_STATE_HST IS 'Archive of terminal PROC_STATE rows. Identity keys of holders stay unique here and are checked on bind, so an archived message still deduplicates.';
COMMENT ON COLUMN PROC_STATE_HST.ARCHIVED_AT IS 'When the row was moved out of PROC_STATE.';

CREATE TABLE PIPELINE_LOCK (
  ID                 NUMBER(5)                   NOT NULL,
  LOCKED_AT          TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT PIPELINE_LOCK_PKEY PRIMARY KEY (ID),
  CONSTRAINT PIPELINE_LOCK_SINGLE_CK CHECK (ID = 1)
);
COMMENT ON TABLE PIPELINE_LOCK IS 'A single row (id = 1) locked by every business transaction, so flight state is only ever written by one transaction at a time.';
COMMENT ON COLUMN PIPELINE_LOCK.LOCKED_AT IS 'Last time a business transaction took the lock (diagnostics only).';

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
  CONSTRAINT BACKFILL_TODO_PKEY PRIMARY KEY (MSG_ID),
  CONSTRAINT BACKFILL_TODO_STATUS_CK CHECK (MAILBOX_STATUS IN ('SUCCEEDED', 'SKIPPED', 'DEAD')),
  CONSTRAINT BACKFILL_TODO_ATTEMPTS_CK CHECK (ATTEMPTS >= 0)
);
-- TIMESTAMP WITH TIME ZONE key: see PROC_STATE_HST_ARCHIVED_IX.
CREATE INDEX BACKFILL_TODO_DUE_IX ON BACKFILL_TODO (NEXT_ATTEMPT_AT);
COMMENT ON TABLE BACKFILL_TODO IS 'Mailbox backfills still to do, registered in the same transaction as the terminal status; deleted once cminmsgs is written. Self-contained, so the sweep needs no other table.';
COMMENT ON COLUMN BACKFILL_TODO.MAILBOX_STATUS IS 'Terminal status to write into CMINMSGS_STATUS.';
COMMENT ON COLUMN BACKFILL_TODO.PROCESSED_AT IS 'Value for CMINMSGS_DATE_PROCESSED.';
COMMENT ON COLUMN BACKFILL_TODO.NEXT_ATTEMPT_AT IS 'When the backfill sweep may try again (backoff 30 s to 15 min).';

-- ---- 020_flight.sql
-- Current flight state: one FLIGHT_SCHD row per FLID, nine ordered detail
-- collections, raw payload collections, and the history store.
--
-- Sizing: every raw SIS value is VARCHAR(1000). 1000 characters of UTF-8 are at
-- most 4000 bytes, so the same model fits Oracle 11g VARCHAR2(4000 BYTE); the
-- pipeline refuses longer values (PROTOCOL, internal/limits) before any write
-- instead of letting them be truncated or fail the statement.
-- Each time field keeps the raw text and, beside it, the value parsed in the
-- airport time zone (<name>_at).
--
-- Oracle 11g Release 2 mirror of sql/postgres/schema/020_flight.sql: same
-- tables, columns, constraints and indexes; the type mapping and every
-- difference are in sql/oracle11g/README.md. VARCHAR2(1000 CHAR) is the
-- VARCHAR(1000) above; in AL32UTF8 it is at most 4000 bytes, the 11g limit.

CREATE TABLE FLIGHT_SCHD (
  FLID               NUMBER(19)                  NOT NULL,
  FFID               VARCHAR2(1000 CHAR)         NULL,
  ALCD               VARCHAR2(1000 CHAR)         NULL,
  ALSC               VARCHAR2(1000 CHAR)         NULL,
  FLNO               VARCHAR2(1000 CHAR)         NULL,
  MVIN               VARCHAR2(1000 CHAR)         NULL,
  SODT               VARCHAR2(1000 CHAR)         NULL,
  SODT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  FLTY               VARCHAR2(1000 CHAR)         NULL,
  FLIN               VARCHAR2(1000 CHAR)         NULL,
  ACFT               VARCHAR2(1000 CHAR)         NULL,
  RENO               VARCHAR2(1000 CHAR)         NULL,
  TAOP               VARCHAR2(1000 CHAR)         NULL,
  TAFL               VARCHAR2(1000 CHAR)         NULL,
  TAID               VARCHAR2(1000 CHAR)         NULL,
  TRML               VARCHAR2(1000 CHAR)         NULL,
  MAXP               VARCHAR2(1000 CHAR)         NULL,
  CSOP               VARCHAR2(1000 CHAR)         NULL,
  CSFT               VARCHAR2(1000 CHAR)         NULL,
  MAID               VARCHAR2(1000 CHAR)         NULL,
  ESTT               VARCHAR2(1000 CHAR)         NULL,
  ESTT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  ACTT               VARCHAR2(1000 CHAR)         NULL,
  ACTT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  STND               VARCHAR2(1000 CHAR)         NULL,
  PHAG               VARCHAR2(1000 CHAR)         NULL,
  FHAG               VARCHAR2(1000 CHAR)         NULL,
  MHAG               VARCHAR2(1000 CHAR)         NULL,
  CNCL               VARCHAR2(1000 CHAR)         NULL,
  REMC               VARCHAR2(1000 CHAR)         NULL,
  BOTM               VARCHAR2(1000 CHAR)         NULL,
  BOTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  LACL               VARCHAR2(1000 CHAR)         NULL,
  FINT               VARCHAR2(1000 CHAR)         NULL,
  APPT               VARCHAR2(1000 CHAR)         NULL,
  EGSR               VARCHAR2(1000 CHAR)         NULL,
  EGST               VARCHAR2(1000 CHAR)         NULL,
  EGST_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  VIPP               VARCHAR2(1000 CHAR)         NULL,
  VIPR               VARCHAR2(1000 CHAR)         NULL,
  LBNO               VARCHAR2(1000 CHAR)         NULL,
  LBWT               VARCHAR2(1000 CHAR)         NULL,
  PAXC               VARCHAR2(1000 CHAR)         NULL,
  EXSC               VARCHAR2(1000 CHAR)         NULL,
  EXSR               VARCHAR2(1000 CHAR)         NULL,
  FTSS               VARCHAR2(1000 CHAR)         NULL,
  PEDT               VARCHAR2(1000 CHAR)         NULL,
  PEDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  NEAT               VARCHAR2(1000 CHAR)         NULL,
  NEAT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PADT               VARCHAR2(1000 CHAR)         NULL,
  PADT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  NAAT               VARCHAR2(1000 CHAR)         NULL,
  NAAT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  STDT               VARCHAR2(1000 CHAR)         NULL,
  STDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  EDDT               VARCHAR2(1000 CHAR)         NULL,
  EDDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  DYOP               VARCHAR2(1000 CHAR)         NULL,
  SCHT               VARCHAR2(1000 CHAR)         NULL,
  SCHT_MINUTES       NUMBER(10)                  NULL,
  COBT               VARCHAR2(1000 CHAR)         NULL,
  COBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  TOBT               VARCHAR2(1000 CHAR)         NULL,
  TOBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  EOBT               VARCHAR2(1000 CHAR)         NULL,
  EOBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CTOT               VARCHAR2(1000 CHAR)         NULL,
  CTOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  IEST               VARCHAR2(1000 CHAR)         NULL,
  IEST_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  RUNW               VARCHAR2(1000 CHAR)         NULL,
  FDIV_DDES          VARCHAR2(1000 CHAR)         NULL,
  FDIV_DDIR          VARCHAR2(4 CHAR)            NULL,
  FDIV_TEXT          VARCHAR2(1000 CHAR)         NULL,
  FRET_REID          VARCHAR2(1 CHAR)            NULL,
  FRET_TEXT          VARCHAR2(1000 CHAR)         NULL,
  FLAB_ARES          VARCHAR2(1 CHAR)            NULL,
  FLAB_TEXT          VARCHAR2(1000 CHAR)         NULL,
  OPERATION_DAY      DATE                        NOT NULL,
  FDAY               DATE                        NULL,
  LIFECYCLE          VARCHAR2(8 CHAR)            DEFAULT 'ACTIVE' NOT NULL,
  DELETED_AT         TIMESTAMP(6) WITH TIME ZONE NULL,
  STATE_VERSION      NUMBER(19)                  DEFAULT 1 NOT NULL,
  LAST_MESSAGE_ID    NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_SCHD_PKEY PRIMARY KEY (FLID),
  CONSTRAINT FLIGHT_SCHD_LIFECYCLE_CK CHECK (LIFECYCLE IN ('ACTIVE', 'DELETED')),
  CONSTRAINT FLIGHT_SCHD_MVIN_CK CHECK (MVIN IN ('A', 'D')),
  CONSTRAINT FLIGHT_SCHD_FLIN_CK CHECK (FLIN IN ('D', 'I', 'M')),
  CONSTRAINT FLIGHT_SCHD_FDIV_DDIR_CK CHECK (FDIV_DDIR IN ('TO', 'FROM')),
  CONSTRAINT FLIGHT_SCHD_FRET_REID_CK CHECK (FRET_REID IN ('G', 'A')),
  CONSTRAINT FLIGHT_SCHD_FLAB_ARES_CK CHECK (FLAB_ARES IN ('O', 'G')),
  CONSTRAINT FLIGHT_SCHD_VERSION_CK CHECK (STATE_VERSION >= 1)
);
-- Flights by operation day, in FLID order: /all/flights paging and snapshot prune.
CREATE INDEX FLIGHT_SCHD_DAY_IX ON FLIGHT_SCHD (OPERATION_DAY, FLID);
-- Candidates of the history sweep. PostgreSQL: partial index on (deleted_at)
-- WHERE lifecycle = 'DELETED'. Here a function-based index that is NULL (so not
-- stored) for ACTIVE flights. The key is the UTC instant: Oracle indexes a
-- TIMESTAMP WITH TIME ZONE column as SYS_EXTRACT_UTC(col) anyway; spelled out
-- here the key is a plain TIMESTAMP, and the query repeats the exact expression:
--   WHERE CASE WHEN LIFECYCLE = 'DELETED' THEN SYS_EXTRACT_UTC(DELETED_AT) END < SYS_EXTRACT_UTC(:deleted_before)
CREATE INDEX FLIGHT_SCHD_DELETED_IX ON FLIGHT_SCHD (CASE WHEN LIFECYCLE = 'DELETED' THEN SYS_EXTRACT_UTC(DELETED_AT) END);

COMMENT ON TABLE FLIGHT_SCHD IS 'Current state of every flight, one row per AODB FLID: every SIS scalar as raw text, parsed times beside them, the single-valued FDIV/FRET/FLAB structures, lifecycle and version. Written only by the pump.';
COMMENT ON COLUMN FLIGHT_SCHD.FLID IS 'AODB flight id (FLID), the key messages are matched on.';
COMMENT ON COLUMN FLIGHT_SCHD.FFID IS 'FFID as sent (ALCD-FLNO-MVIN-SODT-FLIN); informational, never used for matching.';
COMMENT ON COLUMN FLIGHT_SCHD.MVIN IS 'Movement indicator: A arrival, D departure.';
COMMENT ON COLUMN FLIGHT_SCHD.SODT IS 'Scheduled date/time, raw (ddMONyyHHmm). Its local date is the operation day.';
COMMENT ON COLUMN FLIGHT_SCHD.FLIN IS 'Flight indicator: D domestic, I international, M mixed.';
COMMENT ON COLUMN FLIGHT_SCHD.SCHT IS 'SCHT raw, HHMM (hours and minutes).';
COMMENT ON COLUMN FLIGHT_SCHD.SCHT_MINUTES IS 'SCHT parsed to minutes.';
COMMENT ON COLUMN FLIGHT_SCHD.FDIV_DDES IS 'FDIV (diversion) attribute DDES.';
COMMENT ON COLUMN FLIGHT_SCHD.FDIV_DDIR IS 'FDIV attribute DDIR: TO or FROM.';
COMMENT ON COLUMN FLIGHT_SCHD.FDIV_TEXT IS 'FDIV element text.';
COMMENT ON COLUMN FLIGHT_SCHD.FRET_REID IS 'FRET (return) attribute REID: G or A.';
COMMENT ON COLUMN FLIGHT_SCHD.FRET_TEXT IS 'FRET element text.';
COMMENT ON COLUMN FLIGHT_SCHD.FLAB_ARES IS 'FLAB attribute ARES: O or G.';
COMMENT ON COLUMN FLIGHT_SCHD.FLAB_TEXT IS 'FLAB element text.';
COMMENT ON COLUMN FLIGHT_SCHD.OPERATION_DAY IS 'Local date of SODT in the airport zone; set once, never changed (a conflicting record is a PROTOCOL error).';
COMMENT ON COLUMN FLIGHT_SCHD.FDAY IS 'Day of the last snapshot (DNLD/RESP) generation the flight belonged to; NULL for flights only created by ADFT/UPD.';
COMMENT ON COLUMN FLIGHT_SCHD.LIFECYCLE IS 'ACTIVE, or DELETED (soft delete by FDEL, SCHD DEL or prune) until the history sweep moves the flight out.';
COMMENT ON COLUMN FLIGHT_SCHD.DELETED_AT IS 'When the flight became DELETED.';
COMMENT ON COLUMN FLIGHT_SCHD.STATE_VERSION IS 'Advances by one on every real change of the flight; a no-op message leaves it and emits nothing.';
COMMENT ON COLUMN FLIGHT_SCHD.LAST_MESSAGE_ID IS 'MSG_ID of the last message that changed the flight (audit, recovery).';

-- Detail collections. Each is replaced as a whole when a message carries the
-- group; ORDINAL is the input order (1-based), SOURCE_SEQ the source sequence
-- number, which is data, not a key: two gates may share GTNO and GATE.
--
-- They have no foreign key to FLIGHT_SCHD: the per-row check took about 40 %
-- of a 2 000-flight DNLD (~28 000 rows; issue #4 targets 1 s). The pump is
-- their only writer and writes them after their flight in the same
-- transaction; FlightDelete deletes them with the flight (what ON DELETE
-- CASCADE did; in Oracle one DELETE per table, see
-- sql/oracle11g/queries/README.md). Each primary key leads with FLID, so
-- those deletes are index range scans.

CREATE TABLE FLIGHT_GATE (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  GATE               VARCHAR2(1000 CHAR)         NULL,
  PGOT               VARCHAR2(1000 CHAR)         NULL,
  PGOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PGCT               VARCHAR2(1000 CHAR)         NULL,
  PGCT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  GOTM               VARCHAR2(1000 CHAR)         NULL,
  GOTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  GCTM               VARCHAR2(1000 CHAR)         NULL,
  GCTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  GTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_GATE_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_GATE_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_GATE IS 'Gate allocations of a flight (SIS GTDT), in input order.';
COMMENT ON COLUMN FLIGHT_GATE.ORDINAL IS 'Position in the GTDT list as sent, from 1.';
COMMENT ON COLUMN FLIGHT_GATE.SOURCE_SEQ IS 'GTNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_GATE.RECORD_VERSION IS 'Flight STATE_VERSION that wrote this row.';

CREATE TABLE FLIGHT_CHECKIN (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  CHKC               VARCHAR2(1000 CHAR)         NULL,
  CCLS               VARCHAR2(1000 CHAR)         NULL,
  PCOT               VARCHAR2(1000 CHAR)         NULL,
  PCOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PCCT               VARCHAR2(1000 CHAR)         NULL,
  PCCT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  COTM               VARCHAR2(1000 CHAR)         NULL,
  COTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CCTM               VARCHAR2(1000 CHAR)         NULL,
  CCTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_CHECKIN_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_CHECKIN_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_CHECKIN IS 'Check-in counter allocations (SIS CKDT), in input order.';
COMMENT ON COLUMN FLIGHT_CHECKIN.SOURCE_SEQ IS 'CKNO attribute as sent; not unique.';

CREATE TABLE FLIGHT_BELT (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  BELT               VARCHAR2(1000 CHAR)         NULL,
  BCLS               VARCHAR2(1000 CHAR)         NULL,
  PCOT               VARCHAR2(1000 CHAR)         NULL,
  PCOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PCCT               VARCHAR2(1000 CHAR)         NULL,
  PCCT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  FBAG               VARCHAR2(1000 CHAR)         NULL,
  LBAG               VARCHAR2(1000 CHAR)         NULL,
  BTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_BELT_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_BELT_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_BELT IS 'Baggage belt (carousel) allocations (SIS CLDT), in input order.';
COMMENT ON COLUMN FLIGHT_BELT.SOURCE_SEQ IS 'CLNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_BELT.FBAG IS 'First bag (raw; not declared a time by the wire contract).';
COMMENT ON COLUMN FLIGHT_BELT.LBAG IS 'Last bag (raw; not declared a time by the wire contract).';

CREATE TABLE FLIGHT_STAND_PLAN (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  PSST               VARCHAR2(1000 CHAR)         NULL,
  STST               VARCHAR2(1000 CHAR)         NULL,
  STST_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  STET               VARCHAR2(1000 CHAR)         NULL,
  STET_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_STAND_PLAN_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_STAND_PLAN_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_STAND_PLAN IS 'Planned stand occupations (SIS PSDT), in input order.';
COMMENT ON COLUMN FLIGHT_STAND_PLAN.SOURCE_SEQ IS 'PSNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_STAND_PLAN.PSST IS 'Planned stand.';

CREATE TABLE FLIGHT_CHUTE (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  CHUT               VARCHAR2(1000 CHAR)         NULL,
  CCLS               VARCHAR2(1000 CHAR)         NULL,
  PCBT               VARCHAR2(1000 CHAR)         NULL,
  PCBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PCET               VARCHAR2(1000 CHAR)         NULL,
  PCET_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CBTM               VARCHAR2(1000 CHAR)         NULL,
  CBTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CETM               VARCHAR2(1000 CHAR)         NULL,
  CETM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_CHUTE_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_CHUTE_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_CHUTE IS 'Baggage make-up chute allocations (SIS CHDT), in input order.';
COMMENT ON COLUMN FLIGHT_CHUTE.SOURCE_SEQ IS 'CHNO attribute as sent; not unique.';

CREATE TABLE FLIGHT_DELAY (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  CODE               VARCHAR2(1000 CHAR)         NULL,
  STRT               VARCHAR2(1000 CHAR)         NULL,
  STRT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  DURA               VARCHAR2(1000 CHAR)         NULL,
  DURA_MINUTES       NUMBER(10)                  NULL,
  REASON             VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_DELAY_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_DELAY_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_DELAY IS 'Delays (SIS DELY: attributes CODE, STRT, DURA; text = reason), in input order. DELY has no sequence number.';
COMMENT ON COLUMN FLIGHT_DELAY.DURA IS 'Duration raw, HHMM.';
COMMENT ON COLUMN FLIGHT_DELAY.DURA_MINUTES IS 'Duration parsed to minutes.';
COMMENT ON COLUMN FLIGHT_DELAY.REASON IS 'Element text of DELY.';

CREATE TABLE FLIGHT_BRIDGE_OP (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  ABDG               VARCHAR2(1000 CHAR)         NULL,
  ABOP               VARCHAR2(1 CHAR)            NULL,
  AOTM               VARCHAR2(1000 CHAR)         NULL,
  AOTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_BRIDGE_OP_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_BRIDGE_OP_ORDINAL_CK CHECK (ORDINAL >= 1),
  CONSTRAINT FLIGHT_BRIDGE_OP_ABOP_CK CHECK (ABOP IN ('A', 'D'))
);
COMMENT ON TABLE FLIGHT_BRIDGE_OP IS 'Airbridge operations (SIS ABTM), every attach/detach kept in input order.';
COMMENT ON COLUMN FLIGHT_BRIDGE_OP.SOURCE_SEQ IS 'ASNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_BRIDGE_OP.ABOP IS 'A attach, D detach.';

CREATE TABLE FLIGHT_CHOCK_OP (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  CHTM               VARCHAR2(1000 CHAR)         NULL,
  CHTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CHID               VARCHAR2(3 CHAR)            NULL,
  CHST               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_CHOCK_OP_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_CHOCK_OP_ORDINAL_CK CHECK (ORDINAL >= 1),
  CONSTRAINT FLIGHT_CHOCK_OP_CHID_CK CHECK (CHID IN ('ON', 'OFF'))
);
COMMENT ON TABLE FLIGHT_CHOCK_OP IS 'Chocks on/off operations (SIS CHOT), every operation kept in input order.';
COMMENT ON COLUMN FLIGHT_CHOCK_OP.SOURCE_SEQ IS 'CSNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_CHOCK_OP.CHID IS 'ON or OFF.';

CREATE TABLE FLIGHT_ROUTE_POINT (
  FLID               NUMBER(19)                  NOT NULL,
  ROUTE_KIND         VARCHAR2(4 CHAR)            NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  APCD               VARCHAR2(1000 CHAR)         NULL,
  SCAT               VARCHAR2(1000 CHAR)         NULL,
  SCAT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  SADC               VARCHAR2(1000 CHAR)         NULL,
  SADC_DAYS          NUMBER(10)                  NULL,
  SCDT               VARCHAR2(1000 CHAR)         NULL,
  SCDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  SDDC               VARCHAR2(1000 CHAR)         NULL,
  SDDC_DAYS          NUMBER(10)                  NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_ROUTE_POINT_PKEY PRIMARY KEY (FLID, ROUTE_KIND, ORDINAL),
  CONSTRAINT FLIGHT_ROUTE_POINT_ORDINAL_CK CHECK (ORDINAL >= 1),
  CONSTRAINT FLIGHT_ROUTE_POINT_KIND_CK CHECK (ROUTE_KIND IN ('ROUT', 'ERUT'))
);
COMMENT ON TABLE FLIGHT_ROUTE_POINT IS 'Route points: ROUT (scheduled route) and ERUT, each list in its own input order.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.ROUTE_KIND IS 'ROUT or ERUT: which list the point belongs to; the two are replaced independently.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SOURCE_SEQ IS 'RTNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.APCD IS 'Airport code.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SADC IS 'Arrival day offset raw (+1, -1).';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SADC_DAYS IS 'Arrival day offset parsed.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SDDC IS 'Departure day offset raw (+1, -1).';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SDDC_DAYS IS 'Departure day offset parsed.';

CREATE TABLE FLIGHT_PAYLOAD (
  FLID               NUMBER(19)                  NOT NULL,
  KIND               VARCHAR2(4 CHAR)            NOT NULL,
  FORMAT             VARCHAR2(4 CHAR)            NOT NULL,
  CONTENT            CLOB                        NOT NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_PAYLOAD_PKEY PRIMARY KEY (FLID, KIND),
  CONSTRAINT FLIGHT_PAYLOAD_FLIGHT_FK FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
  CONSTRAINT FLIGHT_PAYLOAD_KIND_CK CHECK (KIND IN ('SRVT', 'VIPF', 'PSHT', 'TIPT', 'PORT', 'MAFL')),
  CONSTRAINT FLIGHT_PAYLOAD_FORMAT_CK CHECK (FORMAT IN ('xml', 'json'))
);
COMMENT ON TABLE FLIGHT_PAYLOAD IS 'Collections without SQL columns (SRVT, VIPF, PSHT, TIPT, PORT, MAFL), validated by the codec and kept verbatim; one row per flight and kind, replaced as a whole (TEXT here, CLOB on Oracle).';
COMMENT ON COLUMN FLIGHT_PAYLOAD.FORMAT IS 'Encoding of content: xml (canonical XML of the items) or json.';
COMMENT ON COLUMN FLIGHT_PAYLOAD.CONTENT IS 'The whole collection, every item in input order.';

-- FLIGHT_HST.HST_ID: PostgreSQL GENERATED BY DEFAULT AS IDENTITY. 11g has no
-- identity columns: the adapter's INSERT supplies FLIGHT_HST_SEQ.NEXTVAL.
CREATE SEQUENCE FLIGHT_HST_SEQ START WITH 1 INCREMENT BY 1 NOCYCLE CACHE 20 NOORDER;

CREATE TABLE FLIGHT_HST (
  HST_ID             NUMBER(19)                  NOT NULL,
  FLID               NUMBER(19)                  NOT NULL,
  OPERATION_DAY      DATE                        NOT NULL,
  LIFECYCLE          VARCHAR2(8 CHAR)            NOT NULL,
  STATE_VERSION      NUMBER(19)                  NOT NULL,
  LAST_MESSAGE_ID    NUMBER(19)                  NOT NULL,
  STATE              CLOB                        NOT NULL,
  FLIGHT_CREATED_AT  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  PURGED_AT          TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_HST_PKEY PRIMARY KEY (HST_ID),
  CONSTRAINT FLIGHT_HST_LIFECYCLE_CK CHECK (LIFECYCLE IN ('ACTIVE', 'DELETED'))
);
CREATE INDEX FLIGHT_HST_FLID_IX ON FLIGHT_HST (FLID, STATE_VERSION);
CREATE INDEX FLIGHT_HST_DAY_IX ON FLIGHT_HST (OPERATION_DAY);
COMMENT ON TABLE FLIGHT_HST IS 'History store: the last full state of every flight the history sweep purged, written before the live rows are deleted.';
COMMENT ON COLUMN FLIGHT_HST.STATE IS 'The full flight state (every scalar raw + parsed, every detail list in order) as the documented event JSON.';
COMMENT ON COLUMN FLIGHT_HST.FLIGHT_CREATED_AT IS 'CREATED_AT of the purged FLIGHT_SCHD row.';
COMMENT ON COLUMN FLIGHT_HST.PURGED_AT IS 'When the sweep moved the flight here.';

-- ---- 030_snapshot.sql
-- Schedule snapshots (SCHD DNLD/RESP): one generation per flight day.
--
-- Oracle 11g Release 2 mirror of sql/postgres/schema/030_snapshot.sql: same
-- tables, columns, constraints and indexes; the type mapping and every
-- difference are in sql/oracle11g/README.md.

CREATE TABLE SCHD_GEN (
  FDAY               DATE                        NOT NULL,
  VERSION            NUMBER(19)                  NOT NULL,
  LAST_MESSAGE_ID    NUMBER(19)                  NOT NULL,
  CONTENT_DIGEST     VARCHAR2(64 CHAR)           NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  MSG_DTTM_RAW       VARCHAR2(32 CHAR)           NULL,
  MSG_DTTM           TIMESTAMP(6) WITH TIME ZONE NULL,
  CONSTRAINT SCHD_GEN_PKEY PRIMARY KEY (FDAY),
  CONSTRAINT SCHD_GEN_VERSION_CK CHECK (VERSION >= 1)
);
COMMENT ON TABLE SCHD_GEN IS 'Current snapshot generation per flight day. VERSION advances by exactly one per snapshot message with a compare-and-set on (FDAY, VERSION).';
COMMENT ON COLUMN SCHD_GEN.VERSION IS 'Monotonic generation number; an ordering token, not a message identity.';
COMMENT ON COLUMN SCHD_GEN.LAST_MESSAGE_ID IS 'MSG_ID of the snapshot that produced this generation; a replay of it advances nothing.';
COMMENT ON COLUMN SCHD_GEN.CONTENT_DIGEST IS 'SHA-256 (hex) of the snapshot records of this day, for audit and comparison.';
COMMENT ON COLUMN SCHD_GEN.MSG_DTTM_RAW IS 'META DTTM of the snapshot that produced this generation, exactly as sent (yyyyMMddHHmmss, airport local time).';
COMMENT ON COLUMN SCHD_GEN.MSG_DTTM IS 'That DTTM parsed in the airport time zone: a snapshot sent before it leaves this day alone (STALE in schd_snap_log). NULL (a generation older than this column) lets any snapshot apply.';

CREATE TABLE SCHD_GEN_FLID (
  FDAY               DATE                        NOT NULL,
  FLID               NUMBER(19)                  NOT NULL,
  CONSTRAINT SCHD_GEN_FLID_PKEY PRIMARY KEY (FDAY, FLID),
  CONSTRAINT SCHD_GEN_FLID_GEN_FK FOREIGN KEY (FDAY) REFERENCES SCHD_GEN (FDAY) ON DELETE CASCADE,
  CONSTRAINT SCHD_GEN_FLID_FLIGHT_FK FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE
);
CREATE INDEX SCHD_GEN_FLID_FLID_IX ON SCHD_GEN_FLID (FLID);
COMMENT ON TABLE SCHD_GEN_FLID IS 'Members of the current generation of each flight day: the only flights a later snapshot of that day may prune.';

-- SCHD_SNAP_LOG.SNAP_ID: PostgreSQL GENERATED BY DEFAULT AS IDENTITY. 11g has
-- no identity columns: the adapter's INSERT supplies SCHD_SNAP_LOG_SEQ.NEXTVAL.
CREATE SEQUENCE SCHD_SNAP_LOG_SEQ START WITH 1 INCREMENT BY 1 NOCYCLE CACHE 20 NOORDER;

CREATE TABLE SCHD_SNAP_LOG (
  SNAP_ID            NUMBER(19)                  NOT NULL,
  MSG_ID             NUMBER(19)                  NOT NULL,
  MSG_SUBTYPE        VARCHAR2(8 CHAR)            NOT NULL,
  FDAY               DATE                        NOT NULL,
  GEN_VERSION        NUMBER(19)                  NOT NULL,
  SCOPE_BEGIN        TIMESTAMP(6) WITH TIME ZONE NULL,
  SCOPE_END          TIMESTAMP(6) WITH TIME ZONE NULL,
  RECORD_COUNT       NUMBER(10)                  NOT NULL,
  CHANGED            NUMBER(10)                  NOT NULL,
  UNCHANGED          NUMBER(10)                  NOT NULL,
  PRUNED             NUMBER(10)                  NOT NULL,
  RECV_AT            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  OUTCOME            VARCHAR2(8 CHAR)            DEFAULT 'APPLIED' NOT NULL,
  MSG_DTTM           TIMESTAMP(6) WITH TIME ZONE NULL,
  STALE_OF           NUMBER(19)                  NULL,
  CONSTRAINT SCHD_SNAP_LOG_PKEY PRIMARY KEY (SNAP_ID),
  CONSTRAINT SCHD_SNAP_LOG_STYP_CK CHECK (MSG_SUBTYPE IN ('DNLD', 'RESP')),
  CONSTRAINT SCHD_SNAP_LOG_COUNTS_CK CHECK (RECORD_COUNT >= 0 AND CHANGED >= 0 AND UNCHANGED >= 0 AND PRUNED >= 0),
  CONSTRAINT SCHD_SNAP_LOG_OUTCOME_CK CHECK ((OUTCOME = 'APPLIED' AND STALE_OF IS NULL) OR (OUTCOME = 'STALE' AND STALE_OF IS NOT NULL))
);
-- TIMESTAMP WITH TIME ZONE key: Oracle builds it on SYS_EXTRACT_UTC(RECV_AT).
CREATE INDEX SCHD_SNAP_LOG_RECV_IX ON SCHD_SNAP_LOG (RECV_AT);
COMMENT ON TABLE SCHD_SNAP_LOG IS 'Audit of every snapshot, one row per message and flight day (applied, or left alone as stale); kept 90 days.';
COMMENT ON COLUMN SCHD_SNAP_LOG.GEN_VERSION IS 'APPLIED: the generation this snapshot made. STALE: the newer generation the day kept.';
COMMENT ON COLUMN SCHD_SNAP_LOG.SCOPE_BEGIN IS 'Earliest SODT among the records of this day.';
COMMENT ON COLUMN SCHD_SNAP_LOG.SCOPE_END IS 'Latest SODT among the records of this day.';
COMMENT ON COLUMN SCHD_SNAP_LOG.CHANGED IS 'Flights created or changed by the snapshot.';
COMMENT ON COLUMN SCHD_SNAP_LOG.UNCHANGED IS 'Flights already in exactly the sent state.';
COMMENT ON COLUMN SCHD_SNAP_LOG.PRUNED IS 'Previous-generation members absent from this snapshot, marked DELETED.';
COMMENT ON COLUMN SCHD_SNAP_LOG.RECV_AT IS 'When the snapshot was processed (retention key).';
COMMENT ON COLUMN SCHD_SNAP_LOG.OUTCOME IS 'APPLIED: the day was upserted, pruned and advanced. STALE: the snapshot was sent (DTTM) before the day''s generation, so the day was left alone (no upsert, no prune, version unchanged; changed, unchanged and pruned 0).';
COMMENT ON COLUMN SCHD_SNAP_LOG.MSG_DTTM IS 'META DTTM of the snapshot, parsed in the airport time zone.';
COMMENT ON COLUMN SCHD_SNAP_LOG.STALE_OF IS 'STALE only: MSG_ID of the snapshot that made the newer generation the day kept.';

-- ---- 040_outbox.sql
-- The outbox: events written in the business transaction, delivered to Kafka
-- by the relay.
--
-- Delivery state is kept where it is cheap to write (issue #5: one UPDATE per
-- delivered row rewrote the whole ~1.3 KB row and its index entries):
--   KAFKA:msg  is delivered as a contiguous prefix in EVENT_ID order, so its
--              progress is one watermark row (MSG_EVENT_CURSOR); a MSG_EVENT
--              row is written again only when its delivery fails (attempts,
--              backoff, last error) or it becomes DEAD. Its STATUS is NULL
--              until then: SENT when EVENT_ID <= the watermark, else PENDING.
--              Sound because EVENT_IDs commit in order: every writer holds
--              the pipeline lock (LockPipeline) from its insert to its commit
--              (and MSG_EVENT_SEQ is ORDER, see below).
--   KAFKA:schd is aggregated per flight, out of EVENT_ID order, so its rows
--              carry their own STATUS (PENDING, SENT, DEAD).
-- Effective status of any event, for reports:
--   COALESCE(e.STATUS, CASE WHEN e.EVENT_ID <= c.SENT_THROUGH THEN 'SENT' ELSE 'PENDING' END)
--   FROM MSG_EVENT e LEFT JOIN MSG_EVENT_CURSOR c ON c.TARGET = e.TARGET
--
-- Oracle 11g Release 2 mirror of sql/postgres/schema/040_outbox.sql: same
-- tables, columns, constraints and indexes; the type mapping and every
-- difference are in sql/oracle11g/README.md.

-- MSG_EVENT.EVENT_ID: PostgreSQL GENERATED BY DEFAULT AS IDENTITY. 11g has no
-- identity columns: the adapter's INSERT supplies MSG_EVENT_SEQ.NEXTVAL.
-- EVENT_ID is the delivery order, and business transactions are serialized by
-- PIPELINE_LOCK, so the sequence is ORDER: on RAC a NOORDER sequence hands each
-- instance its own cached range and a later transaction could get a smaller id,
-- which the KAFKA:msg watermark would then skip as already delivered.
-- (On a single instance ORDER changes nothing.)
CREATE SEQUENCE MSG_EVENT_SEQ START WITH 1 INCREMENT BY 1 NOCYCLE CACHE 20 ORDER;

CREATE TABLE MSG_EVENT (
  EVENT_ID           NUMBER(19)                  NOT NULL,
  TARGET             VARCHAR2(16 CHAR)           NOT NULL,
  PARTITION_KEY      VARCHAR2(32 CHAR)           NOT NULL,
  EVENT_TYPE         VARCHAR2(16 CHAR)           NOT NULL,
  CMINMSGS_ID        NUMBER(19)                  NOT NULL,
  FLID               NUMBER(19)                  NOT NULL,
  STATE_VERSION      NUMBER(19)                  NOT NULL,
  IDEMPOTENCY_KEY    VARCHAR2(200 CHAR)          NOT NULL,
  PAYLOAD            CLOB                        NULL,
  STATUS             VARCHAR2(8 CHAR)            NULL,
  ATTEMPTS           NUMBER(10)                  DEFAULT 0 NOT NULL,
  NEXT_ATTEMPT_AT    TIMESTAMP(6) WITH TIME ZONE NULL,
  LAST_ERROR         VARCHAR2(1000 CHAR)         NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  SENT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CONSTRAINT MSG_EVENT_PKEY PRIMARY KEY (EVENT_ID),
  CONSTRAINT MSG_EVENT_IDEMPOTENCY_UQ UNIQUE (IDEMPOTENCY_KEY),
  CONSTRAINT MSG_EVENT_TARGET_CK CHECK (TARGET IN ('KAFKA:msg', 'KAFKA:schd')),
  CONSTRAINT MSG_EVENT_TYPE_CK CHECK (EVENT_TYPE IN ('UPSERT', 'TOMBSTONE')),
  CONSTRAINT MSG_EVENT_STATUS_CK CHECK (STATUS IN ('PENDING', 'SENT', 'DEAD')),
  -- KAFKA:msg rows: NULL (state by the watermark) or DEAD; KAFKA:schd rows: always a status.
  CONSTRAINT MSG_EVENT_STATUS_TARGET_CK CHECK (
    (TARGET = 'KAFKA:msg' AND (STATUS IS NULL OR STATUS = 'DEAD'))
    OR (TARGET = 'KAFKA:schd' AND STATUS IS NOT NULL)),
  CONSTRAINT MSG_EVENT_ATTEMPTS_CK CHECK (ATTEMPTS >= 0),
  -- The payload is stored once per change, on the KAFKA:msg row: a KAFKA:schd
  -- row's payload is its KAFKA:msg twin's (same CMINMSGS_ID, FLID and
  -- STATE_VERSION; IDEMPOTENCY_KEY ending in ':KAFKA:msg').
  CONSTRAINT MSG_EVENT_PAYLOAD_CK CHECK (
    (TARGET = 'KAFKA:msg' AND (EVENT_TYPE = 'TOMBSTONE' OR PAYLOAD IS NOT NULL))
    OR (TARGET = 'KAFKA:schd' AND PAYLOAD IS NULL))
);
-- PostgreSQL has partial indexes here (WHERE status = 'PENDING' / 'DEAD', and
-- WHERE target = 'KAFKA:msg' AND status IS NULL); 11g has none, so each key
-- column is wrapped in CASE WHEN <condition> THEN col END: all key columns are
-- NULL for rows outside the condition, and such rows get no index entry. A
-- query uses an index only when it repeats these expressions exactly (see
-- sql/oracle11g/queries/README.md).
-- Head of KAFKA:schd (PENDING rows only).
CREATE INDEX MSG_EVENT_HEAD_IX ON MSG_EVENT (CASE WHEN STATUS = 'PENDING' THEN TARGET END, CASE WHEN STATUS = 'PENDING' THEN EVENT_ID END);
-- Head of KAFKA:msg: its not-DEAD rows, read as a range above the watermark
-- (an entry is written once, at insert; delivery never touches it). EVENT_ID
-- is never NULL, so every such row has an entry, as in PostgreSQL.
--   WHERE CASE WHEN TARGET = 'KAFKA:msg' AND STATUS IS NULL THEN EVENT_ID END > :through
CREATE INDEX MSG_EVENT_MSG_HEAD_IX ON MSG_EVENT (CASE WHEN TARGET = 'KAFKA:msg' AND STATUS IS NULL THEN EVENT_ID END);
-- schd aggregation: pending events of a target grouped by flight.
CREATE INDEX MSG_EVENT_PENDING_KEY_IX ON MSG_EVENT (CASE WHEN STATUS = 'PENDING' THEN TARGET END, CASE WHEN STATUS = 'PENDING' THEN PARTITION_KEY END, CASE WHEN STATUS = 'PENDING' THEN STATE_VERSION END);
CREATE INDEX MSG_EVENT_DEAD_IX ON MSG_EVENT (CASE WHEN STATUS = 'DEAD' THEN TARGET END, CASE WHEN STATUS = 'DEAD' THEN EVENT_ID END);

COMMENT ON TABLE MSG_EVENT IS 'Outbox of flight change events. KAFKA:msg is delivered one by one in EVENT_ID order, its progress kept in msg_event_cursor; KAFKA:schd is aggregated to the latest state per FLID, its progress kept per row in STATUS. DEAD rows are the dead-letter record.';
COMMENT ON COLUMN MSG_EVENT.EVENT_ID IS 'Delivery order within a target.';
COMMENT ON COLUMN MSG_EVENT.TARGET IS 'KAFKA:msg (every change) or KAFKA:schd (latest state per flight).';
COMMENT ON COLUMN MSG_EVENT.PARTITION_KEY IS 'Kafka record key: the FLID as text.';
COMMENT ON COLUMN MSG_EVENT.EVENT_TYPE IS 'UPSERT (payload = full flight state) or TOMBSTONE (flight deleted).';
COMMENT ON COLUMN MSG_EVENT.CMINMSGS_ID IS 'Mailbox id of the message that caused the change.';
COMMENT ON COLUMN MSG_EVENT.FLID IS 'The flight (FLID) the event is about.';
COMMENT ON COLUMN MSG_EVENT.STATE_VERSION IS 'Flight STATE_VERSION after the change.';
COMMENT ON COLUMN MSG_EVENT.IDEMPOTENCY_KEY IS '<CMINMSGS_ID>:<FLID>:<STATE_VERSION>:<TARGET>; consumers deduplicate by it, and UNIQUE keeps it from being enqueued twice.';
COMMENT ON COLUMN MSG_EVENT.PAYLOAD IS 'KAFKA:msg: JSON of the full next flight state (documented in docs/events.md); may be NULL for a TOMBSTONE. KAFKA:schd: always NULL, the payload is the KAFKA:msg twin''s (same cminmsgs_id, flid, state_version), stored once.';
COMMENT ON COLUMN MSG_EVENT.STATUS IS 'KAFKA:schd: PENDING, SENT (broker acknowledged) or DEAD (attempts exhausted; kept as the DLQ record). KAFKA:msg: NULL (delivery state by the watermark: SENT when EVENT_ID <= msg_event_cursor.sent_through, else PENDING) or DEAD (kept as the DLQ record).';
COMMENT ON COLUMN MSG_EVENT.ATTEMPTS IS 'Failed deliveries so far (kept after a later success, as history).';
COMMENT ON COLUMN MSG_EVENT.NEXT_ATTEMPT_AT IS 'Backoff: the event (and, for KAFKA:msg, its target) waits until then.';
COMMENT ON COLUMN MSG_EVENT.LAST_ERROR IS 'Reason of the last failed delivery; for a DEAD row the dead-letter reason. KAFKA:schd clears it when SENT; KAFKA:msg keeps it as history.';
COMMENT ON COLUMN MSG_EVENT.CREATED_AT IS 'When the event was written (in the business transaction); outbox lag is measured from it.';
COMMENT ON COLUMN MSG_EVENT.SENT_AT IS 'KAFKA:schd: when the row was marked SENT. Always NULL for KAFKA:msg (see msg_event_cursor.sent_at).';

-- KAFKA:msg delivery progress: the watermark of the contiguous acknowledged
-- prefix. One row per watermarked target, created by the first delivery.
-- No sequence: the key is TARGET.
CREATE TABLE MSG_EVENT_CURSOR (
  TARGET             VARCHAR2(16 CHAR)           NOT NULL,
  SENT_THROUGH       NUMBER(19)                  NOT NULL,
  SENT_AT            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  CONSTRAINT MSG_EVENT_CURSOR_PKEY PRIMARY KEY (TARGET),
  CONSTRAINT MSG_EVENT_CURSOR_TARGET_CK CHECK (TARGET = 'KAFKA:msg'),
  CONSTRAINT MSG_EVENT_CURSOR_THROUGH_CK CHECK (SENT_THROUGH >= 0)
);

COMMENT ON TABLE MSG_EVENT_CURSOR IS 'Delivery watermark of KAFKA:msg: every event of the target with EVENT_ID <= SENT_THROUGH was acknowledged by the broker (SENT) or is DEAD; the events above it (STATUS NULL) are PENDING. No row: nothing delivered yet.';
COMMENT ON COLUMN MSG_EVENT_CURSOR.TARGET IS 'The outbox target (KAFKA:msg only; KAFKA:schd keeps its state per row).';
COMMENT ON COLUMN MSG_EVENT_CURSOR.SENT_THROUGH IS 'EVENT_ID of the last event of the acknowledged contiguous prefix; only moves forward.';
COMMENT ON COLUMN MSG_EVENT_CURSOR.SENT_AT IS 'When the watermark last moved (the delivery time of the events it then covered).';

-- ---- 050_reference.sql
-- Upstream requests (RQFD/RQRD) and the reference data they and the AODB's
-- list downloads bring.
--
-- Oracle 11g Release 2 mirror of sql/postgres/schema/050_reference.sql: same
-- tables, columns, constraints and indexes; the type mapping and every
-- difference are in sql/oracle11g/README.md.

-- REQ_TRACK.REQ_ID: PostgreSQL GENERATED BY DEFAULT AS IDENTITY. 11g has no
-- identity columns: the adapter's INSERT supplies REQ_TRACK_SEQ.NEXTVAL.
CREATE SEQUENCE REQ_TRACK_SEQ START WITH 1 INCREMENT BY 1 NOCYCLE CACHE 20 NOORDER;

CREATE TABLE REQ_TRACK (
  REQ_ID             NUMBER(19)                  NOT NULL,
  REQ_TYPE           VARCHAR2(4 CHAR)            NOT NULL,
  REQ_KEY            VARCHAR2(16 CHAR)           NOT NULL,
  LIST_CODE          VARCHAR2(4 CHAR)            NULL,
  RANGE_BEGIN        TIMESTAMP(6) WITH TIME ZONE NULL,
  RANGE_END          TIMESTAMP(6) WITH TIME ZONE NULL,
  SENDER             VARCHAR2(32 CHAR)           NOT NULL,
  SEQN               NUMBER(19)                  NOT NULL,
  OUTBOUND_ID        NUMBER(19)                  NULL,
  STATUS             VARCHAR2(12 CHAR)           DEFAULT 'REGISTERED' NOT NULL,
  REGISTERED_AT      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  SENT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  EXPIRES_AT         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  DONE_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  RESPONSE_MSG_ID    NUMBER(19)                  NULL,
  NOTE               VARCHAR2(1000 CHAR)         NULL,
  MATCH_RULE         VARCHAR2(12 CHAR)           NULL,
  CONSTRAINT REQ_TRACK_PKEY PRIMARY KEY (REQ_ID),
  CONSTRAINT REQ_TRACK_TYPE_CK CHECK (REQ_TYPE IN ('RQFD', 'RQRD')),
  CONSTRAINT REQ_TRACK_STATUS_CK CHECK (STATUS IN ('REGISTERED', 'SENT', 'DONE', 'EXPIRED')),
  CONSTRAINT REQ_TRACK_RANGE_CK CHECK (RANGE_BEGIN IS NULL OR RANGE_END IS NULL OR RANGE_BEGIN <= RANGE_END),
  CONSTRAINT REQ_TRACK_MATCH_RULE_CK CHECK (MATCH_RULE IN ('exact', 'degraded'))
);
-- At most one open request per kind (RQFD, or RQRD per list). PostgreSQL: a
-- partial UNIQUE index. Here a function-based UNIQUE index whose key is NULL
-- for closed requests (DONE, EXPIRED); all-NULL keys are not stored, so any
-- number of closed requests may share a REQ_KEY. A second open one fails with
-- ORA-00001 naming REQ_TRACK_OPEN_UQ.
CREATE UNIQUE INDEX REQ_TRACK_OPEN_UQ ON REQ_TRACK (CASE WHEN STATUS IN ('REGISTERED', 'SENT') THEN REQ_KEY END);
COMMENT ON TABLE REQ_TRACK IS 'Requests msgx sent to the AODB (RQFD flight data, RQRD reference lists) and their answers.';
COMMENT ON COLUMN REQ_TRACK.REQ_KEY IS 'What an open request is unique by: RQFD, or RQRD:<list code>.';
COMMENT ON COLUMN REQ_TRACK.LIST_CODE IS 'RQRD: the reference list requested (RTYP).';
COMMENT ON COLUMN REQ_TRACK.RANGE_BEGIN IS 'RQFD: STDB, start of the requested SODT range.';
COMMENT ON COLUMN REQ_TRACK.RANGE_END IS 'RQFD: STDE, end of the requested SODT range.';
COMMENT ON COLUMN REQ_TRACK.SEQN IS 'META SEQN msgx put on the request.';
COMMENT ON COLUMN REQ_TRACK.OUTBOUND_ID IS 'COUTMSGS_ID of the request in the outbound mailbox, once written.';
COMMENT ON COLUMN REQ_TRACK.STATUS IS 'REGISTERED, SENT (in the outbound mailbox), DONE (answer applied) or EXPIRED.';
COMMENT ON COLUMN REQ_TRACK.RESPONSE_MSG_ID IS 'MSG_ID of the RESP that completed the request.';
COMMENT ON COLUMN REQ_TRACK.MATCH_RULE IS 'How the RESP matched: exact (an echoed field) or degraded (RESP DTTM >= sent_at).';
COMMENT ON COLUMN REQ_TRACK.REGISTERED_AT IS 'Registration time; also the META DTTM written on the request.';
COMMENT ON COLUMN REQ_TRACK.SENT_AT IS 'COUTMSGS_DATE_INSERTED of the request: the insert into the outbound mailbox.';
COMMENT ON COLUMN REQ_TRACK.EXPIRES_AT IS 'sent_at (registered_at until sent) + request.timeout: past it the request expires.';
COMMENT ON COLUMN REQ_TRACK.NOTE IS 'Why the request closed without an answer (superseded, timed out, never sent).';

-- The META SEQN source of msgx's requests: one row, advanced under its row
-- lock. Cycles inside the AODB's MEDIUMINT SEQN.
CREATE TABLE REQ_SEQN (
  ID    NUMBER(5)  NOT NULL,
  SEQN  NUMBER(19) NOT NULL,
  CONSTRAINT REQ_SEQN_PKEY PRIMARY KEY (ID),
  CONSTRAINT REQ_SEQN_ONE_CK CHECK (ID = 1),
  CONSTRAINT REQ_SEQN_RANGE_CK CHECK (SEQN BETWEEN 1 AND 8388607)
);
COMMENT ON TABLE REQ_SEQN IS 'The last META SEQN msgx put on a request (one row).';

CREATE TABLE REF_MASTER (
  RTYPE              VARCHAR2(4 CHAR)            NOT NULL,
  RKEY               VARCHAR2(1000 CHAR)         NOT NULL,
  RECORD             CLOB                        NOT NULL,
  VERSION            NUMBER(19)                  DEFAULT 1 NOT NULL,
  LAST_MESSAGE_ID    NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT REF_MASTER_PKEY PRIMARY KEY (RTYPE, RKEY),
  CONSTRAINT REF_MASTER_VERSION_CK CHECK (VERSION >= 1)
);
COMMENT ON TABLE REF_MASTER IS 'Reference data from the AODB lists (ABDG, AIRL, ARPT, GLST, ...): one row per (list, key), the record kept whole.';
COMMENT ON COLUMN REF_MASTER.RTYPE IS 'List TYPE, e.g. AIRL.';
COMMENT ON COLUMN REF_MASTER.RKEY IS 'Record key within the list, as the codec derives it.';
COMMENT ON COLUMN REF_MASTER.RECORD IS 'The record exactly as received (canonical XML).';
COMMENT ON COLUMN REF_MASTER.VERSION IS 'Advances when the record content changes.';
