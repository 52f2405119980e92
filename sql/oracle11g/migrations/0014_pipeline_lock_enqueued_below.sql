-- msgx Oracle 11g migration 0014: PIPELINE_LOCK.ENQUEUED_BELOW (twin of the
-- PostgreSQL migration pipeline_lock_enqueued_below): the count of enqueues
-- of an id below the largest known one, which the pump compares between its
-- run's read and its batch's lock, so an id enqueued inside the run's range
-- meanwhile is not overtaken. Expand only: a release before it neither
-- counts nor compares.
-- Applied by 'msgx schema apply --dialect oracle11g' or by a DBA with
-- SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
ALTER TABLE PIPELINE_LOCK ADD (ENQUEUED_BELOW NUMBER(19) DEFAULT 0 NOT NULL);
COMMENT ON COLUMN PIPELINE_LOCK.ENQUEUED_BELOW IS 'Counts the enqueues of an id below the largest known one (they hold the lock), in their transaction. The pump reads it with its run and compares it under the lock: a change means an id may have entered inside the run, which is then abandoned (docs/design.md §1.1).';
