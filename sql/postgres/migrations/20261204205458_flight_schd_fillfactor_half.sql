-- Storage parameters, which atlas does not plan
ALTER TABLE "flight_schd" SET (fillfactor = 50);
