-- Current flight state: one FLIGHT_SCHD row per FLID, nine ordered detail
-- collections, raw payload collections, and the history store.
--
-- Sizing: every raw SIS value is VARCHAR(1000). 1000 characters of UTF-8 are at
-- most 4000 bytes, so the same model fits Oracle 11g VARCHAR2(4000 BYTE); the
-- pipeline refuses longer values (PROTOCOL, internal/widths) before any write
-- instead of letting them be truncated or fail the statement.
-- Each time field keeps the raw text and, beside it, the value parsed in the
-- airport time zone (<name>_at).
--
-- Oracle 11g Release 2 mirror of sql/postgres/schema/020_flight.sql: same
-- tables, columns, constraints and indexes; the type mapping and every
-- difference are in sql/oracle11g/README.md. VARCHAR2(1000 CHAR) is the
-- VARCHAR(1000) above; in AL32UTF8 it is at most 4000 bytes, the 11g limit.

CREATE TABLE FLIGHT_SCHD (
  FLID               NUMBER(19)                  NOT NULL,
  FFID               VARCHAR2(1000 CHAR)         NULL,
  ALCD               VARCHAR2(1000 CHAR)         NULL,
  ALSC               VARCHAR2(1000 CHAR)         NULL,
  FLNO               VARCHAR2(1000 CHAR)         NULL,
  MVIN               VARCHAR2(1000 CHAR)         NULL,
  SODT               VARCHAR2(1000 CHAR)         NULL,
  SODT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  FLTY               VARCHAR2(1000 CHAR)         NULL,
  FLIN               VARCHAR2(1000 CHAR)         NULL,
  ACFT               VARCHAR2(1000 CHAR)         NULL,
  RENO               VARCHAR2(1000 CHAR)         NULL,
  TAOP               VARCHAR2(1000 CHAR)         NULL,
  TAFL               VARCHAR2(1000 CHAR)         NULL,
  TAID               VARCHAR2(1000 CHAR)         NULL,
  TRML               VARCHAR2(1000 CHAR)         NULL,
  MAXP               VARCHAR2(1000 CHAR)         NULL,
  CSOP               VARCHAR2(1000 CHAR)         NULL,
  CSFT               VARCHAR2(1000 CHAR)         NULL,
  MAID               VARCHAR2(1000 CHAR)         NULL,
  ESTT               VARCHAR2(1000 CHAR)         NULL,
  ESTT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  ACTT               VARCHAR2(1000 CHAR)         NULL,
  ACTT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  STND               VARCHAR2(1000 CHAR)         NULL,
  PHAG               VARCHAR2(1000 CHAR)         NULL,
  FHAG               VARCHAR2(1000 CHAR)         NULL,
  MHAG               VARCHAR2(1000 CHAR)         NULL,
  CNCL               VARCHAR2(1000 CHAR)         NULL,
  REMC               VARCHAR2(1000 CHAR)         NULL,
  BOTM               VARCHAR2(1000 CHAR)         NULL,
  BOTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  LACL               VARCHAR2(1000 CHAR)         NULL,
  FINT               VARCHAR2(1000 CHAR)         NULL,
  APPT               VARCHAR2(1000 CHAR)         NULL,
  EGSR               VARCHAR2(1000 CHAR)         NULL,
  EGST               VARCHAR2(1000 CHAR)         NULL,
  EGST_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  VIPP               VARCHAR2(1000 CHAR)         NULL,
  VIPR               VARCHAR2(1000 CHAR)         NULL,
  LBNO               VARCHAR2(1000 CHAR)         NULL,
  LBWT               VARCHAR2(1000 CHAR)         NULL,
  PAXC               VARCHAR2(1000 CHAR)         NULL,
  EXSC               VARCHAR2(1000 CHAR)         NULL,
  EXSR               VARCHAR2(1000 CHAR)         NULL,
  FTSS               VARCHAR2(1000 CHAR)         NULL,
  PEDT               VARCHAR2(1000 CHAR)         NULL,
  PEDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  NEAT               VARCHAR2(1000 CHAR)         NULL,
  NEAT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PADT               VARCHAR2(1000 CHAR)         NULL,
  PADT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  NAAT               VARCHAR2(1000 CHAR)         NULL,
  NAAT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  STDT               VARCHAR2(1000 CHAR)         NULL,
  STDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  EDDT               VARCHAR2(1000 CHAR)         NULL,
  EDDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  DYOP               VARCHAR2(1000 CHAR)         NULL,
  SCHT               VARCHAR2(1000 CHAR)         NULL,
  SCHT_MINUTES       NUMBER(10)                  NULL,
  COBT               VARCHAR2(1000 CHAR)         NULL,
  COBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  TOBT               VARCHAR2(1000 CHAR)         NULL,
  TOBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  EOBT               VARCHAR2(1000 CHAR)         NULL,
  EOBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CTOT               VARCHAR2(1000 CHAR)         NULL,
  CTOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  IEST               VARCHAR2(1000 CHAR)         NULL,
  IEST_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  RUNW               VARCHAR2(1000 CHAR)         NULL,
  FDIV_DDES          VARCHAR2(1000 CHAR)         NULL,
  FDIV_DDIR          VARCHAR2(4 CHAR)            NULL,
  FDIV_TEXT          VARCHAR2(1000 CHAR)         NULL,
  FRET_REID          VARCHAR2(1 CHAR)            NULL,
  FRET_TEXT          VARCHAR2(1000 CHAR)         NULL,
  FLAB_ARES          VARCHAR2(1 CHAR)            NULL,
  FLAB_TEXT          VARCHAR2(1000 CHAR)         NULL,
  OPERATION_DAY      DATE                        NOT NULL,
  FDAY               DATE                        NULL,
  LIFECYCLE          VARCHAR2(8 CHAR)            DEFAULT 'ACTIVE' NOT NULL,
  DELETED_AT         TIMESTAMP(6) WITH TIME ZONE NULL,
  STATE_VERSION      NUMBER(19)                  DEFAULT 1 NOT NULL,
  LAST_MESSAGE_ID    NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  STAMPS             VARCHAR2(2000 BYTE)         NULL,
  CONSTRAINT FLIGHT_SCHD_PKEY PRIMARY KEY (FLID),
  CONSTRAINT FLIGHT_SCHD_LIFECYCLE_CK CHECK (LIFECYCLE IN ('ACTIVE', 'DELETED')),
  CONSTRAINT FLIGHT_SCHD_MVIN_CK CHECK (MVIN IN ('A', 'D')),
  CONSTRAINT FLIGHT_SCHD_FLIN_CK CHECK (FLIN IN ('D', 'I', 'M')),
  CONSTRAINT FLIGHT_SCHD_FDIV_DDIR_CK CHECK (FDIV_DDIR IN ('TO', 'FROM')),
  CONSTRAINT FLIGHT_SCHD_FRET_REID_CK CHECK (FRET_REID IN ('G', 'A')),
  CONSTRAINT FLIGHT_SCHD_FLAB_ARES_CK CHECK (FLAB_ARES IN ('O', 'G')),
  CONSTRAINT FLIGHT_SCHD_VERSION_CK CHECK (STATE_VERSION >= 1)
);
-- Flights by operation day, in FLID order: /all/flights paging and snapshot prune.
CREATE INDEX FLIGHT_SCHD_DAY_IX ON FLIGHT_SCHD (OPERATION_DAY, FLID);
-- Candidates of the history sweep. PostgreSQL: partial index on (deleted_at)
-- WHERE lifecycle = 'DELETED'. Here a function-based index that is NULL (so not
-- stored) for ACTIVE flights. The key is the UTC instant: Oracle indexes a
-- TIMESTAMP WITH TIME ZONE column as SYS_EXTRACT_UTC(col) anyway; spelled out
-- here the key is a plain TIMESTAMP, and the query repeats the exact expression:
--   WHERE CASE WHEN LIFECYCLE = 'DELETED' THEN SYS_EXTRACT_UTC(DELETED_AT) END < SYS_EXTRACT_UTC(:deleted_before)
CREATE INDEX FLIGHT_SCHD_DELETED_IX ON FLIGHT_SCHD (CASE WHEN LIFECYCLE = 'DELETED' THEN SYS_EXTRACT_UTC(DELETED_AT) END);

