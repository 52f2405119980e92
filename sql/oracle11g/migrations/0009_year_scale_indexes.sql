-- msgx Oracle 11g migration 0009: indexes for a year of history (issue #35;
-- twin of the PostgreSQL migration year_scale_indexes): the archive's late
-- rows (msgx status, /metrics) and the outbox by age (its retention).
-- Applied by 'msgx schema apply --dialect oracle11g' or by a DBA with
-- SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
CREATE INDEX PROC_STATE_HST_LATE_IX ON PROC_STATE_HST (CASE WHEN LATE_AFTER IS NOT NULL THEN FIRST_SEEN_AT END);

-- ---- 040_outbox.sql
CREATE INDEX MSG_EVENT_CREATED_IX ON MSG_EVENT (CREATED_AT, EVENT_ID);
