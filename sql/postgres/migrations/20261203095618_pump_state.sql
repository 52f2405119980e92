-- Create "pump_state" table
CREATE TABLE "pump_state" (
  "id" smallint NOT NULL,
  "paused_dependency" character varying(16) NULL,
  "paused_reason" character varying(1000) NULL,
  "paused_since" timestamptz NULL,
  "updated_at" timestamptz NOT NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "pump_state_dependency_ck" CHECK ((paused_dependency)::text = ANY (ARRAY[('postgres'::character varying)::text, ('mailbox'::character varying)::text])),
  CONSTRAINT "pump_state_paused_ck" CHECK ((paused_dependency IS NULL) = (paused_since IS NULL)),
  CONSTRAINT "pump_state_single_ck" CHECK (id = 1)
);
-- Set comment to table: "pump_state"
COMMENT ON TABLE "pump_state" IS 'What the leader''s pump publishes about itself for operators (msgx status): a single row (id = 1).';
-- Set comment to column: "paused_dependency" on table: "pump_state"
COMMENT ON COLUMN "pump_state"."paused_dependency" IS 'The dependency the pump is paused on (postgres, mailbox): it cannot be reached, so the pump waits and probes it without counting attempts (rule 14). NULL while the pump runs.';
-- Set comment to column: "paused_reason" on table: "pump_state"
COMMENT ON COLUMN "pump_state"."paused_reason" IS 'The error that paused the pump, as the driver reported it.';
-- Set comment to column: "paused_since" on table: "pump_state"
COMMENT ON COLUMN "pump_state"."paused_since" IS 'When the pause began.';
-- Set comment to column: "updated_at" on table: "pump_state"
COMMENT ON COLUMN "pump_state"."updated_at" IS 'When the pump last wrote the row (a pause is re-published while it lasts).';
