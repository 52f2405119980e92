-- KAFKA:schd rows keep no payload of their own: it is their KAFKA:msg twin's
-- (hand-ordered: the data step runs between dropping and adding the CHECK).
ALTER TABLE "msg_event" DROP CONSTRAINT "msg_event_payload_ck";
-- Data: every KAFKA:schd row was written with its KAFKA:msg twin.
UPDATE "msg_event" SET "payload" = NULL WHERE "target" = 'KAFKA:schd' AND "payload" IS NOT NULL;
ALTER TABLE "msg_event" ADD CONSTRAINT "msg_event_payload_ck" CHECK (
  (target = 'KAFKA:msg' AND (event_type = 'TOMBSTONE' OR payload IS NOT NULL))
  OR (target = 'KAFKA:schd' AND payload IS NULL));
-- Set comment to column: "payload" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."payload" IS 'KAFKA:msg: JSON of the full next flight state (documented in docs/events.md); may be NULL for a TOMBSTONE. KAFKA:schd: always NULL, the payload is the KAFKA:msg twin''s (same cminmsgs_id, flid, state_version), stored once.';
