-- Modify "schd_gen_flid" table
ALTER TABLE "schd_gen_flid" DROP CONSTRAINT "schd_gen_flid_flight_fk", DROP CONSTRAINT "schd_gen_flid_gen_fk";
