-- msgx Oracle 11g migration 0012: a KAFKA:schd mark names its change by
-- CMINMSGS_ID and STATE_VERSION (issue #34; twin of the PostgreSQL migration
-- schd_mark_names_its_change): the upsert no longer looks up its twin's
-- EVENT_ID, which the relay reads when it sends the mark. SCHD_MARK.EVENT_ID
-- is unused and becomes nullable. Expand only.
-- Applied by 'msgx schema apply --dialect oracle11g' or by a DBA with
-- SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 040_outbox.sql
ALTER TABLE SCHD_MARK MODIFY (EVENT_ID NULL);
COMMENT ON COLUMN SCHD_MARK.EVENT_ID IS 'Unused, NULL: the mark names its change by CMINMSGS_ID and STATE_VERSION; the record''s event-id header is the EVENT_ID of that change''s KAFKA:msg event (its twin), read when the mark is sent.';
COMMENT ON COLUMN SCHD_MARK.CMINMSGS_ID IS 'Mailbox id of the message of the latest change; with STATE_VERSION what the relay compares before it deletes the mark.';
