-- name: FlightReportsByDay :many
-- flight_report rows of an operation day, one page in FLID order.
SELECT * FROM flight_report
WHERE operation_day = @operation_day AND flid > @after_flid
ORDER BY flid
LIMIT @page_size;

-- name: FlightReport :one
SELECT * FROM flight_report WHERE flid = @flid;
