-- Current flight state: one FLIGHT_SCHD row per FLID, nine ordered detail
-- collections, raw payload collections, and the history store.
--
-- Sizing: every raw SIS value is VARCHAR(1000). 1000 characters of UTF-8 are at
-- most 4000 bytes, so the same model fits Oracle 11g VARCHAR2(4000 BYTE); the
-- pipeline refuses longer values (PROTOCOL, internal/widths) before any write
-- instead of letting them be truncated or fail the statement.
-- Each time field keeps the raw text and, beside it, the value parsed in the
-- airport time zone (<name>_at).

CREATE TABLE flight_schd (
  flid             BIGINT         NOT NULL,
  ffid             VARCHAR(1000)  NULL,
  alcd             VARCHAR(1000)  NULL,
  alsc             VARCHAR(1000)  NULL,
  flno             VARCHAR(1000)  NULL,
  mvin             VARCHAR(1000)  NULL,
  sodt             VARCHAR(1000)  NULL,
  sodt_at          TIMESTAMPTZ    NULL,
  flty             VARCHAR(1000)  NULL,
  flin             VARCHAR(1000)  NULL,
  acft             VARCHAR(1000)  NULL,
  reno             VARCHAR(1000)  NULL,
  taop             VARCHAR(1000)  NULL,
  tafl             VARCHAR(1000)  NULL,
  taid             VARCHAR(1000)  NULL,
  trml             VARCHAR(1000)  NULL,
  maxp             VARCHAR(1000)  NULL,
  csop             VARCHAR(1000)  NULL,
  csft             VARCHAR(1000)  NULL,
  maid             VARCHAR(1000)  NULL,
  estt             VARCHAR(1000)  NULL,
  estt_at          TIMESTAMPTZ    NULL,
  actt             VARCHAR(1000)  NULL,
  actt_at          TIMESTAMPTZ    NULL,
  stnd             VARCHAR(1000)  NULL,
  phag             VARCHAR(1000)  NULL,
  fhag             VARCHAR(1000)  NULL,
  mhag             VARCHAR(1000)  NULL,
  cncl             VARCHAR(1000)  NULL,
  remc             VARCHAR(1000)  NULL,
  botm             VARCHAR(1000)  NULL,
  botm_at          TIMESTAMPTZ    NULL,
  lacl             VARCHAR(1000)  NULL,
  fint             VARCHAR(1000)  NULL,
  appt             VARCHAR(1000)  NULL,
  egsr             VARCHAR(1000)  NULL,
  egst             VARCHAR(1000)  NULL,
  egst_at          TIMESTAMPTZ    NULL,
  vipp             VARCHAR(1000)  NULL,
  vipr             VARCHAR(1000)  NULL,
  lbno             VARCHAR(1000)  NULL,
  lbwt             VARCHAR(1000)  NULL,
  paxc             VARCHAR(1000)  NULL,
  exsc             VARCHAR(1000)  NULL,
  exsr             VARCHAR(1000)  NULL,
  ftss             VARCHAR(1000)  NULL,
  pedt             VARCHAR(1000)  NULL,
  pedt_at          TIMESTAMPTZ    NULL,
  neat             VARCHAR(1000)  NULL,
  neat_at          TIMESTAMPTZ    NULL,
  padt             VARCHAR(1000)  NULL,
  padt_at          TIMESTAMPTZ    NULL,
  naat             VARCHAR(1000)  NULL,
  naat_at          TIMESTAMPTZ    NULL,
  stdt             VARCHAR(1000)  NULL,
  stdt_at          TIMESTAMPTZ    NULL,
  eddt             VARCHAR(1000)  NULL,
  eddt_at          TIMESTAMPTZ    NULL,
  dyop             VARCHAR(1000)  NULL,
  scht             VARCHAR(1000)  NULL,
  scht_minutes     INTEGER        NULL,
  cobt             VARCHAR(1000)  NULL,
  cobt_at          TIMESTAMPTZ    NULL,
  tobt             VARCHAR(1000)  NULL,
  tobt_at          TIMESTAMPTZ    NULL,
  eobt             VARCHAR(1000)  NULL,
  eobt_at          TIMESTAMPTZ    NULL,
  ctot             VARCHAR(1000)  NULL,
  ctot_at          TIMESTAMPTZ    NULL,
  iest             VARCHAR(1000)  NULL,
  iest_at          TIMESTAMPTZ    NULL,
  runw             VARCHAR(1000)  NULL,
  fdiv_ddes        VARCHAR(1000)  NULL,
  fdiv_ddir        VARCHAR(4)     NULL,
  fdiv_text        VARCHAR(1000)  NULL,
  fret_reid        VARCHAR(1)     NULL,
  fret_text        VARCHAR(1000)  NULL,
  flab_ares        VARCHAR(1)     NULL,
  flab_text        VARCHAR(1000)  NULL,
  operation_day    DATE           NOT NULL,
  fday             DATE           NULL,
  lifecycle        VARCHAR(8)     NOT NULL DEFAULT 'ACTIVE',
  deleted_at       TIMESTAMPTZ    NULL,
  state_version    BIGINT         NOT NULL DEFAULT 1,
  last_message_id  BIGINT         NOT NULL,
  created_at       TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at       TIMESTAMPTZ    NOT NULL DEFAULT now(),
  stamps           VARCHAR(2000)  NULL,
  CONSTRAINT flight_schd_pkey PRIMARY KEY (flid),
  CONSTRAINT flight_schd_lifecycle_ck CHECK (lifecycle IN ('ACTIVE', 'DELETED')),
  CONSTRAINT flight_schd_mvin_ck CHECK (mvin IN ('A', 'D')),
  CONSTRAINT flight_schd_flin_ck CHECK (flin IN ('D', 'I', 'M')),
  CONSTRAINT flight_schd_fdiv_ddir_ck CHECK (fdiv_ddir IN ('TO', 'FROM')),
  CONSTRAINT flight_schd_fret_reid_ck CHECK (fret_reid IN ('G', 'A')),
  CONSTRAINT flight_schd_flab_ares_ck CHECK (flab_ares IN ('O', 'G')),
  CONSTRAINT flight_schd_version_ck CHECK (state_version >= 1)
)
-- Nearly every FLOP message updates its flight's row; free space on the page
-- lets the new row version stay there (a HOT update: no new entries in the
-- indexes, whose columns never change). Half the page: a DNLD resend
-- updates every flight of a page in one transaction, whose old versions
-- cannot be pruned before it commits; at 80 three updates in four were not
-- HOT (issue #34, docs/dev/performance-notes.md).
WITH (fillfactor = 50);
-- Flights by operation day, in FLID order: /all/flights paging and snapshot prune.
CREATE INDEX flight_schd_day_ix ON flight_schd (operation_day, flid);
-- Candidates of the history sweep.
CREATE INDEX flight_schd_deleted_ix ON flight_schd (deleted_at) WHERE lifecycle = 'DELETED';

COMMENT ON TABLE flight_schd IS 'Current state of every flight, one row per AODB FLID: every SIS scalar as raw text, parsed times beside them, the single-valued FDIV/FRET/FLAB structures, lifecycle and version. Written only by the pump.';
COMMENT ON COLUMN flight_schd.flid IS 'AODB flight id (FLID), the key messages are matched on.';
COMMENT ON COLUMN flight_schd.ffid IS 'FFID as sent (ALCD-FLNO-MVIN-SODT-FLIN); informational, never used for matching.';
COMMENT ON COLUMN flight_schd.mvin IS 'Movement indicator: A arrival, D departure.';
COMMENT ON COLUMN flight_schd.sodt IS 'Scheduled date/time, raw (ddMONyyHHmm). Its local date is the operation day.';
COMMENT ON COLUMN flight_schd.flin IS 'Flight indicator: D domestic, I international, M mixed.';
COMMENT ON COLUMN flight_schd.scht IS 'SCHT raw, HHMM (hours and minutes).';
COMMENT ON COLUMN flight_schd.scht_minutes IS 'SCHT parsed to minutes.';
COMMENT ON COLUMN flight_schd.fdiv_ddes IS 'FDIV (diversion) attribute DDES.';
COMMENT ON COLUMN flight_schd.fdiv_ddir IS 'FDIV attribute DDIR: TO or FROM.';
COMMENT ON COLUMN flight_schd.fdiv_text IS 'FDIV element text.';
COMMENT ON COLUMN flight_schd.fret_reid IS 'FRET (return) attribute REID: G or A.';
COMMENT ON COLUMN flight_schd.fret_text IS 'FRET element text.';
COMMENT ON COLUMN flight_schd.flab_ares IS 'FLAB attribute ARES: O or G.';
COMMENT ON COLUMN flight_schd.flab_text IS 'FLAB element text.';
COMMENT ON COLUMN flight_schd.operation_day IS 'Local date of SODT in the airport zone; set once, never changed (a conflicting record is a PROTOCOL error).';
COMMENT ON COLUMN flight_schd.fday IS 'Day of the last snapshot (DNLD/RESP) generation the flight belonged to; NULL for flights only created by ADFT/UPD.';
COMMENT ON COLUMN flight_schd.lifecycle IS 'ACTIVE, or DELETED (soft delete by FDEL, SCHD DEL or prune) until the history sweep moves the flight out.';
COMMENT ON COLUMN flight_schd.deleted_at IS 'When the flight became DELETED.';
COMMENT ON COLUMN flight_schd.state_version IS 'Advances by one on every real change of the flight; a no-op message leaves it and emits nothing.';
COMMENT ON COLUMN flight_schd.last_message_id IS 'MSG_ID of the last message that changed the flight (audit, recovery).';
COMMENT ON COLUMN flight_schd.stamps IS 'Rule 19: the META DTTM of the message that last set each value, per DTTM (unix seconds, ascending) the names it stamps, as "secs:NAME NAME;secs:NAME" (SIS names, lifecycle, and * for every name without its own stamp). A snapshot sets a value only where its DTTM is not older. NULL: no stamp known.';

-- Detail collections. Each is replaced as a whole when a message carries the
-- group; ORDINAL is the input order (1-based), SOURCE_SEQ the source sequence
-- number, which is data, not a key: two gates may share GTNO and GATE.
--
-- They have no foreign key to flight_schd: the per-row check took about 40 %
-- of a 2 000-flight DNLD (~28 000 rows; issue #4 targets 1 s). The pump is
-- their only writer and writes them after their flight in the same
-- transaction; FlightDelete deletes them with the flight (what ON DELETE
-- CASCADE did).

CREATE TABLE flight_gate (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  gate            VARCHAR(1000)  NULL,
  pgot            VARCHAR(1000)  NULL,
  pgot_at         TIMESTAMPTZ    NULL,
  pgct            VARCHAR(1000)  NULL,
  pgct_at         TIMESTAMPTZ    NULL,
  gotm            VARCHAR(1000)  NULL,
  gotm_at         TIMESTAMPTZ    NULL,
  gctm            VARCHAR(1000)  NULL,
  gctm_at         TIMESTAMPTZ    NULL,
  gtyp            VARCHAR(1000)  NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_gate_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_gate_ordinal_ck CHECK (ordinal >= 1)
);
COMMENT ON TABLE flight_gate IS 'Gate allocations of a flight (SIS GTDT), in input order.';
COMMENT ON COLUMN flight_gate.ordinal IS 'Position in the GTDT list as sent, from 1.';
COMMENT ON COLUMN flight_gate.source_seq IS 'GTNO attribute as sent; not unique.';
COMMENT ON COLUMN flight_gate.record_version IS 'Flight STATE_VERSION that wrote this row.';

CREATE TABLE flight_checkin (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  chkc            VARCHAR(1000)  NULL,
  ccls            VARCHAR(1000)  NULL,
  pcot            VARCHAR(1000)  NULL,
  pcot_at         TIMESTAMPTZ    NULL,
  pcct            VARCHAR(1000)  NULL,
  pcct_at         TIMESTAMPTZ    NULL,
  cotm            VARCHAR(1000)  NULL,
  cotm_at         TIMESTAMPTZ    NULL,
  cctm            VARCHAR(1000)  NULL,
  cctm_at         TIMESTAMPTZ    NULL,
  ctyp            VARCHAR(1000)  NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_checkin_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_checkin_ordinal_ck CHECK (ordinal >= 1)
);
COMMENT ON TABLE flight_checkin IS 'Check-in counter allocations (SIS CKDT), in input order.';
COMMENT ON COLUMN flight_checkin.source_seq IS 'CKNO attribute as sent; not unique.';

CREATE TABLE flight_belt (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  belt            VARCHAR(1000)  NULL,
  bcls            VARCHAR(1000)  NULL,
  pcot            VARCHAR(1000)  NULL,
  pcot_at         TIMESTAMPTZ    NULL,
  pcct            VARCHAR(1000)  NULL,
  pcct_at         TIMESTAMPTZ    NULL,
  fbag            VARCHAR(1000)  NULL,
  lbag            VARCHAR(1000)  NULL,
  btyp            VARCHAR(1000)  NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_belt_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_belt_ordinal_ck CHECK (ordinal >= 1)
);
COMMENT ON TABLE flight_belt IS 'Baggage belt (carousel) allocations (SIS CLDT), in input order.';
COMMENT ON COLUMN flight_belt.source_seq IS 'CLNO attribute as sent; not unique.';
COMMENT ON COLUMN flight_belt.fbag IS 'First bag (raw; not declared a time by the wire contract).';
COMMENT ON COLUMN flight_belt.lbag IS 'Last bag (raw; not declared a time by the wire contract).';

CREATE TABLE flight_stand_plan (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  psst            VARCHAR(1000)  NULL,
  stst            VARCHAR(1000)  NULL,
  stst_at         TIMESTAMPTZ    NULL,
  stet            VARCHAR(1000)  NULL,
  stet_at         TIMESTAMPTZ    NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_stand_plan_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_stand_plan_ordinal_ck CHECK (ordinal >= 1)
);
COMMENT ON TABLE flight_stand_plan IS 'Planned stand occupations (SIS PSDT), in input order.';
COMMENT ON COLUMN flight_stand_plan.source_seq IS 'PSNO attribute as sent; not unique.';
COMMENT ON COLUMN flight_stand_plan.psst IS 'Planned stand.';

CREATE TABLE flight_chute (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  chut            VARCHAR(1000)  NULL,
  ccls            VARCHAR(1000)  NULL,
  pcbt            VARCHAR(1000)  NULL,
  pcbt_at         TIMESTAMPTZ    NULL,
  pcet            VARCHAR(1000)  NULL,
  pcet_at         TIMESTAMPTZ    NULL,
  cbtm            VARCHAR(1000)  NULL,
  cbtm_at         TIMESTAMPTZ    NULL,
  cetm            VARCHAR(1000)  NULL,
  cetm_at         TIMESTAMPTZ    NULL,
  ctyp            VARCHAR(1000)  NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_chute_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_chute_ordinal_ck CHECK (ordinal >= 1)
);
COMMENT ON TABLE flight_chute IS 'Baggage make-up chute allocations (SIS CHDT), in input order.';
COMMENT ON COLUMN flight_chute.source_seq IS 'CHNO attribute as sent; not unique.';

CREATE TABLE flight_delay (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  code            VARCHAR(1000)  NULL,
  strt            VARCHAR(1000)  NULL,
  strt_at         TIMESTAMPTZ    NULL,
  dura            VARCHAR(1000)  NULL,
  dura_minutes    INTEGER        NULL,
  reason          VARCHAR(1000)  NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_delay_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_delay_ordinal_ck CHECK (ordinal >= 1)
);
COMMENT ON TABLE flight_delay IS 'Delays (SIS DELY: attributes CODE, STRT, DURA; text = reason), in input order. DELY has no sequence number.';
COMMENT ON COLUMN flight_delay.dura IS 'Duration raw, HHMM.';
COMMENT ON COLUMN flight_delay.dura_minutes IS 'Duration parsed to minutes.';
COMMENT ON COLUMN flight_delay.reason IS 'Element text of DELY.';

CREATE TABLE flight_bridge_op (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  abdg            VARCHAR(1000)  NULL,
  abop            VARCHAR(1)     NULL,
  aotm            VARCHAR(1000)  NULL,
  aotm_at         TIMESTAMPTZ    NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_bridge_op_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_bridge_op_ordinal_ck CHECK (ordinal >= 1),
  CONSTRAINT flight_bridge_op_abop_ck CHECK (abop IN ('A', 'D'))
);
COMMENT ON TABLE flight_bridge_op IS 'Airbridge operations (SIS ABTM), every attach/detach kept in input order.';
COMMENT ON COLUMN flight_bridge_op.source_seq IS 'ASNO attribute as sent; not unique.';
COMMENT ON COLUMN flight_bridge_op.abop IS 'A attach, D detach.';

CREATE TABLE flight_chock_op (
  flid            BIGINT         NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  chtm            VARCHAR(1000)  NULL,
  chtm_at         TIMESTAMPTZ    NULL,
  chid            VARCHAR(3)     NULL,
  chst            VARCHAR(1000)  NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_chock_op_pkey PRIMARY KEY (flid, ordinal),
  CONSTRAINT flight_chock_op_ordinal_ck CHECK (ordinal >= 1),
  CONSTRAINT flight_chock_op_chid_ck CHECK (chid IN ('ON', 'OFF'))
);
COMMENT ON TABLE flight_chock_op IS 'Chocks on/off operations (SIS CHOT), every operation kept in input order.';
COMMENT ON COLUMN flight_chock_op.source_seq IS 'CSNO attribute as sent; not unique.';
COMMENT ON COLUMN flight_chock_op.chid IS 'ON or OFF.';

CREATE TABLE flight_route_point (
  flid            BIGINT         NOT NULL,
  route_kind      VARCHAR(4)     NOT NULL,
  ordinal         INTEGER        NOT NULL,
  source_seq      BIGINT         NULL,
  apcd            VARCHAR(1000)  NULL,
  scat            VARCHAR(1000)  NULL,
  scat_at         TIMESTAMPTZ    NULL,
  sadc            VARCHAR(1000)  NULL,
  sadc_days       INTEGER        NULL,
  scdt            VARCHAR(1000)  NULL,
  scdt_at         TIMESTAMPTZ    NULL,
  sddc            VARCHAR(1000)  NULL,
  sddc_days       INTEGER        NULL,
  record_version  BIGINT         NOT NULL,
  created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
  CONSTRAINT flight_route_point_pkey PRIMARY KEY (flid, route_kind, ordinal),
  CONSTRAINT flight_route_point_ordinal_ck CHECK (ordinal >= 1),
  CONSTRAINT flight_route_point_kind_ck CHECK (route_kind IN ('ROUT', 'ERUT'))
);
COMMENT ON TABLE flight_route_point IS 'Route points: ROUT (scheduled route) and ERUT, each list in its own input order.';
COMMENT ON COLUMN flight_route_point.route_kind IS 'ROUT or ERUT: which list the point belongs to; the two are replaced independently.';
COMMENT ON COLUMN flight_route_point.source_seq IS 'RTNO attribute as sent; not unique.';
COMMENT ON COLUMN flight_route_point.apcd IS 'Airport code.';
COMMENT ON COLUMN flight_route_point.sadc IS 'Arrival day offset raw (+1, -1).';
COMMENT ON COLUMN flight_route_point.sadc_days IS 'Arrival day offset parsed.';
COMMENT ON COLUMN flight_route_point.sddc IS 'Departure day offset raw (+1, -1).';
COMMENT ON COLUMN flight_route_point.sddc_days IS 'Departure day offset parsed.';

CREATE TABLE flight_payload (
  flid            BIGINT       NOT NULL,
  kind            VARCHAR(4)   NOT NULL,
  format          VARCHAR(4)   NOT NULL,
  content         TEXT         NOT NULL,
  record_version  BIGINT       NOT NULL,
  created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
  CONSTRAINT flight_payload_pkey PRIMARY KEY (flid, kind),
  CONSTRAINT flight_payload_flight_fk FOREIGN KEY (flid) REFERENCES flight_schd (flid) ON DELETE CASCADE,
  CONSTRAINT flight_payload_kind_ck CHECK (kind IN ('SRVT', 'VIPF', 'PSHT', 'TIPT', 'PORT', 'MAFL')),
  CONSTRAINT flight_payload_format_ck CHECK (format IN ('xml', 'json'))
);
COMMENT ON TABLE flight_payload IS 'Collections without SQL columns (SRVT, VIPF, PSHT, TIPT, PORT, MAFL), validated by the codec and kept verbatim; one row per flight and kind, replaced as a whole (TEXT here, CLOB on Oracle).';
COMMENT ON COLUMN flight_payload.format IS 'Encoding of content: xml (canonical XML of the items) or json.';
COMMENT ON COLUMN flight_payload.content IS 'The whole collection, every item in input order.';

CREATE TABLE flight_hst (
  hst_id           BIGINT       GENERATED BY DEFAULT AS IDENTITY,
  flid             BIGINT       NOT NULL,
  operation_day    DATE         NOT NULL,
  lifecycle        VARCHAR(8)   NOT NULL,
  state_version    BIGINT       NOT NULL,
  last_message_id  BIGINT       NOT NULL,
  state            TEXT         NOT NULL,
  flight_created_at TIMESTAMPTZ NOT NULL,
  purged_at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
  CONSTRAINT flight_hst_pkey PRIMARY KEY (hst_id),
  CONSTRAINT flight_hst_lifecycle_ck CHECK (lifecycle IN ('ACTIVE', 'DELETED'))
);
CREATE INDEX flight_hst_flid_ix ON flight_hst (flid, state_version);
CREATE INDEX flight_hst_day_ix ON flight_hst (operation_day);
COMMENT ON TABLE flight_hst IS 'History store: the last full state of every flight the history sweep purged, written before the live rows are deleted.';
COMMENT ON COLUMN flight_hst.state IS 'The full flight state (every scalar raw + parsed, every detail list in order) as the documented event JSON.';
COMMENT ON COLUMN flight_hst.flight_created_at IS 'CREATED_AT of the purged FLIGHT_SCHD row.';
COMMENT ON COLUMN flight_hst.purged_at IS 'When the sweep moved the flight here.';
