-- Create index "proc_state_hst_duplicate_ix" to table: "proc_state_hst"
CREATE INDEX "proc_state_hst_duplicate_ix" ON "proc_state_hst" ("finished_at") WHERE (duplicate_of IS NOT NULL);
