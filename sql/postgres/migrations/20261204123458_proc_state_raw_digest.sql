-- Modify "proc_state" table
ALTER TABLE "proc_state" ADD COLUMN "raw_digest" bytea NULL;
-- Create index "proc_state_duplicate_ix" to table: "proc_state"
CREATE INDEX "proc_state_duplicate_ix" ON "proc_state" ("finished_at") WHERE (duplicate_of IS NOT NULL);
-- Set comment to column: "raw_digest" on table: "proc_state"
COMMENT ON COLUMN "proc_state"."raw_digest" IS 'SHA-256 of the raw mailbox message, first 16 bytes, bound with the identity (rule 2): a duplicate whose digest differs from its holder''s is SKIPPED duplicate-of:<id>:content-differs. NULL until bound, and on rows bound before digests were kept (unknown: a plain duplicate).';
-- Modify "proc_state_hst" table
ALTER TABLE "proc_state_hst" ADD COLUMN "raw_digest" bytea NULL;
-- Set comment to column: "raw_digest" on table: "proc_state_hst"
COMMENT ON COLUMN "proc_state_hst"."raw_digest" IS 'As proc_state.raw_digest.';
