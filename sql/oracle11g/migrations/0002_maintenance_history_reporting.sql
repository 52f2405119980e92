-- msgx Oracle 11g migration 0002: the maintenance jobs' run table, the
-- outbox index of a flight's history and the reporting view (twins of the
-- PostgreSQL migrations maintenance_run, msg_event_flid_index and
-- reporting_views). Applied by 'msgx schema apply --dialect oracle11g' or by
-- a DBA with SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 040_outbox.sql
-- A flight's history of versions (the console, GET /flights/{flid}/history).
CREATE INDEX MSG_EVENT_FLID_IX ON MSG_EVENT (FLID, EVENT_ID);

-- ---- 060_maintenance.sql
-- Maintenance jobs: the last run of each (twin of sql/postgres/schema/060_maintenance.sql).

CREATE TABLE MAINTENANCE_RUN (
  JOB          VARCHAR2(16 CHAR)            NOT NULL,
  STARTED_AT   TIMESTAMP(6) WITH TIME ZONE  NOT NULL,
  DURATION_MS  NUMBER(19)                   NOT NULL,
  AFFECTED     NUMBER(19)                   NOT NULL,
  OLDEST       TIMESTAMP(6) WITH TIME ZONE  NULL,
  NEWEST       TIMESTAMP(6) WITH TIME ZONE  NULL,
  LAST_ERROR   VARCHAR2(1000 CHAR)          NULL,
  LAST_OK_AT   TIMESTAMP(6) WITH TIME ZONE  NULL,
  CONSTRAINT MAINTENANCE_RUN_PKEY PRIMARY KEY (JOB),
  CONSTRAINT MAINTENANCE_RUN_COUNTS_CK CHECK (DURATION_MS >= 0 AND AFFECTED >= 0)
);
COMMENT ON TABLE MAINTENANCE_RUN IS 'Last run of each maintenance job (history, snaplog, archive, outbox, ...), one row per job, replaced by every run that is not a dry run.';
COMMENT ON COLUMN MAINTENANCE_RUN.JOB IS 'Job name as `msgx maintenance run` spells it.';
COMMENT ON COLUMN MAINTENANCE_RUN.STARTED_AT IS 'When the last run started.';
COMMENT ON COLUMN MAINTENANCE_RUN.DURATION_MS IS 'How long the last run took.';
COMMENT ON COLUMN MAINTENANCE_RUN.AFFECTED IS 'Rows the last run moved or deleted.';
COMMENT ON COLUMN MAINTENANCE_RUN.OLDEST IS 'Oldest time among the affected rows, NULL when none.';
COMMENT ON COLUMN MAINTENANCE_RUN.NEWEST IS 'Newest time among the affected rows, NULL when none.';
COMMENT ON COLUMN MAINTENANCE_RUN.LAST_ERROR IS 'Why the last run failed; NULL when it succeeded.';
COMMENT ON COLUMN MAINTENANCE_RUN.LAST_OK_AT IS 'Start of the last run that succeeded: a daily job is due again once its time of day passes after it.';

-- ---- 060_reporting.sql
-- Reporting views: the shape reports had under the old fixed-slot schema
-- (first and second resource and a count), computed from the detail tables,
-- which stay the full record (docs/reporting.md).
--
-- Oracle 11g Release 2 mirror of sql/postgres/schema/060_reporting.sql: the
-- same view, columns and comments. "First" is the item with ORDINAL 1,
-- "second" ORDINAL 2 (lists are written whole and numbered from 1 without
-- gaps); "last" is the highest ORDINAL. SOURCE_SEQ never decides the order.
-- Plain joins and GROUP BY only: no FETCH FIRST, no LATERAL, nothing after
-- 11.2. Oracle has no COMMENT ON VIEW: COMMENT ON TABLE takes a view.
-- Table aliases carry no AS (Oracle refuses it there). Every identifier is at
-- most 30 characters.

