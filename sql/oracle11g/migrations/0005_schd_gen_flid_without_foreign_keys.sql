-- msgx Oracle 11g migration 0005: snapshot memberships without foreign keys
-- (twin of the PostgreSQL migration schd_gen_flid_without_foreign_keys).
-- Applied by 'msgx schema apply --dialect oracle11g' or by a DBA with
-- SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 030_snapshot.sql
ALTER TABLE SCHD_GEN_FLID DROP CONSTRAINT SCHD_GEN_FLID_GEN_FK;
ALTER TABLE SCHD_GEN_FLID DROP CONSTRAINT SCHD_GEN_FLID_FLIGHT_FK;