COMMENT ON TABLE FLIGHT_SCHD IS 'Current state of every flight, one row per AODB FLID: every SIS scalar as raw text, parsed times beside them, the single-valued FDIV/FRET/FLAB structures, lifecycle and version. Written only by the pump.';
COMMENT ON COLUMN FLIGHT_SCHD.FLID IS 'AODB flight id (FLID), the key messages are matched on.';
COMMENT ON COLUMN FLIGHT_SCHD.FFID IS 'FFID as sent (ALCD-FLNO-MVIN-SODT-FLIN); informational, never used for matching.';
COMMENT ON COLUMN FLIGHT_SCHD.MVIN IS 'Movement indicator: A arrival, D departure.';
COMMENT ON COLUMN FLIGHT_SCHD.SODT IS 'Scheduled date/time, raw (ddMONyyHHmm). Its local date is the operation day.';
COMMENT ON COLUMN FLIGHT_SCHD.FLIN IS 'Flight indicator: D domestic, I international, M mixed.';
COMMENT ON COLUMN FLIGHT_SCHD.SCHT IS 'SCHT raw, HHMM (hours and minutes).';
COMMENT ON COLUMN FLIGHT_SCHD.SCHT_MINUTES IS 'SCHT parsed to minutes.';
COMMENT ON COLUMN FLIGHT_SCHD.FDIV_DDES IS 'FDIV (diversion) attribute DDES.';
COMMENT ON COLUMN FLIGHT_SCHD.FDIV_DDIR IS 'FDIV attribute DDIR: TO or FROM.';
COMMENT ON COLUMN FLIGHT_SCHD.FDIV_TEXT IS 'FDIV element text.';
COMMENT ON COLUMN FLIGHT_SCHD.FRET_REID IS 'FRET (return) attribute REID: G or A.';
COMMENT ON COLUMN FLIGHT_SCHD.FRET_TEXT IS 'FRET element text.';
COMMENT ON COLUMN FLIGHT_SCHD.FLAB_ARES IS 'FLAB attribute ARES: O or G.';
COMMENT ON COLUMN FLIGHT_SCHD.FLAB_TEXT IS 'FLAB element text.';
COMMENT ON COLUMN FLIGHT_SCHD.OPERATION_DAY IS 'Local date of SODT in the airport zone; set once, never changed (a conflicting record is a PROTOCOL error).';
COMMENT ON COLUMN FLIGHT_SCHD.FDAY IS 'Day of the last snapshot (DNLD/RESP) generation the flight belonged to; NULL for flights only created by ADFT/UPD.';
COMMENT ON COLUMN FLIGHT_SCHD.LIFECYCLE IS 'ACTIVE, or DELETED (soft delete by FDEL, SCHD DEL or prune) until the history sweep moves the flight out.';
COMMENT ON COLUMN FLIGHT_SCHD.DELETED_AT IS 'When the flight became DELETED.';
COMMENT ON COLUMN FLIGHT_SCHD.STATE_VERSION IS 'Advances by one on every real change of the flight; a no-op message leaves it and emits nothing.';
COMMENT ON COLUMN FLIGHT_SCHD.LAST_MESSAGE_ID IS 'MSG_ID of the last message that changed the flight (audit, recovery).';
COMMENT ON COLUMN FLIGHT_SCHD.STAMPS IS 'Rule 19: the META DTTM of the message that last set each value, per DTTM (unix seconds, ascending) the names it stamps, as "secs:NAME NAME;secs:NAME" (SIS names, lifecycle, and * for every name without its own stamp). A snapshot sets a value only where its DTTM is not older. NULL: no stamp known.';

