-- Modify "msg_event" table (hand-ordered: the data step below must run
-- between relaxing STATUS and adding the CHECK; docs/schema.md step 3)
ALTER TABLE "msg_event" ALTER COLUMN "status" DROP NOT NULL, ALTER COLUMN "status" DROP DEFAULT;
-- Create "msg_event_cursor" table
CREATE TABLE "msg_event_cursor" (
  "target" character varying(16) NOT NULL,
  "sent_through" bigint NOT NULL,
  "sent_at" timestamptz NOT NULL,
  PRIMARY KEY ("target"),
  CONSTRAINT "msg_event_cursor_target_ck" CHECK ((target)::text = 'KAFKA:msg'::text),
  CONSTRAINT "msg_event_cursor_through_ck" CHECK (sent_through >= 0)
);
-- Data: KAFKA:msg delivery state moves from per-row STATUS to the watermark.
-- The old relay marked SENT only a contiguous prefix; should a PENDING event
-- lie below a SENT one, the watermark stops before it (events above are
-- resent with their idempotency keys: at-least-once).
INSERT INTO "msg_event_cursor" ("target", "sent_through", "sent_at")
SELECT 'KAFKA:msg', LEAST(max(e.event_id), COALESCE((SELECT min(p.event_id) - 1 FROM "msg_event" p
    WHERE p.target = 'KAFKA:msg' AND p.status = 'PENDING'), max(e.event_id))), COALESCE(max(e.sent_at), now())
FROM "msg_event" e WHERE e.target = 'KAFKA:msg' AND e.status = 'SENT'
HAVING count(*) > 0;
UPDATE "msg_event" SET "status" = NULL, "sent_at" = NULL
WHERE target = 'KAFKA:msg' AND status IN ('PENDING', 'SENT');
ALTER TABLE "msg_event" ADD CONSTRAINT "msg_event_status_target_ck" CHECK ((((target)::text = 'KAFKA:msg'::text) AND ((status IS NULL) OR ((status)::text = 'DEAD'::text))) OR (((target)::text = 'KAFKA:schd'::text) AND (status IS NOT NULL)));
-- Create index "msg_event_msg_head_ix" to table: "msg_event"
CREATE INDEX "msg_event_msg_head_ix" ON "msg_event" ("event_id") WHERE (((target)::text = 'KAFKA:msg'::text) AND (status IS NULL));
-- Set comment to table: "msg_event"
COMMENT ON TABLE "msg_event" IS 'Outbox of flight change events. KAFKA:msg is delivered one by one in EVENT_ID order, its progress kept in msg_event_cursor; KAFKA:schd is aggregated to the latest state per FLID, its progress kept per row in STATUS. DEAD rows are the dead-letter record.';
-- Set comment to column: "flid" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."flid" IS 'The flight (FLID) the event is about.';
-- Set comment to column: "status" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."status" IS 'KAFKA:schd: PENDING, SENT (broker acknowledged) or DEAD (attempts exhausted; kept as the DLQ record). KAFKA:msg: NULL (delivery state by the watermark: SENT when EVENT_ID <= msg_event_cursor.sent_through, else PENDING) or DEAD (kept as the DLQ record).';
-- Set comment to column: "attempts" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."attempts" IS 'Failed deliveries so far (kept after a later success, as history).';
-- Set comment to column: "last_error" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."last_error" IS 'Reason of the last failed delivery; for a DEAD row the dead-letter reason. KAFKA:schd clears it when SENT; KAFKA:msg keeps it as history.';
-- Set comment to column: "created_at" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."created_at" IS 'When the event was written (in the business transaction); outbox lag is measured from it.';
-- Set comment to column: "sent_at" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."sent_at" IS 'KAFKA:schd: when the row was marked SENT. Always NULL for KAFKA:msg (see msg_event_cursor.sent_at).';
-- Set comment to table: "msg_event_cursor"
COMMENT ON TABLE "msg_event_cursor" IS 'Delivery watermark of KAFKA:msg: every event of the target with EVENT_ID <= SENT_THROUGH was acknowledged by the broker (SENT) or is DEAD; the events above it (STATUS NULL) are PENDING. No row: nothing delivered yet.';
-- Set comment to column: "target" on table: "msg_event_cursor"
COMMENT ON COLUMN "msg_event_cursor"."target" IS 'The outbox target (KAFKA:msg only; KAFKA:schd keeps its state per row).';
-- Set comment to column: "sent_through" on table: "msg_event_cursor"
COMMENT ON COLUMN "msg_event_cursor"."sent_through" IS 'EVENT_ID of the last event of the acknowledged contiguous prefix; only moves forward.';
-- Set comment to column: "sent_at" on table: "msg_event_cursor"
COMMENT ON COLUMN "msg_event_cursor"."sent_at" IS 'When the watermark last moved (the delivery time of the events it then covered).';
