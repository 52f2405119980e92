-- Modify "schd_mark" table
ALTER TABLE "schd_mark" ALTER COLUMN "event_id" DROP NOT NULL;
-- Set comment to column: "event_id" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."event_id" IS 'Unused, NULL: the mark names its change by CMINMSGS_ID and STATE_VERSION; the record''s event-id header is the EVENT_ID of that change''s KAFKA:msg event (its twin), read when the mark is sent.';
-- Set comment to column: "cminmsgs_id" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."cminmsgs_id" IS 'Mailbox id of the message of the latest change; with STATE_VERSION what the relay compares before it deletes the mark.';
