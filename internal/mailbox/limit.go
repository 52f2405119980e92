package mailbox

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/go-sql-driver/mysql"
)

// insertOverhead is what an INSERT of a body needs in a packet besides the
// body: the execute command, the other parameters and their headers (about
// 60 bytes measured on MariaDB 10.11). Insert always executes a server-side
// statement (prepared), so the body is never escaped into the text. 1 KiB
// leaves room.
const insertOverhead = 1024

// erNetPacketTooLarge is the server's refusal of a packet over its
// max_allowed_packet (ER_NET_PACKET_TOO_LARGE).
const erNetPacketTooLarge = 1153

// BodyLimit is the largest body an INSERT can carry to a server whose
// max_allowed_packet is packet: the packet less the statement's overhead,
// and never more than the column holds (MaxBody).
func BodyLimit(packet int64) int64 {
	return max(0, min(MaxBody, packet-insertOverhead))
}

// MaxInsertBody asks the server for its max_allowed_packet and returns
// BodyLimit of it: the largest body Insert can store on this server.
func (m *Mailbox) MaxInsertBody(ctx context.Context) (int64, error) {
	packet, err := m.q.MaxAllowedPacket(ctx, m.db)
	if err != nil {
		return 0, unavailable("read max_allowed_packet", err)
	}
	return BodyLimit(packet), nil
}

// tooLarge reports whether err is a refusal of a packet over the server's
// (or the driver's) packet limit: the body was too large, nothing was written
// and retrying cannot help.
func tooLarge(err error) bool {
	var me *mysql.MySQLError
	return errors.Is(err, mysql.ErrPktTooLarge) || (errors.As(err, &me) && me.Number == erNetPacketTooLarge)
}

// prepared runs ExecContext as a server-side statement even when the DSN
// interpolates parameters: prepare, execute, close.
type prepared struct{ *sql.Conn }

func (p prepared) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	stmt, err := p.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	return stmt.ExecContext(ctx, args...)
}

// discard drops conn from the pool (database/sql closes a connection whose
// Raw call answers driver.ErrBadConn): after refusing a too-large packet the
// server hangs up, and the next statement on conn would fail as "invalid
// connection" rather than be retried on a fresh one.
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
}

// tooLargeError is Insert's error for a body the server refused as too large.
func tooLargeError(n int, err error) error {
	return fmt.Errorf("mailbox: insert %d bytes: %w (over the server's max_allowed_packet): %w", n, ErrTooLarge, err)
}