CREATE VIEW FLIGHT_REPORT AS
SELECT
  F.FLID,
  F.OPERATION_DAY,
  F.FDAY,
  F.LIFECYCLE,
  F.ALCD,
  F.FLNO,
  F.MVIN,
  F.SODT,
  F.SODT_AT,
  F.STND,
  COALESCE(GN.N, 0) AS GATE_COUNT,
  G1.GATE AS GATE_1, G1.PGOT_AT AS GATE_1_PGOT_AT, G1.PGCT_AT AS GATE_1_PGCT_AT,
  G2.GATE AS GATE_2, G2.PGOT_AT AS GATE_2_PGOT_AT, G2.PGCT_AT AS GATE_2_PGCT_AT,
  COALESCE(KN.N, 0) AS CHECKIN_COUNT,
  K1.CHKC AS CHECKIN_1, K1.PCOT_AT AS CHECKIN_1_PCOT_AT, K1.PCCT_AT AS CHECKIN_1_PCCT_AT,
  K2.CHKC AS CHECKIN_2, K2.PCOT_AT AS CHECKIN_2_PCOT_AT, K2.PCCT_AT AS CHECKIN_2_PCCT_AT,
  COALESCE(BN.N, 0) AS BELT_COUNT,
  B1.BELT AS BELT_1, B1.PCOT_AT AS BELT_1_PCOT_AT, B1.PCCT_AT AS BELT_1_PCCT_AT,
  B2.BELT AS BELT_2, B2.PCOT_AT AS BELT_2_PCOT_AT, B2.PCCT_AT AS BELT_2_PCCT_AT,
  COALESCE(SN.N, 0) AS STAND_PLAN_COUNT,
  S1.PSST AS STAND_PLAN_1, S1.STST_AT AS STAND_PLAN_1_STST_AT, S1.STET_AT AS STAND_PLAN_1_STET_AT,
  S2.PSST AS STAND_PLAN_2, S2.STST_AT AS STAND_PLAN_2_STST_AT, S2.STET_AT AS STAND_PLAN_2_STET_AT,
  COALESCE(CN.N, 0) AS CHUTE_COUNT,
  C1.CHUT AS CHUTE_1, C1.PCBT_AT AS CHUTE_1_PCBT_AT, C1.PCET_AT AS CHUTE_1_PCET_AT,
  C2.CHUT AS CHUTE_2, C2.PCBT_AT AS CHUTE_2_PCBT_AT, C2.PCET_AT AS CHUTE_2_PCET_AT,
  COALESCE(D.N, 0) AS DELAY_COUNT,
  COALESCE(D.TOTAL_MINUTES, 0) AS DELAY_TOTAL_MINUTES,
  DL.CODE AS LAST_DELAY_CODE,
  DL.DURA_MINUTES AS LAST_DELAY_MINUTES,
  COALESCE(A.N, 0) AS BRIDGE_OP_COUNT,
  AL.ABDG AS BRIDGE,
  AL.ABOP AS BRIDGE_STATE,
  AL.AOTM_AT AS BRIDGE_AT,
  COALESCE(H.N, 0) AS CHOCK_OP_COUNT,
  HL.CHID AS CHOCK_STATE,
  HL.CHTM_AT AS CHOCK_AT
