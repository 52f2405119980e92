-- Maintenance jobs: the last run of each (twin of sql/postgres/schema/060_maintenance.sql).

CREATE TABLE MAINTENANCE_RUN (
  JOB          VARCHAR2(16 CHAR)            NOT NULL,
  STARTED_AT   TIMESTAMP(6) WITH TIME ZONE  NOT NULL,
  DURATION_MS  NUMBER(19)                   NOT NULL,
  AFFECTED     NUMBER(19)                   NOT NULL,
  OLDEST       TIMESTAMP(6) WITH TIME ZONE  NULL,
  NEWEST       TIMESTAMP(6) WITH TIME ZONE  NULL,
  LAST_ERROR   VARCHAR2(1000 CHAR)          NULL,
  LAST_OK_AT   TIMESTAMP(6) WITH TIME ZONE  NULL,
  CONSTRAINT MAINTENANCE_RUN_PKEY PRIMARY KEY (JOB),
  CONSTRAINT MAINTENANCE_RUN_COUNTS_CK CHECK (DURATION_MS >= 0 AND AFFECTED >= 0)
);
COMMENT ON TABLE MAINTENANCE_RUN IS 'Last run of each maintenance job (history, snaplog, archive, outbox, ...), one row per job, replaced by every run that is not a dry run.';
COMMENT ON COLUMN MAINTENANCE_RUN.JOB IS 'Job name as `msgx maintenance run` spells it.';
COMMENT ON COLUMN MAINTENANCE_RUN.STARTED_AT IS 'When the last run started.';
COMMENT ON COLUMN MAINTENANCE_RUN.DURATION_MS IS 'How long the last run took.';
COMMENT ON COLUMN MAINTENANCE_RUN.AFFECTED IS 'Rows the last run moved or deleted.';
COMMENT ON COLUMN MAINTENANCE_RUN.OLDEST IS 'Oldest time among the affected rows, NULL when none.';
COMMENT ON COLUMN MAINTENANCE_RUN.NEWEST IS 'Newest time among the affected rows, NULL when none.';
COMMENT ON COLUMN MAINTENANCE_RUN.LAST_ERROR IS 'Why the last run failed; NULL when it succeeded.';
COMMENT ON COLUMN MAINTENANCE_RUN.LAST_OK_AT IS 'Start of the last run that succeeded: a daily job is due again once its time of day passes after it.';
