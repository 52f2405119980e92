-- msgx Oracle 11g migration 0006: the raw message's digest on PROC_STATE and
-- PROC_STATE_HST (rule 2: a duplicate whose raw message differs from its
-- holder's is a reused identity, never silent; twin of the PostgreSQL
-- migration proc_state_raw_digest). Rows bound before keep RAW_DIGEST NULL:
-- unknown, a later duplicate of them is a plain duplicate-of:<id>. Applied by
-- 'msgx schema apply --dialect oracle11g' or by a DBA with SQL*Plus
-- (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
ALTER TABLE PROC_STATE ADD (RAW_DIGEST RAW(16) NULL);
CREATE INDEX PROC_STATE_DUPLICATE_IX ON PROC_STATE (CASE WHEN DUPLICATE_OF IS NOT NULL THEN FINISHED_AT END);
COMMENT ON COLUMN PROC_STATE.RAW_DIGEST IS 'SHA-256 of the raw mailbox message, first 16 bytes, bound with the identity (rule 2): a duplicate whose digest differs from its holder''s is SKIPPED duplicate-of:<id>:content-differs. NULL until bound, and on rows bound before digests were kept (unknown: a plain duplicate).';
ALTER TABLE PROC_STATE_HST ADD (RAW_DIGEST RAW(16) NULL);
COMMENT ON COLUMN PROC_STATE_HST.RAW_DIGEST IS 'As proc_state.raw_digest.';
