-- Modify "req_track" table
ALTER TABLE "req_track" ADD CONSTRAINT "req_track_origin_ck" CHECK ((origin)::text = ANY (ARRAY[('operator'::character varying)::text, ('on-start'::character varying)::text, ('daily'::character varying)::text])), ADD COLUMN "origin" character varying(12) NOT NULL DEFAULT 'operator';
-- Set comment to column: "origin" on table: "req_track"
COMMENT ON COLUMN "req_track"."origin" IS 'Who registered the request: operator (CLI, admin API) or an automatic trigger (on-start, daily), which never supersedes an open request.';
