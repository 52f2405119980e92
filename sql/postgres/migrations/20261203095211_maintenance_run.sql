-- Create "maintenance_run" table
CREATE TABLE "maintenance_run" (
  "job" character varying(16) NOT NULL,
  "started_at" timestamptz NOT NULL,
  "duration_ms" bigint NOT NULL,
  "affected" bigint NOT NULL,
  "oldest" timestamptz NULL,
  "newest" timestamptz NULL,
  "last_error" character varying(1000) NULL,
  "last_ok_at" timestamptz NULL,
  PRIMARY KEY ("job"),
  CONSTRAINT "maintenance_run_counts_ck" CHECK ((duration_ms >= 0) AND (affected >= 0))
);
-- Set comment to table: "maintenance_run"
COMMENT ON TABLE "maintenance_run" IS 'Last run of each maintenance job (history, snaplog, archive, outbox, ...), one row per job, replaced by every run that is not a dry run.';
-- Set comment to column: "job" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."job" IS 'Job name as `msgx maintenance run` spells it.';
-- Set comment to column: "started_at" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."started_at" IS 'When the last run started.';
-- Set comment to column: "duration_ms" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."duration_ms" IS 'How long the last run took.';
-- Set comment to column: "affected" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."affected" IS 'Rows the last run moved or deleted (flights for history, messages for archive, events for outbox, log rows for snaplog).';
-- Set comment to column: "oldest" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."oldest" IS 'Oldest time among the affected rows (the job''s age column), NULL when none.';
-- Set comment to column: "newest" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."newest" IS 'Newest time among the affected rows, NULL when none.';
-- Set comment to column: "last_error" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."last_error" IS 'Why the last run failed; NULL when it succeeded. Rows it committed before failing are counted in AFFECTED.';
-- Set comment to column: "last_ok_at" on table: "maintenance_run"
COMMENT ON COLUMN "maintenance_run"."last_ok_at" IS 'Start of the last run that succeeded: a daily job is due again once its time of day passes after it.';
