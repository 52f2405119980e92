-- Set comment to table: "backfill_todo"
COMMENT ON TABLE "backfill_todo" IS 'Mailbox backfills still to do that the backfill mark does not cover: a replay''s and a late row''s (registered in the same transaction as the terminal status) and a failed one''s (with its backoff); deleted once cminmsgs is written. Self-contained, so the sweep needs no other table.';
-- Create "backfill_mark" table
CREATE TABLE "backfill_mark" (
  "id" smallint NOT NULL,
  "through_msg_id" bigint NOT NULL,
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("id"),
  CONSTRAINT "backfill_mark_single_ck" CHECK (id = 1),
  CONSTRAINT "backfill_mark_through_ck" CHECK (through_msg_id >= 0)
);
-- Set comment to table: "backfill_mark"
COMMENT ON TABLE "backfill_mark" IS 'The backfill watermark, a single row (id = 1; none reads as 0): every message with MSG_ID <= THROUGH_MSG_ID that reached a terminal status has been backfilled or has a BACKFILL_TODO row. The terminal PROC_STATE row above it is its own registration: the business transaction writes a todo only below the mark (a late row) or for a replay (docs/design.md §1.4).';
-- Set comment to column: "through_msg_id" on table: "backfill_mark"
COMMENT ON COLUMN "backfill_mark"."through_msg_id" IS 'Moved forward only by the backfiller, under the PIPELINE_LOCK, once every PROC_STATE row between the old and the new value is backfilled or has a todo.';
-- Set comment to column: "updated_at" on table: "backfill_mark"
COMMENT ON COLUMN "backfill_mark"."updated_at" IS 'When the mark last moved.';
-- Start the mark at the newest terminal message: every terminal message at
-- or below it was registered with a todo by the release before (a message
-- whose todo is gone was backfilled), and one that finishes later at or
-- below it registers a todo, as a late row does.
INSERT INTO "backfill_mark" ("id", "through_msg_id", "updated_at")
SELECT 1, COALESCE(max("msg_id"), 0), now() FROM "proc_state" WHERE "status" IN ('SUCCEEDED', 'SKIPPED', 'DEAD');