FROM FLIGHT_SCHD F
LEFT JOIN (SELECT FLID, COUNT(*) AS N FROM FLIGHT_GATE GROUP BY FLID) GN ON GN.FLID = F.FLID
LEFT JOIN FLIGHT_GATE G1 ON G1.FLID = F.FLID AND G1.ORDINAL = 1
LEFT JOIN FLIGHT_GATE G2 ON G2.FLID = F.FLID AND G2.ORDINAL = 2
LEFT JOIN (SELECT FLID, COUNT(*) AS N FROM FLIGHT_CHECKIN GROUP BY FLID) KN ON KN.FLID = F.FLID
LEFT JOIN FLIGHT_CHECKIN K1 ON K1.FLID = F.FLID AND K1.ORDINAL = 1
LEFT JOIN FLIGHT_CHECKIN K2 ON K2.FLID = F.FLID AND K2.ORDINAL = 2
LEFT JOIN (SELECT FLID, COUNT(*) AS N FROM FLIGHT_BELT GROUP BY FLID) BN ON BN.FLID = F.FLID
LEFT JOIN FLIGHT_BELT B1 ON B1.FLID = F.FLID AND B1.ORDINAL = 1
LEFT JOIN FLIGHT_BELT B2 ON B2.FLID = F.FLID AND B2.ORDINAL = 2
LEFT JOIN (SELECT FLID, COUNT(*) AS N FROM FLIGHT_STAND_PLAN GROUP BY FLID) SN ON SN.FLID = F.FLID
LEFT JOIN FLIGHT_STAND_PLAN S1 ON S1.FLID = F.FLID AND S1.ORDINAL = 1
LEFT JOIN FLIGHT_STAND_PLAN S2 ON S2.FLID = F.FLID AND S2.ORDINAL = 2
LEFT JOIN (SELECT FLID, COUNT(*) AS N FROM FLIGHT_CHUTE GROUP BY FLID) CN ON CN.FLID = F.FLID
LEFT JOIN FLIGHT_CHUTE C1 ON C1.FLID = F.FLID AND C1.ORDINAL = 1
LEFT JOIN FLIGHT_CHUTE C2 ON C2.FLID = F.FLID AND C2.ORDINAL = 2
LEFT JOIN (
  SELECT FLID, COUNT(*) AS N, SUM(DURA_MINUTES) AS TOTAL_MINUTES, MAX(ORDINAL) AS LAST_ORDINAL
  FROM FLIGHT_DELAY GROUP BY FLID
) D ON D.FLID = F.FLID
LEFT JOIN FLIGHT_DELAY DL ON DL.FLID = D.FLID AND DL.ORDINAL = D.LAST_ORDINAL
LEFT JOIN (SELECT FLID, COUNT(*) AS N, MAX(ORDINAL) AS LAST_ORDINAL FROM FLIGHT_BRIDGE_OP GROUP BY FLID) A ON A.FLID = F.FLID
LEFT JOIN FLIGHT_BRIDGE_OP AL ON AL.FLID = A.FLID AND AL.ORDINAL = A.LAST_ORDINAL
LEFT JOIN (SELECT FLID, COUNT(*) AS N, MAX(ORDINAL) AS LAST_ORDINAL FROM FLIGHT_CHOCK_OP GROUP BY FLID) H ON H.FLID = F.FLID
LEFT JOIN FLIGHT_CHOCK_OP HL ON HL.FLID = H.FLID AND HL.ORDINAL = H.LAST_ORDINAL;

COMMENT ON TABLE FLIGHT_REPORT IS 'One row per flight (DELETED ones too, see lifecycle) in the old fixed-slot shape: first and second gate, check-in counter, belt, planned stand and chute by ORDINAL with their planned times, each list''s count, the last delay and the total delay, the last bridge and chock operation. The detail tables stay the full record (docs/reporting.md).';
COMMENT ON COLUMN FLIGHT_REPORT.GATE_COUNT IS 'Number of GTDT items (0 when none).';
COMMENT ON COLUMN FLIGHT_REPORT.GATE_1 IS 'GATE of the gate item with ORDINAL 1 (the first as sent), NULL when there is none.';
COMMENT ON COLUMN FLIGHT_REPORT.GATE_2 IS 'GATE of the gate item with ORDINAL 2.';
COMMENT ON COLUMN FLIGHT_REPORT.CHECKIN_1 IS 'CHKC of the check-in item with ORDINAL 1.';
COMMENT ON COLUMN FLIGHT_REPORT.BELT_1 IS 'BELT of the belt item with ORDINAL 1.';
COMMENT ON COLUMN FLIGHT_REPORT.STAND_PLAN_1 IS 'PSST of the planned stand item with ORDINAL 1 (the current stand is STND).';
COMMENT ON COLUMN FLIGHT_REPORT.CHUTE_1 IS 'CHUT of the chute item with ORDINAL 1.';
COMMENT ON COLUMN FLIGHT_REPORT.DELAY_TOTAL_MINUTES IS 'Sum of the parsed DURA of every delay (0 when none; a DURA that did not parse counts nothing).';
COMMENT ON COLUMN FLIGHT_REPORT.LAST_DELAY_CODE IS 'CODE of the delay with the highest ORDINAL (the last sent).';
COMMENT ON COLUMN FLIGHT_REPORT.BRIDGE IS 'ABDG of the last bridge operation (highest ORDINAL).';
COMMENT ON COLUMN FLIGHT_REPORT.BRIDGE_STATE IS 'ABOP of the last bridge operation: A attached, D detached; NULL when there was none.';
COMMENT ON COLUMN FLIGHT_REPORT.CHOCK_STATE IS 'CHID of the last chock operation: ON or OFF; NULL when there was none.';
