-- msgx Oracle 11g migration 0010: the archive's duplicates by finish time
-- (issue #35; twin of the PostgreSQL migration proc_state_hst_duplicate_index),
-- so the identity conflicts of the last 24 h (msgx status, /metrics) read
-- the archived duplicates finished since then, not a day of archive.
-- Applied by 'msgx schema apply --dialect oracle11g' or by a DBA with
-- SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
CREATE INDEX PROC_STATE_HST_DUPLICATE_IX ON PROC_STATE_HST (CASE WHEN DUPLICATE_OF IS NOT NULL THEN FINISHED_AT END);
