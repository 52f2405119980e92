-- Oracle 11g twin of sql/postgres/queries/flight.sql (README.md here).
-- Days (operation_day, fday) are DATE at midnight, bound as 'YYYY-MM-DD'.

-- name: FlightGet :one
SELECT * FROM flight_schd WHERE flid = :flid

-- name: FlightGetMany :many
SELECT * FROM flight_schd WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid

-- name: FlightStampMany :many
-- A join on the id list: primary-key probes.
SELECT s.flid, s.state_version, s.updated_at
FROM (SELECT DISTINCT COLUMN_VALUE AS flid FROM TABLE(:flids)) f
JOIN flight_schd s ON s.flid = f.flid

-- name: FlightInsert :copyfrom
-- New flights, executed array-bound (one element per flight).
INSERT INTO flight_schd (
  flid, ffid, alcd, alsc, flno, mvin, sodt, sodt_at, flty, flin, acft, reno, taop, tafl, taid,
  trml, maxp, csop, csft, maid, estt, estt_at, actt, actt_at, stnd, phag, fhag, mhag, cncl,
  remc, botm, botm_at, lacl, fint, appt, egsr, egst, egst_at, vipp, vipr, lbno, lbwt, paxc,
  exsc, exsr, ftss, pedt, pedt_at, neat, neat_at, padt, padt_at, naat, naat_at, stdt, stdt_at,
  eddt, eddt_at, dyop, scht, scht_minutes, cobt, cobt_at, tobt, tobt_at, eobt, eobt_at, ctot,
  ctot_at, iest, iest_at, runw, fdiv_ddes, fdiv_ddir, fdiv_text, fret_reid, fret_text,
  flab_ares, flab_text, operation_day, fday, lifecycle, deleted_at, state_version,
  last_message_id, created_at, updated_at, stamps)
VALUES (
  :flid, :ffid, :alcd, :alsc, :flno, :mvin, :sodt, :sodt_at, :flty, :flin, :acft, :reno, :taop,
  :tafl, :taid, :trml, :maxp, :csop, :csft, :maid, :estt, :estt_at, :actt, :actt_at, :stnd,
  :phag, :fhag, :mhag, :cncl, :remc, :botm, :botm_at, :lacl, :fint, :appt, :egsr, :egst,
  :egst_at, :vipp, :vipr, :lbno, :lbwt, :paxc, :exsc, :exsr, :ftss, :pedt, :pedt_at, :neat,
  :neat_at, :padt, :padt_at, :naat, :naat_at, :stdt, :stdt_at, :eddt, :eddt_at, :dyop, :scht,
  :scht_minutes, :cobt, :cobt_at, :tobt, :tobt_at, :eobt, :eobt_at, :ctot, :ctot_at, :iest,
  :iest_at, :runw, :fdiv_ddes, :fdiv_ddir, :fdiv_text, :fret_reid, :fret_text, :flab_ares,
  :flab_text, TO_DATE(:operation_day, 'YYYY-MM-DD'), TO_DATE(:fday, 'YYYY-MM-DD'), :lifecycle,
  :deleted_at, :state_version, :last_message_id, :created_at, :updated_at, :stamps)

