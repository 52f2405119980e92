-- name: GateUsageByDay :many
-- Per gate: how many flights of the day it serves, and which (FLIDs in order).
SELECT g.gate::text AS gate,
       COUNT(DISTINCT g.flid) AS flights,
       array_agg(DISTINCT g.flid ORDER BY g.flid)::bigint[] AS flids
FROM flight_gate g
JOIN flight_schd f ON f.flid = g.flid
WHERE f.operation_day = @operation_day AND f.lifecycle = 'ACTIVE' AND g.gate IS NOT NULL
GROUP BY g.gate
ORDER BY g.gate;

-- name: StandUsageByDay :many
-- Per planned stand (PSDT): the flights of the day planned on it.
SELECT s.psst::text AS stand,
       COUNT(DISTINCT s.flid) AS flights,
       array_agg(DISTINCT s.flid ORDER BY s.flid)::bigint[] AS flids
FROM flight_stand_plan s
JOIN flight_schd f ON f.flid = s.flid
WHERE f.operation_day = @operation_day AND f.lifecycle = 'ACTIVE' AND s.psst IS NOT NULL
GROUP BY s.psst
ORDER BY s.psst;

-- name: BeltUsageByDay :many
-- Per baggage belt: the flights of the day it serves.
SELECT b.belt::text AS belt,
       COUNT(DISTINCT b.flid) AS flights,
       array_agg(DISTINCT b.flid ORDER BY b.flid)::bigint[] AS flids
FROM flight_belt b
JOIN flight_schd f ON f.flid = b.flid
WHERE f.operation_day = @operation_day AND f.lifecycle = 'ACTIVE' AND b.belt IS NOT NULL
GROUP BY b.belt
ORDER BY b.belt;

-- name: DelaysByCode :many
-- Per delay code (NULL code included): delays, flights and parsed minutes.
SELECT d.code,
       COUNT(*) AS delays,
       COUNT(DISTINCT d.flid) AS flights,
       COALESCE(SUM(d.dura_minutes), 0)::bigint AS total_minutes
FROM flight_delay d
JOIN flight_schd f ON f.flid = d.flid
WHERE f.operation_day = @operation_day AND f.lifecycle = 'ACTIVE'
GROUP BY d.code
ORDER BY d.code NULLS LAST;
