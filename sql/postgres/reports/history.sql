-- name: HistoryFlightsByDay :many
-- Flights the history sweep moved out of the live tables (FLIGHT_HST,
-- docs/reporting.md): one row per swept flight, its last state as the
-- documented event JSON (docs/events.md) with every detail list. One page
-- of an operation day in (FLID, HST_ID) order (keyset paging: pass the last
-- row's FLID and HST_ID, 0 and 0 to start); a FLID swept, created again and
-- swept again has a row per sweep.
SELECT * FROM flight_hst
WHERE operation_day = @operation_day AND (flid, hst_id) > (@after_flid::bigint, @after_hst_id::bigint)
ORDER BY flid, hst_id
LIMIT @page_size;

-- name: HistoryFlight :one
-- The last swept state of a flight, details included in State.
SELECT * FROM flight_hst WHERE flid = @flid ORDER BY purged_at DESC, hst_id DESC LIMIT 1;

-- name: HistoryFlightSweeps :many
-- Every swept state of a flight, oldest sweep first.
SELECT * FROM flight_hst WHERE flid = @flid ORDER BY purged_at, hst_id;

-- name: HistoryDays :many
-- Per operation day in [day_from, day_to]: how many flights were swept and
-- how many of them were DELETED, oldest day first.
SELECT operation_day, count(*) AS flights, count(*) FILTER (WHERE lifecycle = 'DELETED') AS deleted
FROM flight_hst
WHERE operation_day BETWEEN @day_from AND @day_to
GROUP BY operation_day
ORDER BY operation_day;
