-- Modify "flight_belt" table
ALTER TABLE "flight_belt" DROP CONSTRAINT "flight_belt_flight_fk";
-- Modify "flight_bridge_op" table
ALTER TABLE "flight_bridge_op" DROP CONSTRAINT "flight_bridge_op_flight_fk";
-- Modify "flight_checkin" table
ALTER TABLE "flight_checkin" DROP CONSTRAINT "flight_checkin_flight_fk";
-- Modify "flight_chock_op" table
ALTER TABLE "flight_chock_op" DROP CONSTRAINT "flight_chock_op_flight_fk";
-- Modify "flight_chute" table
ALTER TABLE "flight_chute" DROP CONSTRAINT "flight_chute_flight_fk";
-- Modify "flight_delay" table
ALTER TABLE "flight_delay" DROP CONSTRAINT "flight_delay_flight_fk";
-- Modify "flight_gate" table
ALTER TABLE "flight_gate" DROP CONSTRAINT "flight_gate_flight_fk";
-- Modify "flight_route_point" table
ALTER TABLE "flight_route_point" DROP CONSTRAINT "flight_route_point_flight_fk";
-- Modify "flight_stand_plan" table
ALTER TABLE "flight_stand_plan" DROP CONSTRAINT "flight_stand_plan_flight_fk";
