-- The *ListByFlights reads probe each listed flight's rows by the primary
-- key (flid, ...) behind an OFFSET 0 fence the planner cannot flatten: with
-- a fortnight of live flights, flid = ANY(...) over a run's few hundred
-- flights read the whole table (issue #35). Each flight is asked once (the
-- caller's list holds no duplicates, no DISTINCT). The flights of a span,
-- span_first to span_last (none when first > last), are read as one range
-- of the index instead: the AODB numbers the flights of a day it schedules
-- at once in a row, and a resend of the day read each table by one descent
-- per flight, 10 to 20 µs of PostgreSQL per flight (issue #34). A bound of
-- the span is a parameter of its own, so each execution is planned or
-- costed on a range, never on a list of ranges, whose estimate the planner
-- cannot make. The rows come in no promised order (no ORDER BY): the caller
-- groups them by flight and orders each flight's by ordinal, a sort it
-- skips when the rows come in order. They name only the columns a flight's
-- state holds (not record_version, created_at, updated_at). The hash of a
-- DISTINCT, the sort and the unused columns were a third of a resend's time
-- in these statements (issue #34).

-- name: GateListByFlight :many
SELECT * FROM flight_gate WHERE flid = @flid ORDER BY ordinal;

-- name: GateListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.source_seq, x.gate, x.pgot, x.pgot_at, x.pgct, x.pgct_at, x.gotm, x.gotm_at, x.gctm, x.gctm_at, x.gtyp
  FROM flight_gate x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.source_seq, x.gate, x.pgot, x.pgot_at, x.pgct, x.pgct_at, x.gotm, x.gotm_at, x.gctm, x.gctm_at, x.gtyp
  FROM flight_gate x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: GateDeleteByFlight :execrows
DELETE FROM flight_gate WHERE flid = @flid;

-- name: GateDeleteByFlights :execrows
DELETE FROM flight_gate WHERE flid = ANY(@flids::bigint[]);

-- name: GateInsert :copyfrom
INSERT INTO flight_gate (flid, ordinal, source_seq, gate, pgot, pgot_at, pgct, pgct_at, gotm, gotm_at, gctm, gctm_at, gtyp, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @source_seq, @gate, @pgot, @pgot_at, @pgct, @pgct_at, @gotm, @gotm_at, @gctm, @gctm_at, @gtyp, @record_version, @created_at, @updated_at);

-- name: CheckinListByFlight :many
SELECT * FROM flight_checkin WHERE flid = @flid ORDER BY ordinal;

-- name: CheckinListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.source_seq, x.chkc, x.ccls, x.pcot, x.pcot_at, x.pcct, x.pcct_at, x.cotm, x.cotm_at, x.cctm, x.cctm_at, x.ctyp
  FROM flight_checkin x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.source_seq, x.chkc, x.ccls, x.pcot, x.pcot_at, x.pcct, x.pcct_at, x.cotm, x.cotm_at, x.cctm, x.cctm_at, x.ctyp
  FROM flight_checkin x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: CheckinDeleteByFlight :execrows
DELETE FROM flight_checkin WHERE flid = @flid;

-- name: CheckinDeleteByFlights :execrows
DELETE FROM flight_checkin WHERE flid = ANY(@flids::bigint[]);

-- name: CheckinInsert :copyfrom
INSERT INTO flight_checkin (flid, ordinal, source_seq, chkc, ccls, pcot, pcot_at, pcct, pcct_at, cotm, cotm_at, cctm, cctm_at, ctyp, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @source_seq, @chkc, @ccls, @pcot, @pcot_at, @pcct, @pcct_at, @cotm, @cotm_at, @cctm, @cctm_at, @ctyp, @record_version, @created_at, @updated_at);

-- name: BeltListByFlight :many
SELECT * FROM flight_belt WHERE flid = @flid ORDER BY ordinal;

-- name: BeltListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.source_seq, x.belt, x.bcls, x.pcot, x.pcot_at, x.pcct, x.pcct_at, x.fbag, x.lbag, x.btyp
  FROM flight_belt x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.source_seq, x.belt, x.bcls, x.pcot, x.pcot_at, x.pcct, x.pcct_at, x.fbag, x.lbag, x.btyp
  FROM flight_belt x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: BeltDeleteByFlight :execrows
DELETE FROM flight_belt WHERE flid = @flid;

-- name: BeltDeleteByFlights :execrows
DELETE FROM flight_belt WHERE flid = ANY(@flids::bigint[]);

-- name: BeltInsert :copyfrom
INSERT INTO flight_belt (flid, ordinal, source_seq, belt, bcls, pcot, pcot_at, pcct, pcct_at, fbag, lbag, btyp, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @source_seq, @belt, @bcls, @pcot, @pcot_at, @pcct, @pcct_at, @fbag, @lbag, @btyp, @record_version, @created_at, @updated_at);

-- name: StandPlanListByFlight :many
SELECT * FROM flight_stand_plan WHERE flid = @flid ORDER BY ordinal;

-- name: StandPlanListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.source_seq, x.psst, x.stst, x.stst_at, x.stet, x.stet_at
  FROM flight_stand_plan x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.source_seq, x.psst, x.stst, x.stst_at, x.stet, x.stet_at
  FROM flight_stand_plan x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: StandPlanDeleteByFlight :execrows
DELETE FROM flight_stand_plan WHERE flid = @flid;

-- name: StandPlanDeleteByFlights :execrows
DELETE FROM flight_stand_plan WHERE flid = ANY(@flids::bigint[]);

-- name: StandPlanInsert :copyfrom
INSERT INTO flight_stand_plan (flid, ordinal, source_seq, psst, stst, stst_at, stet, stet_at, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @source_seq, @psst, @stst, @stst_at, @stet, @stet_at, @record_version, @created_at, @updated_at);

-- name: ChuteListByFlight :many
SELECT * FROM flight_chute WHERE flid = @flid ORDER BY ordinal;

-- name: ChuteListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.source_seq, x.chut, x.ccls, x.pcbt, x.pcbt_at, x.pcet, x.pcet_at, x.cbtm, x.cbtm_at, x.cetm, x.cetm_at, x.ctyp
  FROM flight_chute x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.source_seq, x.chut, x.ccls, x.pcbt, x.pcbt_at, x.pcet, x.pcet_at, x.cbtm, x.cbtm_at, x.cetm, x.cetm_at, x.ctyp
  FROM flight_chute x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: ChuteDeleteByFlight :execrows
DELETE FROM flight_chute WHERE flid = @flid;

-- name: ChuteDeleteByFlights :execrows
DELETE FROM flight_chute WHERE flid = ANY(@flids::bigint[]);

-- name: ChuteInsert :copyfrom
INSERT INTO flight_chute (flid, ordinal, source_seq, chut, ccls, pcbt, pcbt_at, pcet, pcet_at, cbtm, cbtm_at, cetm, cetm_at, ctyp, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @source_seq, @chut, @ccls, @pcbt, @pcbt_at, @pcet, @pcet_at, @cbtm, @cbtm_at, @cetm, @cetm_at, @ctyp, @record_version, @created_at, @updated_at);

-- name: DelayListByFlight :many
SELECT * FROM flight_delay WHERE flid = @flid ORDER BY ordinal;

-- name: DelayListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.code, x.strt, x.strt_at, x.dura, x.dura_minutes, x.reason
  FROM flight_delay x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.code, x.strt, x.strt_at, x.dura, x.dura_minutes, x.reason
  FROM flight_delay x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: DelayDeleteByFlight :execrows
DELETE FROM flight_delay WHERE flid = @flid;

-- name: DelayDeleteByFlights :execrows
DELETE FROM flight_delay WHERE flid = ANY(@flids::bigint[]);

-- name: DelayInsert :copyfrom
INSERT INTO flight_delay (flid, ordinal, code, strt, strt_at, dura, dura_minutes, reason, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @code, @strt, @strt_at, @dura, @dura_minutes, @reason, @record_version, @created_at, @updated_at);

-- name: BridgeOpListByFlight :many
SELECT * FROM flight_bridge_op WHERE flid = @flid ORDER BY ordinal;

-- name: BridgeOpListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.source_seq, x.abdg, x.abop, x.aotm, x.aotm_at
  FROM flight_bridge_op x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.source_seq, x.abdg, x.abop, x.aotm, x.aotm_at
  FROM flight_bridge_op x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: BridgeOpDeleteByFlight :execrows
DELETE FROM flight_bridge_op WHERE flid = @flid;

-- name: BridgeOpDeleteByFlights :execrows
DELETE FROM flight_bridge_op WHERE flid = ANY(@flids::bigint[]);

-- name: BridgeOpInsert :copyfrom
INSERT INTO flight_bridge_op (flid, ordinal, source_seq, abdg, abop, aotm, aotm_at, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @source_seq, @abdg, @abop, @aotm, @aotm_at, @record_version, @created_at, @updated_at);

-- name: ChockOpListByFlight :many
SELECT * FROM flight_chock_op WHERE flid = @flid ORDER BY ordinal;

-- name: ChockOpListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.ordinal, x.source_seq, x.chtm, x.chtm_at, x.chid, x.chst
  FROM flight_chock_op x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.ordinal, x.source_seq, x.chtm, x.chtm_at, x.chid, x.chst
  FROM flight_chock_op x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: ChockOpDeleteByFlight :execrows
DELETE FROM flight_chock_op WHERE flid = @flid;

-- name: ChockOpDeleteByFlights :execrows
DELETE FROM flight_chock_op WHERE flid = ANY(@flids::bigint[]);

-- name: ChockOpInsert :copyfrom
INSERT INTO flight_chock_op (flid, ordinal, source_seq, chtm, chtm_at, chid, chst, record_version, created_at, updated_at)
VALUES (@flid, @ordinal, @source_seq, @chtm, @chtm_at, @chid, @chst, @record_version, @created_at, @updated_at);

-- name: RoutePointListByFlight :many
SELECT * FROM flight_route_point WHERE flid = @flid ORDER BY route_kind, ordinal;

-- name: RoutePointListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.route_kind, x.ordinal, x.source_seq, x.apcd, x.scat, x.scat_at, x.sadc, x.sadc_days, x.scdt, x.scdt_at, x.sddc, x.sddc_days
  FROM flight_route_point x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.route_kind, x.ordinal, x.source_seq, x.apcd, x.scat, x.scat_at, x.sadc, x.sadc_days, x.scdt, x.scdt_at, x.sddc, x.sddc_days
  FROM flight_route_point x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: RoutePointDeleteByFlightKind :execrows
-- ROUT and ERUT are replaced independently.
DELETE FROM flight_route_point WHERE flid = @flid AND route_kind = @route_kind;

-- name: RoutePointDeleteByFlightsKind :execrows
DELETE FROM flight_route_point WHERE flid = ANY(@flids::bigint[]) AND route_kind = @route_kind;

-- name: RoutePointInsert :copyfrom
INSERT INTO flight_route_point (flid, route_kind, ordinal, source_seq, apcd, scat, scat_at, sadc, sadc_days, scdt, scdt_at, sddc, sddc_days, record_version, created_at, updated_at)
VALUES (@flid, @route_kind, @ordinal, @source_seq, @apcd, @scat, @scat_at, @sadc, @sadc_days, @scdt, @scdt_at, @sddc, @sddc_days, @record_version, @created_at, @updated_at);

-- name: PayloadListByFlight :many
SELECT * FROM flight_payload WHERE flid = @flid ORDER BY kind;

-- name: PayloadListByFlights :many
SELECT d.* FROM unnest(@flids::bigint[]) AS f(flid)
CROSS JOIN LATERAL (SELECT x.flid, x.kind, x.format, x.content
  FROM flight_payload x WHERE x.flid = f.flid OFFSET 0) d
UNION ALL
SELECT x.flid, x.kind, x.format, x.content
  FROM flight_payload x WHERE x.flid BETWEEN @span_first::bigint AND @span_last::bigint;

-- name: PayloadUpsert :batchexec
INSERT INTO flight_payload (flid, kind, format, content, record_version, created_at, updated_at)
VALUES (@flid, @kind, @format, @content, @record_version, @now, @now)
ON CONFLICT (flid, kind) DO UPDATE SET
  format = EXCLUDED.format,
  content = EXCLUDED.content,
  record_version = EXCLUDED.record_version,
  updated_at = EXCLUDED.updated_at;

-- name: PayloadDeleteByFlightsKind :execrows
-- Payload collections of one kind replaced (or replaced with an empty list).
DELETE FROM flight_payload WHERE flid = ANY(@flids::bigint[]) AND kind = @kind;
