-- Oracle 11g twin of sql/postgres/queries/flight_detail.sql (README.md here).
-- The :copyfrom inserts are executed array-bound (one element per row).

-- name: GateListByFlight :many
SELECT * FROM flight_gate WHERE flid = :flid ORDER BY ordinal

-- name: GateListByFlights :many
SELECT * FROM flight_gate WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: GateDeleteByFlight :execrows
DELETE FROM flight_gate WHERE flid = :flid

-- name: GateDeleteByFlights :execrows
DELETE FROM flight_gate WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: GateInsert :copyfrom
INSERT INTO flight_gate (flid, ordinal, source_seq, gate, pgot, pgot_at, pgct, pgct_at, gotm, gotm_at, gctm, gctm_at, gtyp, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :source_seq, :gate, :pgot, :pgot_at, :pgct, :pgct_at, :gotm, :gotm_at, :gctm, :gctm_at, :gtyp, :record_version, :created_at, :updated_at)

-- name: CheckinListByFlight :many
SELECT * FROM flight_checkin WHERE flid = :flid ORDER BY ordinal

-- name: CheckinListByFlights :many
SELECT * FROM flight_checkin WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: CheckinDeleteByFlight :execrows
DELETE FROM flight_checkin WHERE flid = :flid

-- name: CheckinDeleteByFlights :execrows
DELETE FROM flight_checkin WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: CheckinInsert :copyfrom
INSERT INTO flight_checkin (flid, ordinal, source_seq, chkc, ccls, pcot, pcot_at, pcct, pcct_at, cotm, cotm_at, cctm, cctm_at, ctyp, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :source_seq, :chkc, :ccls, :pcot, :pcot_at, :pcct, :pcct_at, :cotm, :cotm_at, :cctm, :cctm_at, :ctyp, :record_version, :created_at, :updated_at)

-- name: BeltListByFlight :many
SELECT * FROM flight_belt WHERE flid = :flid ORDER BY ordinal

-- name: BeltListByFlights :many
SELECT * FROM flight_belt WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: BeltDeleteByFlight :execrows
DELETE FROM flight_belt WHERE flid = :flid

-- name: BeltDeleteByFlights :execrows
DELETE FROM flight_belt WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: BeltInsert :copyfrom
INSERT INTO flight_belt (flid, ordinal, source_seq, belt, bcls, pcot, pcot_at, pcct, pcct_at, fbag, lbag, btyp, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :source_seq, :belt, :bcls, :pcot, :pcot_at, :pcct, :pcct_at, :fbag, :lbag, :btyp, :record_version, :created_at, :updated_at)

-- name: StandPlanListByFlight :many
SELECT * FROM flight_stand_plan WHERE flid = :flid ORDER BY ordinal

-- name: StandPlanListByFlights :many
SELECT * FROM flight_stand_plan WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: StandPlanDeleteByFlight :execrows
DELETE FROM flight_stand_plan WHERE flid = :flid

-- name: StandPlanDeleteByFlights :execrows
DELETE FROM flight_stand_plan WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: StandPlanInsert :copyfrom
INSERT INTO flight_stand_plan (flid, ordinal, source_seq, psst, stst, stst_at, stet, stet_at, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :source_seq, :psst, :stst, :stst_at, :stet, :stet_at, :record_version, :created_at, :updated_at)

-- name: ChuteListByFlight :many
SELECT * FROM flight_chute WHERE flid = :flid ORDER BY ordinal

-- name: ChuteListByFlights :many
SELECT * FROM flight_chute WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: ChuteDeleteByFlight :execrows
DELETE FROM flight_chute WHERE flid = :flid

-- name: ChuteDeleteByFlights :execrows
DELETE FROM flight_chute WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: ChuteInsert :copyfrom
INSERT INTO flight_chute (flid, ordinal, source_seq, chut, ccls, pcbt, pcbt_at, pcet, pcet_at, cbtm, cbtm_at, cetm, cetm_at, ctyp, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :source_seq, :chut, :ccls, :pcbt, :pcbt_at, :pcet, :pcet_at, :cbtm, :cbtm_at, :cetm, :cetm_at, :ctyp, :record_version, :created_at, :updated_at)

-- name: DelayListByFlight :many
SELECT * FROM flight_delay WHERE flid = :flid ORDER BY ordinal

