-- Create index "msg_event_created_ix" to table: "msg_event"
CREATE INDEX "msg_event_created_ix" ON "msg_event" ("created_at", "event_id");
-- Create index "proc_state_hst_late_ix" to table: "proc_state_hst"
CREATE INDEX "proc_state_hst_late_ix" ON "proc_state_hst" ("first_seen_at") WHERE (late_after IS NOT NULL);
-- Storage parameters, which atlas does not plan
ALTER TABLE "proc_state_hst" SET (parallel_workers = 0);
