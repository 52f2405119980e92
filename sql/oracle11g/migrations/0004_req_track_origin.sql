-- msgx Oracle 11g migration 0003: who registered a request (twin of the
-- PostgreSQL migration req_track_origin). Applied by 'msgx schema apply
-- --dialect oracle11g' or by a DBA with SQL*Plus (docs/schema.md); msgx
-- records it in MSGX_SCHEMA_VERSION.

-- ---- 050_reference.sql
ALTER TABLE REQ_TRACK ADD (ORIGIN VARCHAR2(12 CHAR) DEFAULT 'operator' NOT NULL);
ALTER TABLE REQ_TRACK ADD CONSTRAINT REQ_TRACK_ORIGIN_CK CHECK (ORIGIN IN ('operator', 'on-start', 'daily'));
COMMENT ON COLUMN REQ_TRACK.ORIGIN IS 'Who registered the request: operator (CLI, admin API) or an automatic trigger (on-start, daily), which never supersedes an open request.';
