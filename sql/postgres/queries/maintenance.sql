-- Maintenance jobs (internal/maintenance, docs/design.md §8). Every statement
-- is bounded by @max_rows; the purges and the archive return how many rows
-- they touched and the oldest and newest of the job's age column, and with
-- @dry_run only count what they would touch.

-- name: FlightListPurgeCandidates :many
-- Flights the history sweep moves, all of an operation day before
-- @day_before: DELETED ones deleted before @deleted_before, and ACTIVE ones
-- that have not changed since @quiet_before; DELETED first, then by
-- operation day (both read by their own index). A flight deleted today stays
-- (docs/design.md §8: retention applies to DELETED flights too).
SELECT * FROM (
  (SELECT * FROM flight_schd d
   WHERE d.lifecycle = 'DELETED' AND d.deleted_at < @deleted_before::timestamptz
     AND d.operation_day < @day_before::date
   ORDER BY d.deleted_at, d.flid
   LIMIT @max_rows)
  UNION ALL
  (SELECT * FROM flight_schd a
   WHERE a.lifecycle = 'ACTIVE' AND a.operation_day < @day_before::date
     AND a.updated_at < @quiet_before::timestamptz
   ORDER BY a.operation_day, a.flid
   LIMIT @max_rows)
) c
LIMIT @max_rows;

-- name: FlightPurgePreview :one
-- What FlightListPurgeCandidates would return over up to @max_rows flights:
-- how many, and the oldest and newest operation day.
SELECT count(*) AS affected, min(c.operation_day) AS oldest, max(c.operation_day) AS newest
FROM (
  (SELECT d.operation_day FROM flight_schd d
   WHERE d.lifecycle = 'DELETED' AND d.deleted_at < @deleted_before::timestamptz
     AND d.operation_day < @day_before::date
   LIMIT @max_rows)
  UNION ALL
  (SELECT a.operation_day FROM flight_schd a
   WHERE a.lifecycle = 'ACTIVE' AND a.operation_day < @day_before::date
     AND a.updated_at < @quiet_before::timestamptz
   LIMIT @max_rows)
  LIMIT @max_rows
) c;

-- name: FlightHstInsert :copyfrom
-- The last state of purged flights, written before their live rows go.
INSERT INTO flight_hst (flid, operation_day, lifecycle, state_version, last_message_id, state, flight_created_at, purged_at)
VALUES (@flid, @operation_day, @lifecycle, @state_version, @last_message_id, @state, @flight_created_at, @purged_at);

-- name: FlightHstLatest :one
-- The last purged state of a flight (a FLID purged, created again and purged
-- again has several).
SELECT * FROM flight_hst WHERE flid = @flid ORDER BY purged_at DESC, hst_id DESC LIMIT 1;

-- name: FlightDeleteMany :execrows
-- Physical delete of up to @max_rows flights (the first of @flids) with
-- their detail rows and snapshot memberships (those tables have no foreign
-- key, 020_flight.sql, 030_snapshot.sql); payloads cascade. Counts flight
-- rows. = ANY reads each detail table by its primary key's FLID prefix, the
-- memberships by schd_gen_flid_flid_ix.
WITH gate AS (DELETE FROM flight_gate d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  checkin AS (DELETE FROM flight_checkin d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  belt AS (DELETE FROM flight_belt d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  stand_plan AS (DELETE FROM flight_stand_plan d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  chute AS (DELETE FROM flight_chute d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  delay AS (DELETE FROM flight_delay d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  bridge_op AS (DELETE FROM flight_bridge_op d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  chock_op AS (DELETE FROM flight_chock_op d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  route_point AS (DELETE FROM flight_route_point d WHERE d.flid = ANY((@flids::bigint[])[1:@max_rows::int])),
  member AS (DELETE FROM schd_gen_flid m WHERE m.flid = ANY((@flids::bigint[])[1:@max_rows::int]))
DELETE FROM flight_schd s WHERE s.flid = ANY((@flids::bigint[])[1:@max_rows::int]);

-- name: EventPurgeDelivered :one
-- Outbox retention: delivered events created before @created_before, oldest
-- first. Delivered: KAFKA:schd SENT (rows of earlier releases); KAFKA:msg
-- at or below the watermark and not DEAD. DEAD rows are the dead letters and
-- stay. A KAFKA:msg row stays while a schd mark names it or its KAFKA:schd
-- twin row is not SENT: they read their payload from it (040_outbox.sql). Oldest first by msg_event_created_ix: a batch reads the
-- rows past the retention, not the outbox (by EVENT_ID, the last, short
-- batch of a run read every younger row too; issue #35).
WITH cur AS (
  SELECT COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0) AS through
), doomed AS (
  SELECT e.event_id, e.created_at FROM msg_event e CROSS JOIN cur
  WHERE e.created_at < @created_before::timestamptz
    AND ((e.target = 'KAFKA:schd' AND e.status = 'SENT')
      OR (e.target = 'KAFKA:msg' AND e.status IS NULL AND e.event_id <= cur.through
        AND NOT EXISTS (SELECT 1 FROM msg_event t
          WHERE t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:schd'
            AND t.status <> 'SENT')
        AND NOT EXISTS (SELECT 1 FROM schd_mark m
          WHERE m.flid = e.flid AND m.state_version = e.state_version AND m.cminmsgs_id = e.cminmsgs_id)))
  ORDER BY e.created_at, e.event_id
  LIMIT @max_rows
), gone AS (
  DELETE FROM msg_event e USING doomed d
  WHERE e.event_id = d.event_id AND NOT @dry_run::boolean
  RETURNING e.event_id
)
SELECT count(*) AS affected, min(d.created_at) AS oldest, max(d.created_at) AS newest,
  (SELECT count(*) FROM gone) AS deleted
FROM doomed d;

-- name: MaintenanceRunSave :exec
-- Records a run; LAST_OK_AT moves only with a run that succeeded.
INSERT INTO maintenance_run AS r (job, started_at, duration_ms, affected, oldest, newest, last_error, last_ok_at)
VALUES (@job, @started_at, @duration_ms, @affected, @oldest, @newest, @last_error,
  CASE WHEN @last_error::varchar IS NULL THEN @started_at::timestamptz END)
ON CONFLICT (job) DO UPDATE SET
  started_at = EXCLUDED.started_at, duration_ms = EXCLUDED.duration_ms, affected = EXCLUDED.affected,
  oldest = EXCLUDED.oldest, newest = EXCLUDED.newest, last_error = EXCLUDED.last_error,
  last_ok_at = COALESCE(EXCLUDED.last_ok_at, r.last_ok_at);

-- name: MaintenanceRunList :many
SELECT * FROM maintenance_run ORDER BY job;
