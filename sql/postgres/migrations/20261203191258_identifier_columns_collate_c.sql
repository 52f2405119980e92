-- Modify "msg_event" table
ALTER TABLE "msg_event" ALTER COLUMN "target" TYPE character varying(16) COLLATE "C", ALTER COLUMN "partition_key" TYPE character varying(32) COLLATE "C", ALTER COLUMN "idempotency_key" TYPE character varying(200) COLLATE "C";
-- Modify "proc_state" table
ALTER TABLE "proc_state" ALTER COLUMN "identity_key" TYPE character varying(300) COLLATE "C";
-- Modify "proc_state_hst" table
ALTER TABLE "proc_state_hst" ALTER COLUMN "identity_key" TYPE character varying(300) COLLATE "C";
