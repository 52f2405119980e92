-- Create index "msg_event_flid_ix" to table: "msg_event"
CREATE INDEX "msg_event_flid_ix" ON "msg_event" ("flid", "event_id");
