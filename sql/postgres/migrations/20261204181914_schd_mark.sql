-- Set comment to table: "msg_event"
COMMENT ON TABLE "msg_event" IS 'Outbox of flight change events. KAFKA:msg is delivered one by one in EVENT_ID order, its progress kept in msg_event_cursor; KAFKA:schd is the latest state per FLID, pending as one mark per flight (schd_mark); its rows here are dead letters (and SENT rows of earlier releases). DEAD rows are the dead-letter record.';
-- Set comment to column: "status" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."status" IS 'KAFKA:schd: DEAD (a mark whose attempts were exhausted; kept as the DLQ record), or SENT/PENDING from an earlier release. KAFKA:msg: NULL (delivery state by the watermark: SENT when EVENT_ID <= msg_event_cursor.sent_through, else PENDING) or DEAD (kept as the DLQ record).';
-- Set comment to column: "last_error" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."last_error" IS 'Reason of the last failed delivery; for a DEAD row the dead-letter reason. KAFKA:msg keeps it as history.';
-- Set comment to column: "sent_at" on table: "msg_event"
COMMENT ON COLUMN "msg_event"."sent_at" IS 'KAFKA:schd rows of earlier releases: when the row was marked SENT. Always NULL for KAFKA:msg (see msg_event_cursor.sent_at).';
-- Set comment to column: "target" on table: "msg_event_cursor"
COMMENT ON COLUMN "msg_event_cursor"."target" IS 'The outbox target (KAFKA:msg only; KAFKA:schd keeps its state in schd_mark).';
-- Create "schd_mark" table
CREATE TABLE "schd_mark" (
  "flid" bigint NOT NULL,
  "event_id" bigint NOT NULL,
  "cminmsgs_id" bigint NOT NULL,
  "state_version" bigint NOT NULL,
  "event_type" character varying(16) NOT NULL,
  "attempts" integer NOT NULL DEFAULT 0,
  "next_attempt_at" timestamptz NULL,
  "last_error" character varying(1000) NULL,
  "created_at" timestamptz NOT NULL,
  "pending_since" timestamptz NOT NULL,
  PRIMARY KEY ("flid"),
  CONSTRAINT "schd_mark_attempts_ck" CHECK (attempts >= 0),
  CONSTRAINT "schd_mark_type_ck" CHECK ((event_type)::text = ANY (ARRAY[('UPSERT'::character varying)::text, ('TOMBSTONE'::character varying)::text]))
);
-- Set comment to table: "schd_mark"
COMMENT ON TABLE "schd_mark" IS 'KAFKA:schd: per flight its latest change not yet delivered to the schd topic (rule 8). Deleted when delivered; moved to msg_event as a DEAD KAFKA:schd row when its attempts are exhausted.';
-- Set comment to column: "flid" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."flid" IS 'The flight; its Kafka record key as text.';
-- Set comment to column: "event_id" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."event_id" IS 'EVENT_ID of the KAFKA:msg event of the latest change (its twin): the record''s event-id header, and what the relay compares before it deletes the mark.';
-- Set comment to column: "cminmsgs_id" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."cminmsgs_id" IS 'Mailbox id of the message of the latest change.';
-- Set comment to column: "state_version" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."state_version" IS 'Flight STATE_VERSION after the latest change.';
-- Set comment to column: "event_type" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."event_type" IS 'UPSERT (the value is the KAFKA:msg twin''s payload) or TOMBSTONE (a null value).';
-- Set comment to column: "attempts" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."attempts" IS 'Failed deliveries of this change; a newer change starts again at 0.';
-- Set comment to column: "next_attempt_at" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."next_attempt_at" IS 'Backoff: the flight waits until then.';
-- Set comment to column: "last_error" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."last_error" IS 'Reason of the last failed delivery.';
-- Set comment to column: "created_at" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."created_at" IS 'When the latest change was written.';
-- Set comment to column: "pending_since" on table: "schd_mark"
COMMENT ON COLUMN "schd_mark"."pending_since" IS 'When the oldest change not yet delivered was written (outbox lag).';
-- Storage parameters, which atlas does not plan
ALTER TABLE "schd_mark" SET (fillfactor = 50);
-- Data: the PENDING KAFKA:schd rows (one per change) become marks, per flight
-- the latest (it stands for the older ones, which go, as a delivery of the
-- latest marked them SENT before). SENT and DEAD rows stay as they are: the
-- flight history and the dead letters read them. The relay adopts rows an
-- older binary writes after this (rolling upgrade) the same way.
WITH "legacy" AS (
  DELETE FROM "msg_event" e WHERE e.target = 'KAFKA:schd' AND e.status = 'PENDING'
  RETURNING e.*
), "latest" AS (
  SELECT DISTINCT ON (l.flid) l.*, min(l.created_at) OVER (PARTITION BY l.flid) AS pending_since
  FROM "legacy" l
  ORDER BY l.flid, l.state_version DESC, l.event_id DESC
)
INSERT INTO "schd_mark" (flid, event_id, cminmsgs_id, state_version, event_type, attempts,
  next_attempt_at, last_error, created_at, pending_since)
SELECT l.flid, l.event_id, l.cminmsgs_id, l.state_version, l.event_type, l.attempts,
  l.next_attempt_at, l.last_error, l.created_at, l.pending_since
FROM "latest" l;
