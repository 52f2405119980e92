-- Maintenance jobs (internal/maintenance, docs/design.md §8): twins of
-- sql/postgres/queries/maintenance.sql. Every statement is bounded by
-- :max_rows. Oracle allows no DML in a WITH, so the purges are PL/SQL blocks:
-- the batch's ids (oldest first, ROWNUM-limited), its count and oldest/newest
-- into OUT binds, and, unless :dry_run is 1, the DELETE of those ids.

-- name: FlightListPurgeCandidates :many
-- All of an operation day before :day_before: DELETED flights deleted
-- before :deleted_before (FLIGHT_SCHD_DELETED_IX's expression), then ACTIVE
-- ones unchanged since :quiet_before (FLIGHT_SCHD_DAY_IX); each branch
-- limited on its own, as in PostgreSQL.
SELECT * FROM (
  SELECT * FROM (
    SELECT * FROM flight_schd d
    WHERE CASE WHEN d.lifecycle = 'DELETED' THEN SYS_EXTRACT_UTC(d.deleted_at) END < SYS_EXTRACT_UTC(:deleted_before)
      AND d.operation_day < TO_DATE(:day_before, 'YYYY-MM-DD')
    ORDER BY CASE WHEN d.lifecycle = 'DELETED' THEN SYS_EXTRACT_UTC(d.deleted_at) END, d.flid
  ) WHERE ROWNUM <= :max_rows
  UNION ALL
  SELECT * FROM (
    SELECT * FROM flight_schd a
    WHERE a.lifecycle = 'ACTIVE' AND a.operation_day < TO_DATE(:day_before, 'YYYY-MM-DD')
      AND a.updated_at < :quiet_before
    ORDER BY a.operation_day, a.flid
  ) WHERE ROWNUM <= :max_rows
) WHERE ROWNUM <= :max_rows

-- name: FlightPurgePreview :one
-- What FlightListPurgeCandidates would return over up to :max_rows flights:
-- how many, and the oldest and newest operation day.
SELECT COUNT(*) AS affected, MIN(c.operation_day) AS oldest, MAX(c.operation_day) AS newest
FROM (
  SELECT u.operation_day FROM (
    SELECT d.operation_day FROM flight_schd d
    WHERE CASE WHEN d.lifecycle = 'DELETED' THEN SYS_EXTRACT_UTC(d.deleted_at) END < SYS_EXTRACT_UTC(:deleted_before)
      AND d.operation_day < TO_DATE(:day_before, 'YYYY-MM-DD')
      AND ROWNUM <= :max_rows
    UNION ALL
    SELECT a.operation_day FROM flight_schd a
    WHERE a.lifecycle = 'ACTIVE' AND a.operation_day < TO_DATE(:day_before, 'YYYY-MM-DD')
      AND a.updated_at < :quiet_before
      AND ROWNUM <= :max_rows
  ) u
  WHERE ROWNUM <= :max_rows
) c

-- name: FlightHstInsert :copyfrom
-- The last state of a purged flight, written before its live rows go; the
-- adapter executes it once per flight (the state is a CLOB).
INSERT INTO flight_hst (hst_id, flid, operation_day, lifecycle, state_version, last_message_id, state, flight_created_at, purged_at)
VALUES (flight_hst_seq.NEXTVAL, :flid, TO_DATE(:operation_day, 'YYYY-MM-DD'), :lifecycle, :state_version, :last_message_id, :state, :flight_created_at, :purged_at)

-- name: FlightHstLatest :one
-- The last purged state of a flight (a FLID purged, created again and purged
-- again has several).
SELECT * FROM (
  SELECT * FROM flight_hst WHERE flid = :flid ORDER BY purged_at DESC, hst_id DESC
) WHERE ROWNUM <= 1

-- name: FlightDeleteMany :execrows
-- Physical delete of up to :max_rows flights (the first of :flids) with
-- their detail rows and snapshot memberships (no foreign key, 020_flight.sql,
-- 030_snapshot.sql); payloads cascade. :deleted is the flight row count.
DECLARE
  batch SYS.ODCINUMBERLIST;
BEGIN
  SELECT COLUMN_VALUE BULK COLLECT INTO batch FROM TABLE(:flids) WHERE ROWNUM <= :max_rows;
  DELETE FROM flight_gate WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_checkin WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_belt WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_stand_plan WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_chute WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_delay WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_bridge_op WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_chock_op WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_route_point WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM schd_gen_flid WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  DELETE FROM flight_schd WHERE flid IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  :deleted := SQL%ROWCOUNT;
END;

-- name: EventPurgeDelivered :one
-- Outbox retention: delivered events created before :created_before, oldest
-- first. Delivered: KAFKA:schd SENT (rows of earlier releases); KAFKA:msg
-- at or below the watermark and not DEAD. DEAD rows are the dead letters and
-- stay. A KAFKA:msg row stays while a schd mark names it or its KAFKA:schd
-- twin row is not SENT: they read their payload from it (040_outbox.sql). The DELETE repeats the status test on the rows it takes.
-- Oldest first by MSG_EVENT_CREATED_IX: a batch reads the rows past the
-- retention, not the outbox (issue #35).
DECLARE
  batch SYS.ODCINUMBERLIST;
  watermark NUMBER(19);
BEGIN
  SELECT NVL(MAX(c.sent_through), 0) INTO watermark FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg';
  SELECT event_id BULK COLLECT INTO batch FROM (
    SELECT e.event_id FROM msg_event e
    WHERE e.created_at < :created_before
      AND ((e.target = 'KAFKA:schd' AND e.status = 'SENT')
        OR (e.target = 'KAFKA:msg' AND e.status IS NULL AND e.event_id <= watermark
          AND NOT EXISTS (SELECT 1 FROM msg_event t
            WHERE t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:schd'
              AND t.status <> 'SENT')
          AND NOT EXISTS (SELECT 1 FROM schd_mark m
            WHERE m.flid = e.flid AND m.state_version = e.state_version AND m.cminmsgs_id = e.cminmsgs_id)))
    ORDER BY e.created_at, e.event_id
  ) WHERE ROWNUM <= :max_rows;
  SELECT COUNT(*), MIN(created_at), MAX(created_at) INTO :affected, :oldest, :newest
  FROM msg_event WHERE event_id IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  IF :dry_run = 0 THEN
    DELETE FROM msg_event e
    WHERE e.event_id IN (SELECT COLUMN_VALUE FROM TABLE(batch))
      AND ((e.target = 'KAFKA:schd' AND e.status = 'SENT') OR (e.target = 'KAFKA:msg' AND e.status IS NULL));
  END IF;
END;

-- name: MaintenanceRunSave :exec
-- Records a run; LAST_OK_AT moves only with a run that succeeded.
MERGE INTO maintenance_run r
USING (SELECT :job AS job FROM DUAL) n
ON (r.job = n.job)
WHEN MATCHED THEN UPDATE SET
  r.started_at = :started_at, r.duration_ms = :duration_ms, r.affected = :affected,
  r.oldest = :oldest, r.newest = :newest, r.last_error = :last_error,
  r.last_ok_at = CASE WHEN :last_error IS NULL THEN :started_at ELSE r.last_ok_at END
WHEN NOT MATCHED THEN INSERT (job, started_at, duration_ms, affected, oldest, newest, last_error, last_ok_at)
  VALUES (n.job, :started_at, :duration_ms, :affected, :oldest, :newest, :last_error,
    CASE WHEN :last_error IS NULL THEN :started_at END)

-- name: MaintenanceRunList :many
SELECT * FROM maintenance_run ORDER BY job
