-- The shared MySQL/MariaDB mailbox, exactly as the AODB side owns it
-- (sis-wire-format.md §8). On site these tables already exist; msgx creates
-- them only in dev and tests. msgx reads cminmsgs and backfills the processing
-- columns; it inserts into cminmsgs only for HTTP /cminmsgs/send and into
-- coutmsgs only for its outbound requests (RQFD/RQRD).

CREATE TABLE IF NOT EXISTS cminmsgs (
  CMINMSGS_ID                  bigint       NOT NULL AUTO_INCREMENT,
  CMINMSGS_CLOB_MSG            mediumtext   NOT NULL,
  CMINMSGS_DATE_RECEIVED       datetime     NULL,
  CMINMSGS_DATE_PROCESSED      datetime     NULL,
  CMINMSGS_SUBSYSTEM_NAME      varchar(4)   NULL,
  CMINMSGS_SUBSYSTEM_SEQUENCE  mediumint    NULL,
  CMINMSGS_SUBSYSTEM_DATE_SENT datetime     NULL,
  CMINMSGS_SUBSYSTEM_SUBTYPE   varchar(4)   NULL,
  CMINMSGS_SUBSYSTEM_TYPE      varchar(4)   NULL,
  CMINMSGS_STATUS              varchar(20)  NULL,
  PRIMARY KEY (CMINMSGS_ID)
) DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS coutmsgs (
  COUTMSGS_ID                bigint       NOT NULL AUTO_INCREMENT,
  COUTMSGS_CLOB_MSG          mediumtext   NULL,
  COUTMSGS_DATE_INSERTED     datetime     NOT NULL,
  COUTMSGS_DATE_SENT         datetime     NULL,
  ROUTINGID                  varchar(23)  NOT NULL,
  COUTMSGS_TRUEFALS_GROUP    tinyint      NOT NULL DEFAULT 0,
  COUTMSGS_NO_MESSAGES       tinyint      NULL,
  COUTMSGS_GROUP_ORDER       tinyint      NULL,
  COUTMSGS_GROUP_ID          smallint     NULL,
  COUTMSGS_FINAL_GROUP_IND   tinyint      NOT NULL DEFAULT 0,
  COUTMSGS_ACK_REQD          tinyint      NOT NULL DEFAULT 0,
  COUTMSGS_ACK_RESEND_TIMES  tinyint      NOT NULL DEFAULT 0,
  COUTMSGS_ACK_DATE_RECV     datetime     NULL,
  COUTMSGS_ENCRYPT           tinyint      NOT NULL DEFAULT 0,
  COUTMSGS_ERROR             tinyint      NOT NULL DEFAULT 0,
  PRIMARY KEY (COUTMSGS_ID)
) DEFAULT CHARSET = utf8mb4;
