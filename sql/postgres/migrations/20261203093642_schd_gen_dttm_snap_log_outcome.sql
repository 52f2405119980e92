-- Modify "schd_gen" table
ALTER TABLE "schd_gen" ADD COLUMN "msg_dttm_raw" character varying(32) NULL, ADD COLUMN "msg_dttm" timestamptz NULL;
-- Set comment to column: "msg_dttm_raw" on table: "schd_gen"
COMMENT ON COLUMN "schd_gen"."msg_dttm_raw" IS 'META DTTM of the snapshot that produced this generation, exactly as sent (yyyyMMddHHmmss, airport local time).';
-- Set comment to column: "msg_dttm" on table: "schd_gen"
COMMENT ON COLUMN "schd_gen"."msg_dttm" IS 'That DTTM parsed in the airport time zone: a snapshot sent before it leaves this day alone (STALE in schd_snap_log). NULL (a generation older than this column) lets any snapshot apply.';
-- Modify "schd_snap_log" table
ALTER TABLE "schd_snap_log" ADD CONSTRAINT "schd_snap_log_outcome_ck" CHECK ((((outcome)::text = 'APPLIED'::text) AND (stale_of IS NULL)) OR (((outcome)::text = 'STALE'::text) AND (stale_of IS NOT NULL))), ADD COLUMN "outcome" character varying(8) NOT NULL DEFAULT 'APPLIED', ADD COLUMN "msg_dttm" timestamptz NULL, ADD COLUMN "stale_of" bigint NULL;
-- Set comment to table: "schd_snap_log"
COMMENT ON TABLE "schd_snap_log" IS 'Audit of every snapshot, one row per message and flight day (applied, or left alone as stale); kept 90 days.';
-- Set comment to column: "gen_version" on table: "schd_snap_log"
COMMENT ON COLUMN "schd_snap_log"."gen_version" IS 'APPLIED: the generation this snapshot made. STALE: the newer generation the day kept.';
-- Set comment to column: "recv_at" on table: "schd_snap_log"
COMMENT ON COLUMN "schd_snap_log"."recv_at" IS 'When the snapshot was processed (retention key).';
-- Set comment to column: "outcome" on table: "schd_snap_log"
COMMENT ON COLUMN "schd_snap_log"."outcome" IS 'APPLIED: the day was upserted, pruned and advanced. STALE: the snapshot was sent (DTTM) before the day''s generation, so the day was left alone (no upsert, no prune, version unchanged; changed, unchanged and pruned 0).';
-- Set comment to column: "msg_dttm" on table: "schd_snap_log"
COMMENT ON COLUMN "schd_snap_log"."msg_dttm" IS 'META DTTM of the snapshot, parsed in the airport time zone.';
-- Set comment to column: "stale_of" on table: "schd_snap_log"
COMMENT ON COLUMN "schd_snap_log"."stale_of" IS 'STALE only: MSG_ID of the snapshot that made the newer generation the day kept.';