-- Detail collections. Each is replaced as a whole when a message carries the
-- group; ORDINAL is the input order (1-based), SOURCE_SEQ the source sequence
-- number, which is data, not a key: two gates may share GTNO and GATE.
--
-- They have no foreign key to FLIGHT_SCHD: the per-row check took about 40 %
-- of a 2 000-flight DNLD (~28 000 rows; issue #4 targets 1 s). The pump is
-- their only writer and writes them after their flight in the same
-- transaction; FlightDelete deletes them with the flight (what ON DELETE
-- CASCADE did; in Oracle one DELETE per table, see
-- sql/oracle11g/queries/README.md). Each primary key leads with FLID, so
-- those deletes are index range scans.

CREATE TABLE FLIGHT_GATE (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  GATE               VARCHAR2(1000 CHAR)         NULL,
  PGOT               VARCHAR2(1000 CHAR)         NULL,
  PGOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PGCT               VARCHAR2(1000 CHAR)         NULL,
  PGCT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  GOTM               VARCHAR2(1000 CHAR)         NULL,
  GOTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  GCTM               VARCHAR2(1000 CHAR)         NULL,
  GCTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  GTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_GATE_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_GATE_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_GATE IS 'Gate allocations of a flight (SIS GTDT), in input order.';
COMMENT ON COLUMN FLIGHT_GATE.ORDINAL IS 'Position in the GTDT list as sent, from 1.';
COMMENT ON COLUMN FLIGHT_GATE.SOURCE_SEQ IS 'GTNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_GATE.RECORD_VERSION IS 'Flight STATE_VERSION that wrote this row.';

CREATE TABLE FLIGHT_CHECKIN (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  CHKC               VARCHAR2(1000 CHAR)         NULL,
  CCLS               VARCHAR2(1000 CHAR)         NULL,
  PCOT               VARCHAR2(1000 CHAR)         NULL,
  PCOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PCCT               VARCHAR2(1000 CHAR)         NULL,
  PCCT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  COTM               VARCHAR2(1000 CHAR)         NULL,
  COTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CCTM               VARCHAR2(1000 CHAR)         NULL,
  CCTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_CHECKIN_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_CHECKIN_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_CHECKIN IS 'Check-in counter allocations (SIS CKDT), in input order.';
COMMENT ON COLUMN FLIGHT_CHECKIN.SOURCE_SEQ IS 'CKNO attribute as sent; not unique.';

CREATE TABLE FLIGHT_BELT (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  BELT               VARCHAR2(1000 CHAR)         NULL,
  BCLS               VARCHAR2(1000 CHAR)         NULL,
  PCOT               VARCHAR2(1000 CHAR)         NULL,
  PCOT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PCCT               VARCHAR2(1000 CHAR)         NULL,
  PCCT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  FBAG               VARCHAR2(1000 CHAR)         NULL,
  LBAG               VARCHAR2(1000 CHAR)         NULL,
  BTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_BELT_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_BELT_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_BELT IS 'Baggage belt (carousel) allocations (SIS CLDT), in input order.';
COMMENT ON COLUMN FLIGHT_BELT.SOURCE_SEQ IS 'CLNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_BELT.FBAG IS 'First bag (raw; not declared a time by the wire contract).';
COMMENT ON COLUMN FLIGHT_BELT.LBAG IS 'Last bag (raw; not declared a time by the wire contract).';

CREATE TABLE FLIGHT_STAND_PLAN (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  PSST               VARCHAR2(1000 CHAR)         NULL,
  STST               VARCHAR2(1000 CHAR)         NULL,
  STST_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  STET               VARCHAR2(1000 CHAR)         NULL,
  STET_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_STAND_PLAN_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_STAND_PLAN_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_STAND_PLAN IS 'Planned stand occupations (SIS PSDT), in input order.';
COMMENT ON COLUMN FLIGHT_STAND_PLAN.SOURCE_SEQ IS 'PSNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_STAND_PLAN.PSST IS 'Planned stand.';

CREATE TABLE FLIGHT_CHUTE (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  CHUT               VARCHAR2(1000 CHAR)         NULL,
  CCLS               VARCHAR2(1000 CHAR)         NULL,
  PCBT               VARCHAR2(1000 CHAR)         NULL,
  PCBT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  PCET               VARCHAR2(1000 CHAR)         NULL,
  PCET_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CBTM               VARCHAR2(1000 CHAR)         NULL,
  CBTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CETM               VARCHAR2(1000 CHAR)         NULL,
  CETM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CTYP               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_CHUTE_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_CHUTE_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_CHUTE IS 'Baggage make-up chute allocations (SIS CHDT), in input order.';
COMMENT ON COLUMN FLIGHT_CHUTE.SOURCE_SEQ IS 'CHNO attribute as sent; not unique.';

CREATE TABLE FLIGHT_DELAY (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  CODE               VARCHAR2(1000 CHAR)         NULL,
  STRT               VARCHAR2(1000 CHAR)         NULL,
  STRT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  DURA               VARCHAR2(1000 CHAR)         NULL,
  DURA_MINUTES       NUMBER(10)                  NULL,
  REASON             VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_DELAY_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_DELAY_ORDINAL_CK CHECK (ORDINAL >= 1)
);
COMMENT ON TABLE FLIGHT_DELAY IS 'Delays (SIS DELY: attributes CODE, STRT, DURA; text = reason), in input order. DELY has no sequence number.';
COMMENT ON COLUMN FLIGHT_DELAY.DURA IS 'Duration raw, HHMM.';
COMMENT ON COLUMN FLIGHT_DELAY.DURA_MINUTES IS 'Duration parsed to minutes.';
COMMENT ON COLUMN FLIGHT_DELAY.REASON IS 'Element text of DELY.';

CREATE TABLE FLIGHT_BRIDGE_OP (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  ABDG               VARCHAR2(1000 CHAR)         NULL,
  ABOP               VARCHAR2(1 CHAR)            NULL,
  AOTM               VARCHAR2(1000 CHAR)         NULL,
  AOTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_BRIDGE_OP_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_BRIDGE_OP_ORDINAL_CK CHECK (ORDINAL >= 1),
  CONSTRAINT FLIGHT_BRIDGE_OP_ABOP_CK CHECK (ABOP IN ('A', 'D'))
);
COMMENT ON TABLE FLIGHT_BRIDGE_OP IS 'Airbridge operations (SIS ABTM), every attach/detach kept in input order.';
COMMENT ON COLUMN FLIGHT_BRIDGE_OP.SOURCE_SEQ IS 'ASNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_BRIDGE_OP.ABOP IS 'A attach, D detach.';

CREATE TABLE FLIGHT_CHOCK_OP (
  FLID               NUMBER(19)                  NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  CHTM               VARCHAR2(1000 CHAR)         NULL,
  CHTM_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  CHID               VARCHAR2(3 CHAR)            NULL,
  CHST               VARCHAR2(1000 CHAR)         NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_CHOCK_OP_PKEY PRIMARY KEY (FLID, ORDINAL),
  CONSTRAINT FLIGHT_CHOCK_OP_ORDINAL_CK CHECK (ORDINAL >= 1),
  CONSTRAINT FLIGHT_CHOCK_OP_CHID_CK CHECK (CHID IN ('ON', 'OFF'))
);
COMMENT ON TABLE FLIGHT_CHOCK_OP IS 'Chocks on/off operations (SIS CHOT), every operation kept in input order.';
COMMENT ON COLUMN FLIGHT_CHOCK_OP.SOURCE_SEQ IS 'CSNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_CHOCK_OP.CHID IS 'ON or OFF.';

CREATE TABLE FLIGHT_ROUTE_POINT (
  FLID               NUMBER(19)                  NOT NULL,
  ROUTE_KIND         VARCHAR2(4 CHAR)            NOT NULL,
  ORDINAL            NUMBER(10)                  NOT NULL,
  SOURCE_SEQ         NUMBER(19)                  NULL,
  APCD               VARCHAR2(1000 CHAR)         NULL,
  SCAT               VARCHAR2(1000 CHAR)         NULL,
  SCAT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  SADC               VARCHAR2(1000 CHAR)         NULL,
  SADC_DAYS          NUMBER(10)                  NULL,
  SCDT               VARCHAR2(1000 CHAR)         NULL,
  SCDT_AT            TIMESTAMP(6) WITH TIME ZONE NULL,
  SDDC               VARCHAR2(1000 CHAR)         NULL,
  SDDC_DAYS          NUMBER(10)                  NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_ROUTE_POINT_PKEY PRIMARY KEY (FLID, ROUTE_KIND, ORDINAL),
  CONSTRAINT FLIGHT_ROUTE_POINT_ORDINAL_CK CHECK (ORDINAL >= 1),
  CONSTRAINT FLIGHT_ROUTE_POINT_KIND_CK CHECK (ROUTE_KIND IN ('ROUT', 'ERUT'))
);
COMMENT ON TABLE FLIGHT_ROUTE_POINT IS 'Route points: ROUT (scheduled route) and ERUT, each list in its own input order.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.ROUTE_KIND IS 'ROUT or ERUT: which list the point belongs to; the two are replaced independently.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SOURCE_SEQ IS 'RTNO attribute as sent; not unique.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.APCD IS 'Airport code.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SADC IS 'Arrival day offset raw (+1, -1).';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SADC_DAYS IS 'Arrival day offset parsed.';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SDDC IS 'Departure day offset raw (+1, -1).';
COMMENT ON COLUMN FLIGHT_ROUTE_POINT.SDDC_DAYS IS 'Departure day offset parsed.';

CREATE TABLE FLIGHT_PAYLOAD (
  FLID               NUMBER(19)                  NOT NULL,
  KIND               VARCHAR2(4 CHAR)            NOT NULL,
  FORMAT             VARCHAR2(4 CHAR)            NOT NULL,
  CONTENT            CLOB                        NOT NULL,
  RECORD_VERSION     NUMBER(19)                  NOT NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  UPDATED_AT         TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_PAYLOAD_PKEY PRIMARY KEY (FLID, KIND),
  CONSTRAINT FLIGHT_PAYLOAD_FLIGHT_FK FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
  CONSTRAINT FLIGHT_PAYLOAD_KIND_CK CHECK (KIND IN ('SRVT', 'VIPF', 'PSHT', 'TIPT', 'PORT', 'MAFL')),
  CONSTRAINT FLIGHT_PAYLOAD_FORMAT_CK CHECK (FORMAT IN ('xml', 'json'))
);
COMMENT ON TABLE FLIGHT_PAYLOAD IS 'Collections without SQL columns (SRVT, VIPF, PSHT, TIPT, PORT, MAFL), validated by the codec and kept verbatim; one row per flight and kind, replaced as a whole (TEXT here, CLOB on Oracle).';
COMMENT ON COLUMN FLIGHT_PAYLOAD.FORMAT IS 'Encoding of content: xml (canonical XML of the items) or json.';
COMMENT ON COLUMN FLIGHT_PAYLOAD.CONTENT IS 'The whole collection, every item in input order.';

-- FLIGHT_HST.HST_ID: PostgreSQL GENERATED BY DEFAULT AS IDENTITY. 11g has no
-- identity columns: the adapter's INSERT supplies FLIGHT_HST_SEQ.NEXTVAL.
CREATE SEQUENCE FLIGHT_HST_SEQ START WITH 1 INCREMENT BY 1 NOCYCLE CACHE 20 NOORDER;

CREATE TABLE FLIGHT_HST (
  HST_ID             NUMBER(19)                  NOT NULL,
  FLID               NUMBER(19)                  NOT NULL,
  OPERATION_DAY      DATE                        NOT NULL,
  LIFECYCLE          VARCHAR2(8 CHAR)            NOT NULL,
  STATE_VERSION      NUMBER(19)                  NOT NULL,
  LAST_MESSAGE_ID    NUMBER(19)                  NOT NULL,
  STATE              CLOB                        NOT NULL,
  FLIGHT_CREATED_AT  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  PURGED_AT          TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
  CONSTRAINT FLIGHT_HST_PKEY PRIMARY KEY (HST_ID),
  CONSTRAINT FLIGHT_HST_LIFECYCLE_CK CHECK (LIFECYCLE IN ('ACTIVE', 'DELETED'))
);
CREATE INDEX FLIGHT_HST_FLID_IX ON FLIGHT_HST (FLID, STATE_VERSION);
CREATE INDEX FLIGHT_HST_DAY_IX ON FLIGHT_HST (OPERATION_DAY);
COMMENT ON TABLE FLIGHT_HST IS 'History store: the last full state of every flight the history sweep purged, written before the live rows are deleted.';
COMMENT ON COLUMN FLIGHT_HST.STATE IS 'The full flight state (every scalar raw + parsed, every detail list in order) as the documented event JSON.';
COMMENT ON COLUMN FLIGHT_HST.FLIGHT_CREATED_AT IS 'CREATED_AT of the purged FLIGHT_SCHD row.';
COMMENT ON COLUMN FLIGHT_HST.PURGED_AT IS 'When the sweep moved the flight here.';