-- name: DelayListByFlights :many
SELECT * FROM flight_delay WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: DelayDeleteByFlight :execrows
DELETE FROM flight_delay WHERE flid = :flid

-- name: DelayDeleteByFlights :execrows
DELETE FROM flight_delay WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: DelayInsert :copyfrom
INSERT INTO flight_delay (flid, ordinal, code, strt, strt_at, dura, dura_minutes, reason, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :code, :strt, :strt_at, :dura, :dura_minutes, :reason, :record_version, :created_at, :updated_at)

-- name: BridgeOpListByFlight :many
SELECT * FROM flight_bridge_op WHERE flid = :flid ORDER BY ordinal

-- name: BridgeOpListByFlights :many
SELECT * FROM flight_bridge_op WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: BridgeOpDeleteByFlight :execrows
DELETE FROM flight_bridge_op WHERE flid = :flid

-- name: BridgeOpDeleteByFlights :execrows
DELETE FROM flight_bridge_op WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: BridgeOpInsert :copyfrom
INSERT INTO flight_bridge_op (flid, ordinal, source_seq, abdg, abop, aotm, aotm_at, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :source_seq, :abdg, :abop, :aotm, :aotm_at, :record_version, :created_at, :updated_at)

-- name: ChockOpListByFlight :many
SELECT * FROM flight_chock_op WHERE flid = :flid ORDER BY ordinal

-- name: ChockOpListByFlights :many
SELECT * FROM flight_chock_op WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, ordinal

-- name: ChockOpDeleteByFlight :execrows
DELETE FROM flight_chock_op WHERE flid = :flid

-- name: ChockOpDeleteByFlights :execrows
DELETE FROM flight_chock_op WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids))

-- name: ChockOpInsert :copyfrom
INSERT INTO flight_chock_op (flid, ordinal, source_seq, chtm, chtm_at, chid, chst, record_version, created_at, updated_at)
VALUES (:flid, :ordinal, :source_seq, :chtm, :chtm_at, :chid, :chst, :record_version, :created_at, :updated_at)

-- name: RoutePointListByFlight :many
SELECT * FROM flight_route_point WHERE flid = :flid ORDER BY route_kind, ordinal

-- name: RoutePointListByFlights :many
SELECT * FROM flight_route_point WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, route_kind, ordinal

-- name: RoutePointDeleteByFlightKind :execrows
-- ROUT and ERUT are replaced independently.
DELETE FROM flight_route_point WHERE flid = :flid AND route_kind = :route_kind

-- name: RoutePointDeleteByFlightsKind :execrows
DELETE FROM flight_route_point WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) AND route_kind = :route_kind

-- name: RoutePointInsert :copyfrom
INSERT INTO flight_route_point (flid, route_kind, ordinal, source_seq, apcd, scat, scat_at, sadc, sadc_days, scdt, scdt_at, sddc, sddc_days, record_version, created_at, updated_at)
VALUES (:flid, :route_kind, :ordinal, :source_seq, :apcd, :scat, :scat_at, :sadc, :sadc_days, :scdt, :scdt_at, :sddc, :sddc_days, :record_version, :created_at, :updated_at)

-- name: PayloadListByFlight :many
SELECT * FROM flight_payload WHERE flid = :flid ORDER BY kind

-- name: PayloadListByFlights :many
SELECT * FROM flight_payload WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) ORDER BY flid, kind

-- name: PayloadUpsert :batchexec
-- Executed array-bound (one element per payload); CONTENT is a CLOB.
MERGE INTO flight_payload t
USING (SELECT :flid AS flid, :kind AS kind, :format AS format, :content AS content,
    :record_version AS record_version, :now AS now_at FROM DUAL) s
ON (t.flid = s.flid AND t.kind = s.kind)
WHEN MATCHED THEN UPDATE SET
  t.format = s.format,
  t.content = s.content,
  t.record_version = s.record_version,
  t.updated_at = s.now_at
WHEN NOT MATCHED THEN INSERT (flid, kind, format, content, record_version, created_at, updated_at)
  VALUES (s.flid, s.kind, s.format, s.content, s.record_version, s.now_at, s.now_at)

-- name: PayloadDeleteByFlightsKind :execrows
-- Payload collections of one kind replaced (or replaced with an empty list).
DELETE FROM flight_payload WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(:flids)) AND kind = :kind
