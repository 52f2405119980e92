-- Drop index "proc_state_identity_uq" from table: "proc_state"
DROP INDEX "proc_state_identity_uq";
-- Create index "proc_state_identity_uq" to table: "proc_state"
CREATE UNIQUE INDEX "proc_state_identity_uq" ON "proc_state" ("identity_key") WHERE ((duplicate_of IS NULL) AND (identity_key IS NOT NULL));
