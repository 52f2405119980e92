-- Modify "backfill_todo" table
ALTER TABLE "backfill_todo" ADD COLUMN "registration" bigint NOT NULL DEFAULT 0;
-- Set comment to column: "registration" on table: "backfill_todo"
COMMENT ON COLUMN "backfill_todo"."registration" IS 'The message''s REPLAY_COUNT when this todo was registered: a replay re-registers the todo under the next one, so a backfill of the todo before (rule 18) deletes only its own registration, never the new todo.';