-- name: FlightUpsert :exec
-- One flight per array element (11g has no JSON), executed array-bound:
-- every column; FLID (the ON column, ORA-38104) and CREATED_AT are kept on update.
MERGE INTO flight_schd t
USING (
  SELECT
    :flid AS flid, :ffid AS ffid, :alcd AS alcd, :alsc AS alsc, :flno AS flno, :mvin AS mvin,
    :sodt AS sodt, :sodt_at AS sodt_at, :flty AS flty, :flin AS flin, :acft AS acft,
    :reno AS reno, :taop AS taop, :tafl AS tafl, :taid AS taid, :trml AS trml, :maxp AS maxp,
    :csop AS csop, :csft AS csft, :maid AS maid, :estt AS estt, :estt_at AS estt_at,
    :actt AS actt, :actt_at AS actt_at, :stnd AS stnd, :phag AS phag, :fhag AS fhag,
    :mhag AS mhag, :cncl AS cncl, :remc AS remc, :botm AS botm, :botm_at AS botm_at,
    :lacl AS lacl, :fint AS fint, :appt AS appt, :egsr AS egsr, :egst AS egst,
    :egst_at AS egst_at, :vipp AS vipp, :vipr AS vipr, :lbno AS lbno, :lbwt AS lbwt,
    :paxc AS paxc, :exsc AS exsc, :exsr AS exsr, :ftss AS ftss, :pedt AS pedt,
    :pedt_at AS pedt_at, :neat AS neat, :neat_at AS neat_at, :padt AS padt, :padt_at AS padt_at,
    :naat AS naat, :naat_at AS naat_at, :stdt AS stdt, :stdt_at AS stdt_at, :eddt AS eddt,
    :eddt_at AS eddt_at, :dyop AS dyop, :scht AS scht, :scht_minutes AS scht_minutes,
    :cobt AS cobt, :cobt_at AS cobt_at, :tobt AS tobt, :tobt_at AS tobt_at, :eobt AS eobt,
    :eobt_at AS eobt_at, :ctot AS ctot, :ctot_at AS ctot_at, :iest AS iest, :iest_at AS iest_at,
    :runw AS runw, :fdiv_ddes AS fdiv_ddes, :fdiv_ddir AS fdiv_ddir, :fdiv_text AS fdiv_text,
    :fret_reid AS fret_reid, :fret_text AS fret_text, :flab_ares AS flab_ares,
    :flab_text AS flab_text, TO_DATE(:operation_day, 'YYYY-MM-DD') AS operation_day,
    TO_DATE(:fday, 'YYYY-MM-DD') AS fday, :lifecycle AS lifecycle, :deleted_at AS deleted_at,
    :state_version AS state_version, :last_message_id AS last_message_id,
    :created_at AS created_at, :updated_at AS updated_at, :stamps AS stamps
  FROM DUAL
) s
ON (t.flid = s.flid)
WHEN MATCHED THEN UPDATE SET
  t.ffid = s.ffid,
  t.alcd = s.alcd,
  t.alsc = s.alsc,
  t.flno = s.flno,
  t.mvin = s.mvin,
  t.sodt = s.sodt,
  t.sodt_at = s.sodt_at,
  t.flty = s.flty,
  t.flin = s.flin,
  t.acft = s.acft,
  t.reno = s.reno,
  t.taop = s.taop,
  t.tafl = s.tafl,
  t.taid = s.taid,
  t.trml = s.trml,
  t.maxp = s.maxp,
  t.csop = s.csop,
  t.csft = s.csft,
  t.maid = s.maid,
  t.estt = s.estt,
  t.estt_at = s.estt_at,
  t.actt = s.actt,
  t.actt_at = s.actt_at,
  t.stnd = s.stnd,
  t.phag = s.phag,
  t.fhag = s.fhag,
  t.mhag = s.mhag,
  t.cncl = s.cncl,
  t.remc = s.remc,
  t.botm = s.botm,
  t.botm_at = s.botm_at,
  t.lacl = s.lacl,
  t.fint = s.fint,
  t.appt = s.appt,
  t.egsr = s.egsr,
  t.egst = s.egst,
  t.egst_at = s.egst_at,
  t.vipp = s.vipp,
  t.vipr = s.vipr,
  t.lbno = s.lbno,
  t.lbwt = s.lbwt,
  t.paxc = s.paxc,
  t.exsc = s.exsc,
  t.exsr = s.exsr,
  t.ftss = s.ftss,
  t.pedt = s.pedt,
  t.pedt_at = s.pedt_at,
  t.neat = s.neat,
  t.neat_at = s.neat_at,
  t.padt = s.padt,
  t.padt_at = s.padt_at,
  t.naat = s.naat,
  t.naat_at = s.naat_at,
  t.stdt = s.stdt,
  t.stdt_at = s.stdt_at,
  t.eddt = s.eddt,
  t.eddt_at = s.eddt_at,
  t.dyop = s.dyop,
  t.scht = s.scht,
  t.scht_minutes = s.scht_minutes,
  t.cobt = s.cobt,
  t.cobt_at = s.cobt_at,
  t.tobt = s.tobt,
  t.tobt_at = s.tobt_at,
  t.eobt = s.eobt,
  t.eobt_at = s.eobt_at,
  t.ctot = s.ctot,
  t.ctot_at = s.ctot_at,
  t.iest = s.iest,
  t.iest_at = s.iest_at,
  t.runw = s.runw,
  t.fdiv_ddes = s.fdiv_ddes,
  t.fdiv_ddir = s.fdiv_ddir,
  t.fdiv_text = s.fdiv_text,
  t.fret_reid = s.fret_reid,
  t.fret_text = s.fret_text,
  t.flab_ares = s.flab_ares,
  t.flab_text = s.flab_text,
  t.operation_day = s.operation_day,
  t.fday = s.fday,
  t.lifecycle = s.lifecycle,
  t.deleted_at = s.deleted_at,
  t.state_version = s.state_version,
  t.last_message_id = s.last_message_id,
  t.updated_at = s.updated_at,
  t.stamps = s.stamps
