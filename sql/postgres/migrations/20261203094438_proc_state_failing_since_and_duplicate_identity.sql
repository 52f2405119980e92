-- Modify "proc_state" table
ALTER TABLE "proc_state" DROP CONSTRAINT "proc_state_identity_uq", ADD COLUMN "failing_since" timestamptz NULL;
-- Hand-written data step: a head already FAILED keeps the deadline it had
-- (measured from first_seen_at before this change).
UPDATE "proc_state" SET "failing_since" = "first_seen_at" WHERE "status" = 'FAILED';
-- Create index "proc_state_identity_uq" to table: "proc_state"
CREATE UNIQUE INDEX "proc_state_identity_uq" ON "proc_state" ("identity_key") WHERE (duplicate_of IS NULL);
-- Set comment to column: "identity_key" on table: "proc_state"
COMMENT ON COLUMN "proc_state"."identity_key" IS 'Business identity SNDR|TYPE|STYP|SEQN[|day], bound once after decode; unique among holders (duplicate_of NULL) so a message is processed once; a SKIPPED duplicate shows the identity it repeats. NULL until decoded.';
-- Set comment to column: "first_seen_at" on table: "proc_state"
COMMENT ON COLUMN "proc_state"."first_seen_at" IS 'When msgx first enqueued the row; never changes (latency and head age are measured from it).';
-- Set comment to column: "reason" on table: "proc_state"
COMMENT ON COLUMN "proc_state"."reason" IS 'Error reason, or the SKIPPED reason (duplicate-of:<id>, ignored:<TYPE>, no-match:flight, no-match:flight-deleted, stale-snapshot:<id>, no-match:request); docs/api.md lists them all.';
-- Set comment to column: "failing_since" on table: "proc_state"
COMMENT ON COLUMN "proc_state"."failing_since" IS 'When the current series of counted failures began (the first one since enqueue or the last replay); the head-deadline runs from it. NULL while nothing failed.';
-- Modify "proc_state_hst" table
ALTER TABLE "proc_state_hst" DROP CONSTRAINT "proc_state_hst_identity_uq";
-- Create index "proc_state_hst_identity_uq" to table: "proc_state_hst"
CREATE UNIQUE INDEX "proc_state_hst_identity_uq" ON "proc_state_hst" ("identity_key") WHERE (duplicate_of IS NULL);
-- Set comment to table: "proc_state_hst"
COMMENT ON TABLE "proc_state_hst" IS 'Archive of terminal PROC_STATE rows. Identity keys of holders stay unique here and are checked on bind, so an archived message still deduplicates.';
