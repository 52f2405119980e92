-- Drop index "msg_event_msg_head_ix" from table: "msg_event"
DROP INDEX "msg_event_msg_head_ix";
