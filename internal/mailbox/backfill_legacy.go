package mailbox

import (
	"errors"
	"strconv"

	"github.com/go-sql-driver/mysql"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
)

// lacksJSONTable reports whether err is the server refusing JSON_TABLE
// (MySQL 5.7 and MariaDB before 10.6 do not know it).
func lacksJSONTable(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && (me.Number == 1064 || me.Number == 1305) // ER_PARSE_ERROR, ER_SP_DOES_NOT_EXIST
}

// legacySetParams converts set to the parallel text lists of
// InboundBackfillManyLegacy ("" for NULL; no column of the update takes ""
// as a value).
func legacySetParams(set []setRow) dbmb.InboundBackfillManyLegacyParams {
	var p dbmb.InboundBackfillManyLegacyParams
	for _, r := range set {
		seqn := ""
		if r.Seqn != nil {
			seqn = strconv.Itoa(int(*r.Seqn))
		}
		p.Ids = append(p.Ids, r.ID)
		p.Pos = append(p.Pos, strconv.FormatInt(r.ID, 10))
		p.ProcessedAt = append(p.ProcessedAt, r.ProcessedAt)
		p.Status = append(p.Status, r.Status)
		p.Sndr = append(p.Sndr, r.Sndr)
		p.Seqn = append(p.Seqn, seqn)
		p.Dttm = append(p.Dttm, r.Dttm)
		p.MsgType = append(p.MsgType, r.MsgType)
		p.MsgSubtype = append(p.MsgSubtype, r.MsgSubtype)
	}
	return p
}
