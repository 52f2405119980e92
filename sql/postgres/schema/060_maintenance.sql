-- Maintenance jobs (docs/cli.md `msgx maintenance`): the last run of each,
-- written by whichever instance ran it, so `msgx status` on any host shows it
-- and a new leader knows whether today's daily run is done.

CREATE TABLE maintenance_run (
  job          VARCHAR(16)    NOT NULL,
  started_at   TIMESTAMPTZ    NOT NULL,
  duration_ms  BIGINT         NOT NULL,
  affected     BIGINT         NOT NULL,
  oldest       TIMESTAMPTZ    NULL,
  newest       TIMESTAMPTZ    NULL,
  last_error   VARCHAR(1000)  NULL,
  last_ok_at   TIMESTAMPTZ    NULL,
  CONSTRAINT maintenance_run_pkey PRIMARY KEY (job),
  CONSTRAINT maintenance_run_counts_ck CHECK (duration_ms >= 0 AND affected >= 0)
);
COMMENT ON TABLE maintenance_run IS 'Last run of each maintenance job (history, snaplog, archive, outbox, ...), one row per job, replaced by every run that is not a dry run.';
COMMENT ON COLUMN maintenance_run.job IS 'Job name as `msgx maintenance run` spells it.';
COMMENT ON COLUMN maintenance_run.started_at IS 'When the last run started.';
COMMENT ON COLUMN maintenance_run.duration_ms IS 'How long the last run took.';
COMMENT ON COLUMN maintenance_run.affected IS 'Rows the last run moved or deleted (flights for history, messages for archive, events for outbox, log rows for snaplog).';
COMMENT ON COLUMN maintenance_run.oldest IS 'Oldest time among the affected rows (the job''s age column), NULL when none.';
COMMENT ON COLUMN maintenance_run.newest IS 'Newest time among the affected rows, NULL when none.';
COMMENT ON COLUMN maintenance_run.last_error IS 'Why the last run failed; NULL when it succeeded. Rows it committed before failing are counted in AFFECTED.';
COMMENT ON COLUMN maintenance_run.last_ok_at IS 'Start of the last run that succeeded: a daily job is due again once its time of day passes after it.';
