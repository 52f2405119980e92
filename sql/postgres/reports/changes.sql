-- name: FlightChanges :many
-- Every change of a flight still in the outbox (KAFKA:msg: one event per
-- change, payload = full state after it), in order, with its delivery status
-- (msg_event's effective status rule, sql/postgres/schema/040_outbox.sql).
SELECT e.event_id,
       e.event_type,
       e.cminmsgs_id,
       e.state_version,
       e.created_at,
       e.payload,
       COALESCE(e.status, CASE WHEN e.event_id <= c.sent_through THEN 'SENT' ELSE 'PENDING' END)::text AS status
FROM msg_event e
LEFT JOIN msg_event_cursor c ON c.target = e.target
WHERE e.target = 'KAFKA:msg' AND e.flid = @flid
ORDER BY e.event_id;

-- name: LatestMsgEvents :many
-- Each given flight's latest KAFKA:msg event (what msgx last published about
-- it: msgx compare --payloads); a flight without one is absent. Read
-- through msg_event_flid_ix (flid, event_id).
SELECT DISTINCT ON (flid) flid, event_type, payload
FROM msg_event
WHERE target = 'KAFKA:msg' AND flid = ANY(@flids::bigint[])
ORDER BY flid, event_id DESC;
