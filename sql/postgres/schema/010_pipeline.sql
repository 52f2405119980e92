-- Processing pipeline: the inbound queue, its archive, the pipeline lock, the
-- ingress watermark and the mailbox backfill todos.

CREATE TABLE proc_state (
  msg_id            BIGINT        NOT NULL,
  status            VARCHAR(16)   NOT NULL DEFAULT 'PENDING',
  identity_key      VARCHAR(300)  COLLATE "C" NULL,
  kind              VARCHAR(32)   NULL,
  msg_type          VARCHAR(8)    NULL,
  msg_subtype       VARCHAR(8)    NULL,
  meta_sndr         VARCHAR(32)   NULL,
  meta_seqn         BIGINT        NULL,
  meta_dttm_raw     VARCHAR(32)   NULL,
  meta_dttm         TIMESTAMPTZ   NULL,
  attempts          INTEGER       NOT NULL DEFAULT 0,
  next_attempt_at   TIMESTAMPTZ   NULL,
  first_seen_at     TIMESTAMPTZ   NOT NULL,
  failing_since     TIMESTAMPTZ   NULL,
  error_class       VARCHAR(16)   NULL,
  reason            VARCHAR(1000) NULL,
  duplicate_of      BIGINT        NULL,
  replay_count      INTEGER       NOT NULL DEFAULT 0,
  prev_error_class  VARCHAR(16)   NULL,
  prev_reason       VARCHAR(1000) NULL,
  finished_at       TIMESTAMPTZ   NULL,
  created_at        TIMESTAMPTZ   NOT NULL DEFAULT now(),
  updated_at        TIMESTAMPTZ   NOT NULL DEFAULT now(),
  late_after        BIGINT        NULL,
  raw_digest        BYTEA         NULL,
  CONSTRAINT proc_state_pkey PRIMARY KEY (msg_id),
  CONSTRAINT proc_state_status_ck CHECK (status IN ('PENDING', 'FAILED', 'SUCCEEDED', 'SKIPPED', 'DEAD')),
  CONSTRAINT proc_state_class_ck CHECK (error_class IN ('MALFORMED', 'PROTOCOL', 'CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')),
  CONSTRAINT proc_state_prev_class_ck CHECK (prev_error_class IN ('MALFORMED', 'PROTOCOL', 'CODEC_ERROR', 'UNSUPPORTED', 'INFRA', 'EXHAUSTED')),
  CONSTRAINT proc_state_attempts_ck CHECK (attempts >= 0 AND replay_count >= 0)
);
-- The queue head: the smallest unfinished MSG_ID. Partial, so the index holds
-- only the backlog, not the millions of terminal rows.
CREATE INDEX proc_state_head_ix ON proc_state (msg_id) WHERE status IN ('PENDING', 'FAILED');
-- One holder per identity: a message is processed once. A SKIPPED duplicate
-- keeps the identity it repeats (operators see why it was skipped), so the
-- uniqueness covers the holders only. IDENTITY_KEY is COLLATE "C" (here and
-- in proc_state_hst): an identifier, compared bytewise; under a linguistic
-- collation (en_US.UTF-8) every index comparison would go through strcoll
-- (docs/dev/performance-notes.md). Only bound keys are indexed: a PENDING
-- row (identity_key NULL until decoded) added an entry on enqueue that its
-- finish replaced at once, one index insert per message for nothing (issue
-- #34); Oracle's unique index ignores all-NULL keys alike. Every lookup is by
-- a key (=, strict), so it implies the predicate and still uses the index.
CREATE UNIQUE INDEX proc_state_identity_uq ON proc_state (identity_key) WHERE duplicate_of IS NULL AND identity_key IS NOT NULL;
CREATE INDEX proc_state_dead_ix ON proc_state (error_class, msg_id) WHERE status = 'DEAD';
-- The late rows of a period (msgx status): few, so a partial index.
CREATE INDEX proc_state_late_ix ON proc_state (first_seen_at) WHERE late_after IS NOT NULL;
-- The duplicates of a period (identity conflicts in msgx status): few, so a partial index.
CREATE INDEX proc_state_duplicate_ix ON proc_state (finished_at) WHERE duplicate_of IS NOT NULL;

COMMENT ON TABLE proc_state IS 'One row per inbound mailbox row (cminmsgs): its processing status, bound identity, attempts and error. The queue is every row with status PENDING or FAILED, in MSG_ID order.';
COMMENT ON COLUMN proc_state.msg_id IS 'CMINMSGS_ID of the mailbox row. Primary key: a mailbox row is enqueued at most once, so rescans are harmless.';
COMMENT ON COLUMN proc_state.status IS 'PENDING (waiting), FAILED (retrying with backoff; still holds the head), SUCCEEDED, SKIPPED, DEAD (terminal).';
COMMENT ON COLUMN proc_state.identity_key IS 'Business identity SNDR|TYPE|STYP|SEQN[|day], bound once after decode; unique among holders (duplicate_of NULL) so a message is processed once; a SKIPPED duplicate shows the identity it repeats. NULL until decoded.';
COMMENT ON COLUMN proc_state.kind IS 'Decoded message kind (schedule, flight ops, flight delete, reference, ignored, unsupported).';
COMMENT ON COLUMN proc_state.meta_sndr IS 'META SNDR as decoded; with the other meta_* columns it is what the mailbox backfill writes.';
COMMENT ON COLUMN proc_state.meta_dttm_raw IS 'META DTTM exactly as sent (yyyyMMddHHmmss, airport local time).';
COMMENT ON COLUMN proc_state.meta_dttm IS 'META DTTM parsed in the airport time zone.';
COMMENT ON COLUMN proc_state.attempts IS 'Failed processing attempts so far; at max-attempts the row becomes DEAD(EXHAUSTED).';
COMMENT ON COLUMN proc_state.next_attempt_at IS 'Earliest time a FAILED head may be retried (backoff 1, 2, 4, 8, 16 s, each capped).';
COMMENT ON COLUMN proc_state.first_seen_at IS 'When msgx first enqueued the row; never changes (latency and head age are measured from it).';
COMMENT ON COLUMN proc_state.failing_since IS 'When the current series of counted failures began (the first one since enqueue or the last replay); the head-deadline runs from it. NULL while nothing failed.';
COMMENT ON COLUMN proc_state.error_class IS 'MALFORMED, PROTOCOL, CODEC_ERROR, UNSUPPORTED, INFRA or EXHAUSTED; NULL when no error.';
COMMENT ON COLUMN proc_state.reason IS 'Error reason, or the SKIPPED reason (duplicate-of:<id>, ignored:<TYPE>, no-match:flight, no-match:flight-deleted, stale-snapshot:<id>, no-match:request); docs/api.md lists them all.';
COMMENT ON COLUMN proc_state.duplicate_of IS 'For SKIPPED duplicates: the MSG_ID that holds the identity.';
COMMENT ON COLUMN proc_state.replay_count IS 'How often an operator replayed the row back to PENDING.';
COMMENT ON COLUMN proc_state.prev_error_class IS 'Audit: the error class the row had before its last replay.';
COMMENT ON COLUMN proc_state.prev_reason IS 'Audit: the reason the row had before its last replay.';
COMMENT ON COLUMN proc_state.finished_at IS 'When the row reached a terminal status (SUCCEEDED, SKIPPED, DEAD).';
COMMENT ON COLUMN proc_state.late_after IS 'Late row (rule 17): the largest MSG_ID already finished when this row was enqueued, so its effect lands after that one''s (shown as late:<id>). NULL for a row enqueued in order.';
COMMENT ON COLUMN proc_state.raw_digest IS 'SHA-256 of the raw mailbox message, first 16 bytes, bound with the identity (rule 2): a duplicate whose digest differs from its holder''s is SKIPPED duplicate-of:<id>:content-differs. NULL until bound, and on rows bound before digests were kept (unknown: a plain duplicate).';

CREATE TABLE proc_state_hst (
  msg_id            BIGINT        NOT NULL,
  status            VARCHAR(16)   NOT NULL,
  identity_key      VARCHAR(300)  COLLATE "C" NULL,
  kind              VARCHAR(32)   NULL,
  msg_type          VARCHAR(8)    NULL,
  msg_subtype       VARCHAR(8)    NULL,
  meta_sndr         VARCHAR(32)   NULL,
  meta_seqn         BIGINT        NULL,
  meta_dttm_raw     VARCHAR(32)   NULL,
  meta_dttm         TIMESTAMPTZ   NULL,
  attempts          INTEGER       NOT NULL,
  first_seen_at     TIMESTAMPTZ   NOT NULL,
  error_class       VARCHAR(16)   NULL,
  reason            VARCHAR(1000) NULL,
  duplicate_of      BIGINT        NULL,
  replay_count      INTEGER       NOT NULL,
  prev_error_class  VARCHAR(16)   NULL,
  prev_reason       VARCHAR(1000) NULL,
  finished_at       TIMESTAMPTZ   NULL,
  created_at        TIMESTAMPTZ   NOT NULL,
  archived_at       TIMESTAMPTZ   NOT NULL DEFAULT now(),
  late_after        BIGINT        NULL,
  raw_digest        BYTEA         NULL,
  CONSTRAINT proc_state_hst_pkey PRIMARY KEY (msg_id),
  CONSTRAINT proc_state_hst_status_ck CHECK (status IN ('SUCCEEDED', 'SKIPPED', 'DEAD'))
)
-- No parallel scans of the archive (issue #35): it holds a year of messages,
-- and every statement on it is an index lookup of a few keys, which parallel
-- workers only slow down (the identity lookup took 4-6 times as long).
WITH (parallel_workers = 0);
CREATE INDEX proc_state_hst_archived_ix ON proc_state_hst (archived_at);
CREATE UNIQUE INDEX proc_state_hst_identity_uq ON proc_state_hst (identity_key) WHERE duplicate_of IS NULL;
-- The archive's twin of proc_state_late_ix: the late rows since a time (msgx
-- status, /metrics) without reading a year of messages.
CREATE INDEX proc_state_hst_late_ix ON proc_state_hst (first_seen_at) WHERE late_after IS NOT NULL;
-- The archive's twin of proc_state_duplicate_ix: the identity conflicts of
-- the last 24 h (msgx status, /metrics) without reading a day of archive.
CREATE INDEX proc_state_hst_duplicate_ix ON proc_state_hst (finished_at) WHERE duplicate_of IS NOT NULL;
COMMENT ON TABLE proc_state_hst IS 'Archive of terminal PROC_STATE rows. Identity keys of holders stay unique here and are checked on bind, so an archived message still deduplicates.';
COMMENT ON COLUMN proc_state_hst.archived_at IS 'When the row was moved out of PROC_STATE.';
COMMENT ON COLUMN proc_state_hst.late_after IS 'As proc_state.late_after.';
COMMENT ON COLUMN proc_state_hst.raw_digest IS 'As proc_state.raw_digest.';

CREATE TABLE pipeline_lock (
  id         SMALLINT     NOT NULL,
  locked_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
  enqueued_below BIGINT   NOT NULL DEFAULT 0,
  CONSTRAINT pipeline_lock_pkey PRIMARY KEY (id),
  CONSTRAINT pipeline_lock_single_ck CHECK (id = 1)
);
COMMENT ON TABLE pipeline_lock IS 'A single row (id = 1) locked by every business transaction, so flight state is only ever written by one transaction at a time.';
COMMENT ON COLUMN pipeline_lock.locked_at IS 'Last time a business transaction took the lock (diagnostics only).';
COMMENT ON COLUMN pipeline_lock.enqueued_below IS 'Counts the enqueues of an id below the largest known one (they hold the lock), in their transaction. The pump reads it with its run and compares it under the lock: a change means an id may have entered inside the run, which is then abandoned (docs/design.md §1.1).';

CREATE TABLE pump_state (
  id                 SMALLINT       NOT NULL,
  paused_dependency  VARCHAR(16)    NULL,
  paused_reason      VARCHAR(1000)  NULL,
  paused_since       TIMESTAMPTZ    NULL,
  updated_at         TIMESTAMPTZ    NOT NULL,
  CONSTRAINT pump_state_pkey PRIMARY KEY (id),
  CONSTRAINT pump_state_single_ck CHECK (id = 1),
  CONSTRAINT pump_state_dependency_ck CHECK (paused_dependency IN ('postgres', 'mailbox')),
  CONSTRAINT pump_state_paused_ck CHECK ((paused_dependency IS NULL) = (paused_since IS NULL))
);
COMMENT ON TABLE pump_state IS 'What the leader''s pump publishes about itself for operators (msgx status): a single row (id = 1).';
COMMENT ON COLUMN pump_state.paused_dependency IS 'The dependency the pump is paused on (postgres, mailbox): it cannot be reached, so the pump waits and probes it without counting attempts (rule 14). NULL while the pump runs.';
COMMENT ON COLUMN pump_state.paused_reason IS 'The error that paused the pump, as the driver reported it.';
COMMENT ON COLUMN pump_state.paused_since IS 'When the pause began.';
COMMENT ON COLUMN pump_state.updated_at IS 'When the pump last wrote the row (a pause is re-published while it lasts).';

CREATE TABLE ingress_mark (
  source      VARCHAR(32)  NOT NULL,
  last_id     BIGINT       NOT NULL,
  updated_at  TIMESTAMPTZ  NOT NULL DEFAULT now(),
  CONSTRAINT ingress_mark_pkey PRIMARY KEY (source),
  CONSTRAINT ingress_mark_last_id_ck CHECK (last_id >= 0)
);
COMMENT ON TABLE ingress_mark IS 'Persistent poll watermark per mailbox source. Not a processed marker: the poller also rescans a bounded window behind it for late-committed smaller IDs.';
COMMENT ON COLUMN ingress_mark.last_id IS 'Largest CMINMSGS_ID enqueued so far.';

CREATE TABLE ingress_gap (
  source       VARCHAR(32)  NOT NULL,
  from_id      BIGINT       NOT NULL,
  to_id        BIGINT       NOT NULL,
  seen_at      TIMESTAMPTZ  NOT NULL,
  given_up_at  TIMESTAMPTZ  NOT NULL,
  CONSTRAINT ingress_gap_pkey PRIMARY KEY (source, from_id),
  CONSTRAINT ingress_gap_range_ck CHECK (from_id > 0 AND to_id >= from_id)
);
CREATE INDEX ingress_gap_given_up_ix ON ingress_gap (given_up_at);
COMMENT ON TABLE ingress_gap IS 'Holes the poller gave up (rule 16): ids no mailbox row had while a larger id was visible, for longer than pipeline.gap-wait; the ids after them were then enqueued. A row that commits later in a gap is found by the rescan or the reconciliation pass and processed as a late row.';
COMMENT ON COLUMN ingress_gap.from_id IS 'First missing CMINMSGS_ID of the hole.';
COMMENT ON COLUMN ingress_gap.to_id IS 'Last missing CMINMSGS_ID of the hole.';
COMMENT ON COLUMN ingress_gap.seen_at IS 'When the poller first saw the hole.';
COMMENT ON COLUMN ingress_gap.given_up_at IS 'When the wait ran out and the hole was given up.';

CREATE TABLE backfill_todo (
  msg_id           BIGINT        NOT NULL,
  mailbox_status   VARCHAR(20)   NOT NULL,
  processed_at     TIMESTAMPTZ   NOT NULL,
  meta_sndr        VARCHAR(32)   NULL,
  meta_seqn        BIGINT        NULL,
  meta_dttm        TIMESTAMPTZ   NULL,
  meta_type        VARCHAR(8)    NULL,
  meta_styp        VARCHAR(8)    NULL,
  attempts         INTEGER       NOT NULL DEFAULT 0,
  next_attempt_at  TIMESTAMPTZ   NOT NULL,
  last_error       VARCHAR(1000) NULL,
  created_at       TIMESTAMPTZ   NOT NULL DEFAULT now(),
  registration     BIGINT        NOT NULL DEFAULT 0,
  CONSTRAINT backfill_todo_pkey PRIMARY KEY (msg_id),
  CONSTRAINT backfill_todo_status_ck CHECK (mailbox_status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')),
  CONSTRAINT backfill_todo_attempts_ck CHECK (attempts >= 0)
);
CREATE INDEX backfill_todo_due_ix ON backfill_todo (next_attempt_at);
COMMENT ON TABLE backfill_todo IS 'Mailbox backfills still to do that the backfill mark does not cover: a replay''s and a late row''s (registered in the same transaction as the terminal status) and a failed one''s (with its backoff); deleted once cminmsgs is written. Self-contained, so the sweep needs no other table.';
COMMENT ON COLUMN backfill_todo.mailbox_status IS 'Terminal status to write into CMINMSGS_STATUS.';
COMMENT ON COLUMN backfill_todo.processed_at IS 'Value for CMINMSGS_DATE_PROCESSED.';
COMMENT ON COLUMN backfill_todo.next_attempt_at IS 'When the backfill sweep may try again (backoff 30 s to 15 min).';
COMMENT ON COLUMN backfill_todo.registration IS 'The message''s REPLAY_COUNT when this todo was registered: a replay re-registers the todo under the next one, so a backfill of the todo before (rule 18) deletes only its own registration, never the new todo.';

CREATE TABLE backfill_mark (
  id              SMALLINT     NOT NULL,
  through_msg_id  BIGINT       NOT NULL,
  updated_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
  CONSTRAINT backfill_mark_pkey PRIMARY KEY (id),
  CONSTRAINT backfill_mark_single_ck CHECK (id = 1),
  CONSTRAINT backfill_mark_through_ck CHECK (through_msg_id >= 0)
);
COMMENT ON TABLE backfill_mark IS 'The backfill watermark, a single row (id = 1; none reads as 0): every message with MSG_ID <= THROUGH_MSG_ID that reached a terminal status has been backfilled or has a BACKFILL_TODO row. The terminal PROC_STATE row above it is its own registration: the business transaction writes a todo only below the mark (a late row) or for a replay (docs/design.md §1.4).';
COMMENT ON COLUMN backfill_mark.through_msg_id IS 'Moved forward only by the backfiller, under the PIPELINE_LOCK, once every PROC_STATE row between the old and the new value is backfilled or has a todo.';
COMMENT ON COLUMN backfill_mark.updated_at IS 'When the mark last moved.';
