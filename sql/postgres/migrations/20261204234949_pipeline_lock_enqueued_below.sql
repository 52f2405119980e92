-- Modify "pipeline_lock" table
ALTER TABLE "pipeline_lock" ADD COLUMN "enqueued_below" bigint NOT NULL DEFAULT 0;
-- Set comment to column: "enqueued_below" on table: "pipeline_lock"
COMMENT ON COLUMN "pipeline_lock"."enqueued_below" IS 'Counts the enqueues of an id below the largest known one (they hold the lock), in their transaction. The pump reads it with its run and compares it under the lock: a change means an id may have entered inside the run, which is then abandoned (docs/design.md §1.1).';
