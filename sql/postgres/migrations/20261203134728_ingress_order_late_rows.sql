-- Modify "proc_state" table
ALTER TABLE "proc_state" ADD COLUMN "late_after" bigint NULL;
-- Create index "proc_state_late_ix" to table: "proc_state"
CREATE INDEX "proc_state_late_ix" ON "proc_state" ("first_seen_at") WHERE (late_after IS NOT NULL);
-- Set comment to column: "late_after" on table: "proc_state"
COMMENT ON COLUMN "proc_state"."late_after" IS 'Late row (rule 17): the largest MSG_ID already finished when this row was enqueued, so its effect lands after that one''s (shown as late:<id>). NULL for a row enqueued in order.';
-- Modify "proc_state_hst" table
ALTER TABLE "proc_state_hst" ADD COLUMN "late_after" bigint NULL;
-- Set comment to column: "late_after" on table: "proc_state_hst"
COMMENT ON COLUMN "proc_state_hst"."late_after" IS 'As proc_state.late_after.';
-- Create "ingress_gap" table
CREATE TABLE "ingress_gap" (
  "source" character varying(32) NOT NULL,
  "from_id" bigint NOT NULL,
  "to_id" bigint NOT NULL,
  "seen_at" timestamptz NOT NULL,
  "given_up_at" timestamptz NOT NULL,
  PRIMARY KEY ("source", "from_id"),
  CONSTRAINT "ingress_gap_range_ck" CHECK ((from_id > 0) AND (to_id >= from_id))
);
-- Create index "ingress_gap_given_up_ix" to table: "ingress_gap"
CREATE INDEX "ingress_gap_given_up_ix" ON "ingress_gap" ("given_up_at");
-- Set comment to table: "ingress_gap"
COMMENT ON TABLE "ingress_gap" IS 'Holes the poller gave up (rule 16): ids no mailbox row had while a larger id was visible, for longer than pipeline.gap-wait; the ids after them were then enqueued. A row that commits later in a gap is found by the rescan or the reconciliation pass and processed as a late row.';
-- Set comment to column: "from_id" on table: "ingress_gap"
COMMENT ON COLUMN "ingress_gap"."from_id" IS 'First missing CMINMSGS_ID of the hole.';
-- Set comment to column: "to_id" on table: "ingress_gap"
COMMENT ON COLUMN "ingress_gap"."to_id" IS 'Last missing CMINMSGS_ID of the hole.';
-- Set comment to column: "seen_at" on table: "ingress_gap"
COMMENT ON COLUMN "ingress_gap"."seen_at" IS 'When the poller first saw the hole.';
-- Set comment to column: "given_up_at" on table: "ingress_gap"
COMMENT ON COLUMN "ingress_gap"."given_up_at" IS 'When the wait ran out and the hole was given up.';
