-- msgx Oracle 11g migration 0013: BACKFILL_MARK, the backfill watermark
-- (issue #34; twin of the PostgreSQL migration backfill_mark): the terminal
-- PROC_STATE row above it is its own backfill registration, BACKFILL_TODO
-- keeps the exceptions. Expand only: a release before it registers a todo
-- for every message, which the mark allows.
-- Applied by 'msgx schema apply --dialect oracle11g' or by a DBA with
-- SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
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
COMMENT ON TABLE BACKFILL_TODO IS 'Mailbox backfills still to do that the backfill mark does not cover: a replay''s and a late row''s (registered in the same transaction as the terminal status) and a failed one''s (with its backoff); deleted once cminmsgs is written. Self-contained, so the sweep needs no other table.';
-- Start the mark at the newest terminal message: every terminal message at
-- or below it was registered with a todo by the release before (a message
-- whose todo is gone was backfilled), and one that finishes later at or
-- below it registers a todo, as a late row does.
INSERT INTO BACKFILL_MARK (ID, THROUGH_MSG_ID, UPDATED_AT)
SELECT 1, NVL(MAX(MSG_ID), 0), SYSTIMESTAMP FROM PROC_STATE WHERE STATUS IN ('SUCCEEDED', 'SKIPPED', 'DEAD');
