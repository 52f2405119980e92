-- msgx Oracle 11g migration 0006: BACKFILL_TODO.REGISTRATION (rule 18; twin
-- of the PostgreSQL migration backfill_todo_registration): a todo is deleted
-- by its message id and its registration, so a todo a replay re-registered
-- survives the delete of the one before it. Applied by 'msgx schema apply
-- --dialect oracle11g' or by a DBA with SQL*Plus (docs/schema.md); msgx
-- records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
ALTER TABLE BACKFILL_TODO ADD (REGISTRATION NUMBER(19) DEFAULT 0 NOT NULL);
COMMENT ON COLUMN BACKFILL_TODO.REGISTRATION IS 'The message''s REPLAY_COUNT when this todo was registered: a replay re-registers the todo under the next one, so a backfill of the todo before (rule 18) deletes only its own registration, never the new todo.';