WHEN NOT MATCHED THEN INSERT (
  flid, ffid, alcd, alsc, flno, mvin, sodt, sodt_at, flty, flin, acft, reno, taop, tafl, taid,
  trml, maxp, csop, csft, maid, estt, estt_at, actt, actt_at, stnd, phag, fhag, mhag, cncl,
  remc, botm, botm_at, lacl, fint, appt, egsr, egst, egst_at, vipp, vipr, lbno, lbwt, paxc,
  exsc, exsr, ftss, pedt, pedt_at, neat, neat_at, padt, padt_at, naat, naat_at, stdt, stdt_at,
  eddt, eddt_at, dyop, scht, scht_minutes, cobt, cobt_at, tobt, tobt_at, eobt, eobt_at, ctot,
  ctot_at, iest, iest_at, runw, fdiv_ddes, fdiv_ddir, fdiv_text, fret_reid, fret_text,
  flab_ares, flab_text, operation_day, fday, lifecycle, deleted_at, state_version,
  last_message_id, created_at, updated_at, stamps)
VALUES (
  s.flid, s.ffid, s.alcd, s.alsc, s.flno, s.mvin, s.sodt, s.sodt_at, s.flty, s.flin, s.acft,
  s.reno, s.taop, s.tafl, s.taid, s.trml, s.maxp, s.csop, s.csft, s.maid, s.estt, s.estt_at,
  s.actt, s.actt_at, s.stnd, s.phag, s.fhag, s.mhag, s.cncl, s.remc, s.botm, s.botm_at, s.lacl,
  s.fint, s.appt, s.egsr, s.egst, s.egst_at, s.vipp, s.vipr, s.lbno, s.lbwt, s.paxc, s.exsc,
  s.exsr, s.ftss, s.pedt, s.pedt_at, s.neat, s.neat_at, s.padt, s.padt_at, s.naat, s.naat_at,
  s.stdt, s.stdt_at, s.eddt, s.eddt_at, s.dyop, s.scht, s.scht_minutes, s.cobt, s.cobt_at,
  s.tobt, s.tobt_at, s.eobt, s.eobt_at, s.ctot, s.ctot_at, s.iest, s.iest_at, s.runw,
  s.fdiv_ddes, s.fdiv_ddir, s.fdiv_text, s.fret_reid, s.fret_text, s.flab_ares, s.flab_text,
  s.operation_day, s.fday, s.lifecycle, s.deleted_at, s.state_version, s.last_message_id,
  s.created_at, s.updated_at, s.stamps)

-- name: FlightListByDay :many
SELECT * FROM (
  SELECT * FROM flight_schd
  WHERE operation_day = TO_DATE(:operation_day, 'YYYY-MM-DD') AND flid > :after_flid
  ORDER BY flid
) WHERE ROWNUM <= :page_size

-- name: FlightListPruneCandidates :many
-- Previous-generation members still ACTIVE on that day and absent from the
-- new snapshot. An empty :keep_flids collection keeps nothing.
SELECT f.* FROM schd_gen_flid g
JOIN flight_schd f ON f.flid = g.flid
WHERE g.fday = TO_DATE(:fday, 'YYYY-MM-DD')
  AND f.lifecycle = 'ACTIVE'
  AND f.operation_day = TO_DATE(:fday, 'YYYY-MM-DD')
  AND f.flid NOT IN (SELECT COLUMN_VALUE FROM TABLE(:keep_flids))
ORDER BY f.flid

-- name: FlightDelete :execrows
-- Physical delete (history sweep only). No DML in a WITH: one block deletes
-- the detail rows and the snapshot memberships (no foreign key) and then the
-- flight; payloads cascade. :deleted is the flight row count.
BEGIN
  DELETE FROM flight_gate WHERE flid = :flid;
  DELETE FROM flight_checkin WHERE flid = :flid;
  DELETE FROM flight_belt WHERE flid = :flid;
  DELETE FROM flight_stand_plan WHERE flid = :flid;
  DELETE FROM flight_chute WHERE flid = :flid;
  DELETE FROM flight_delay WHERE flid = :flid;
  DELETE FROM flight_bridge_op WHERE flid = :flid;
  DELETE FROM flight_chock_op WHERE flid = :flid;
  DELETE FROM flight_route_point WHERE flid = :flid;
  DELETE FROM schd_gen_flid WHERE flid = :flid;
  DELETE FROM flight_schd WHERE flid = :flid;
  :deleted := SQL%ROWCOUNT;
END;

-- name: FlightCountByLifecycle :many
SELECT lifecycle, COUNT(*) AS flights FROM flight_schd GROUP BY lifecycle ORDER BY lifecycle

-- name: FlightHstListByFlight :many
SELECT * FROM flight_hst WHERE flid = :flid ORDER BY state_version, hst_id
