-- name: FlightsByDay :many
-- One page of the flights of an operation day in FLID order (keyset paging:
-- pass the last FLID seen as after_flid, 0 to start). DELETED flights are
-- included; filter on lifecycle.
SELECT * FROM flight_schd
WHERE operation_day = @operation_day AND flid > @after_flid
ORDER BY flid
LIMIT @page_size;

-- name: FlightsInWindow :many
-- One page of the flights whose SODT falls in [sodt_from, sodt_to), in FLID
-- order (keyset paging as FlightsByDay).
SELECT * FROM flight_schd
WHERE sodt_at >= @sodt_from AND sodt_at < @sodt_to AND flid > @after_flid
ORDER BY flid
LIMIT @page_size;

-- name: FlightIDs :many
-- One page of FLIDs in order, of one operation day or (day NULL) of all.
SELECT flid FROM flight_schd
WHERE (sqlc.narg(operation_day)::date IS NULL OR operation_day = sqlc.narg(operation_day)::date)
  AND flid > @after_flid
ORDER BY flid
LIMIT @page_size;

-- name: Flight :one
-- One flight's row; with the detail queries below, the flight with every detail.
SELECT * FROM flight_schd WHERE flid = @flid;

-- name: FlightGates :many
SELECT * FROM flight_gate WHERE flid = @flid ORDER BY ordinal;

-- name: FlightCheckins :many
SELECT * FROM flight_checkin WHERE flid = @flid ORDER BY ordinal;

-- name: FlightBelts :many
SELECT * FROM flight_belt WHERE flid = @flid ORDER BY ordinal;

-- name: FlightStandPlans :many
SELECT * FROM flight_stand_plan WHERE flid = @flid ORDER BY ordinal;

-- name: FlightChutes :many
SELECT * FROM flight_chute WHERE flid = @flid ORDER BY ordinal;

-- name: FlightDelays :many
SELECT * FROM flight_delay WHERE flid = @flid ORDER BY ordinal;

-- name: FlightBridgeOps :many
SELECT * FROM flight_bridge_op WHERE flid = @flid ORDER BY ordinal;

-- name: FlightChockOps :many
SELECT * FROM flight_chock_op WHERE flid = @flid ORDER BY ordinal;

-- name: FlightRoutePoints :many
-- ROUT then ERUT, each in its input order.
SELECT * FROM flight_route_point WHERE flid = @flid ORDER BY route_kind DESC, ordinal;

-- name: FlightPayloads :many
SELECT * FROM flight_payload WHERE flid = @flid ORDER BY kind;
