package redact_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/redact"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The error texts below are verbatim what pgx v5, go-sql-driver/mysql, net
// and franz-go produced (wrapped as msgx's store and mailbox wrap them).
func TestReasonOfDriverErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ raw, want string }{
		// pgconn
		{"failed to connect to `user=postgres database=msgx`: 127.0.0.1:5432 (127.0.0.1): dial error: dial tcp 127.0.0.1:5432: connect: connection refused",
			"connection refused"},
		{"pgstore: message 7: store: unavailable: failed to connect to `user=postgres database=msgx`: 10.1.2.3:5432 (db-1.internal): dial error: dial tcp 10.1.2.3:5432: connect: connection refused",
			"pgstore: message 7: connection refused"},
		{"failed to connect to `user=postgres database=nosuchdb`: 127.0.0.1:5432 (127.0.0.1): server error: FATAL: database \"nosuchdb\" does not exist (SQLSTATE 3D000)",
			"database not found"},
		{"failed to connect to `user=msgx database=msgx`: 127.0.0.1:5432 (127.0.0.1): server error: FATAL: password authentication failed for user \"msgx\" (SQLSTATE 28P01)",
			"authentication failed"},
		{"failed to connect to `user=nosuchuser database=msgx`: 127.0.0.1:5432 (127.0.0.1): server error: FATAL: role \"nosuchuser\" does not exist (SQLSTATE 28000)",
			"authentication failed"},
		{"failed to connect to `user=postgres database=msgx`: hostname resolving error: lookup db.prod.example on 10.255.255.53:53: no such host",
			"host not found"},
		{"apply run: ERROR: relation \"flight_secret\" does not exist (SQLSTATE 42P01)", "apply run: database error (SQLSTATE 42P01)"},
		{"FATAL: sorry, too many clients already (SQLSTATE 53300)", "too many connections"},
		{"FATAL: terminating connection due to administrator command (SQLSTATE 57P01)", "server shutting down"},
		{"timeout: context deadline exceeded", "timed out"},
		// go-sql-driver/mysql
		{"read raw message 12: mailbox: read raw 12: mailbox: unavailable: dial tcp 127.0.0.1:3306: connect: connection refused",
			"read raw message 12: mailbox: read raw 12: connection refused"},
		{"Error 1698 (28000): Access denied for user 'nobody'@'127.0.0.1'", "authentication failed"},
		{"Error 1045 (28000): Access denied for user 'aodb'@'10.0.0.9' (using password: YES)", "authentication failed"},
		{"Error 1049 (42000): Unknown database 'msgx_mailbox'", "database not found"},
		{"Error 1146 (42S02): Table 'msgx_mailbox.cminmsgs' doesn't exist", "database error 1146"},
		{"Error 1153 (08S01): Got a packet bigger than 'max_allowed_packet' bytes", "packet too large"},
		{"mailbox: list after: mailbox: unavailable: invalid connection", "mailbox: list after: connection lost"},
		{"read tcp 192.0.2.2:35094->10.255.255.1:3306: read: connection reset by peer", "connection lost"},
		// net, franz-go, and the readiness check's own words
		{"dial tcp [::1]:9092: connect: connection refused", "connection refused"},
		{"unable to dial: dial tcp 10.0.0.7:9092: i/o timeout", "timed out"},
		{"timed out after 2s: failed to connect to `user=postgres database=msgx`: 127.0.0.1:5432 (127.0.0.1): dial error: timeout: context deadline exceeded",
			"timed out after 2s: timed out"},
		{"timed out after 2s", "timed out after 2s"},
		{"tls: failed to verify certificate: x509: certificate signed by unknown authority", "TLS error"},
		// EXHAUSTED keeps its own words and sums up the last INFRA error.
		{"5 attempts; last INFRA: dial tcp 127.0.0.1:3306: connect: connection refused", "5 attempts; last INFRA: connection refused"},
		{"head for 10m0s (deadline 10m0s); last INFRA: failed to connect to `user=postgres database=msgx`: 127.0.0.1:5432 (127.0.0.1): dial error: dial tcp 127.0.0.1:5432: connect: connection refused",
			"head for 10m0s (deadline 10m0s); last INFRA: connection refused"},
		// What is not an infrastructure error passes: the message's own words.
		{"ignored:LDM", "ignored:LDM"},
		{"duplicate-of:1234", "duplicate-of:1234"},
		{"MSG.DATA.FLOP.SCHD: DTTM \"2026-12-03 12:30:00\" is not a SIS time", "MSG.DATA.FLOP.SCHD: DTTM \"2026-12-03 12:30:00\" is not a SIS time"},
		{"", ""},
		// Addresses and credentials outside a recognised error are masked.
		{"could not reach postgres://msgx:s3cret@db-1.internal:5432/msgx?sslmode=require", "could not reach …"},
		{"mailbox aodb:pw@tcp(10.0.0.9:3306)/mb is gone", "mailbox … is gone"},
		{"broker kafka-1.prod.example:9092 said no", "broker … said no"},
		{"peer 10.0.0.9 said no", "peer … said no"},
	}
	for _, c := range cases {
		got := redact.Reason(c.raw)
		require.Equal(t, c.want, got, "raw: %s", c.raw)
		for _, leak := range []string{"127.0.0.1", "10.", "::1", "5432", "3306", "9092", "postgres", "nobody", "aodb", "msgx_mailbox", "nosuchdb", "db-1", "s3cret"} {
			if !strings.Contains(c.want, leak) {
				require.NotContains(t, got, leak, "raw: %s", c.raw)
			}
		}
	}
}

// Errors built by the net package itself, as a dial failure surfaces.
func TestReasonOfNetOpError(t *testing.T) {
	t.Parallel()
	var d net.Dialer
	_, err := d.DialContext(context.Background(), "tcp", "127.0.0.1:1")
	var op *net.OpError
	require.True(t, errors.As(err, &op), "%v", err)
	require.Equal(t, "connection refused", redact.Reason(err.Error()))
	require.Equal(t, "ping: connection refused", redact.Reason(fmt.Errorf("ping: %w", err).Error()))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = d.DialContext(ctx, "tcp", "192.0.2.1:5432")
	require.Error(t, err)
	require.NotContains(t, redact.Reason(err.Error()), "192.0.2.1")
}

func TestReasonIsBounded(t *testing.T) {
	t.Parallel()
	got := redact.Reason(strings.Repeat("é", 2000))
	require.Equal(t, redact.MaxLen, len([]rune(got)))
}

// msgx's own reasons of every error class pass whole, alone and as the last
// error of an EXHAUSTED message: a class name such as CODEC_ERROR is not a
// database's "ERROR: ". The codec's reasons are what it says of real bad
// messages; INFRA's is a driver's error, summed up.
func TestReasonKeepsEveryClassOwnWords(t *testing.T) {
	t.Parallel()
	const meta = `<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20261202083000</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP></META>`
	bad := map[vocab.Class]string{
		vocab.ClassMalformed:   meta + `<FLOP><FLID>1</FLID><STND>1</STND>`,
		vocab.ClassProtocol:    meta + `<FLOP><FLID>x</FLID><STND>1</STND></FLOP></MSG>`,
		vocab.ClassCodec:       meta + `<FLOP><FLID>1</FLID><STND>1<B/></STND></FLOP></MSG>`,
		vocab.ClassUnsupported: meta + `<FLOP><FLID>1</FLID><ZZZZ>1</ZZZZ></FLOP></MSG>`,
	}
	// stored is the reason as stored, public what a client reads of it.
	type reason struct{ stored, public string }
	reasons := map[vocab.Class]reason{
		vocab.ClassInfra: {"store: unavailable: dial tcp 10.0.0.7:5432: connect: connection refused", "connection refused"},
	}
	for class, raw := range bad {
		_, err := sis.Decode([]byte(raw), sis.DefaultOptions())
		var se *sis.Error
		require.ErrorAs(t, err, &se, "%s", class)
		require.Equal(t, class, vocab.Class(se.Class))
		reasons[class] = reason{se.Detail(), se.Detail()}
	}
	for _, last := range vocab.Classes {
		if last == vocab.ClassExhausted {
			continue
		}
		r := reasons[last]
		reasons[vocab.ClassExhausted] = reason{"5 attempts; last " + string(last) + ": " + r.stored, "5 attempts; last " + string(last) + ": " + r.public}
		require.Equal(t, reasons[vocab.ClassExhausted].public, redact.Reason(reasons[vocab.ClassExhausted].stored))
		require.Equal(t, string(last)+": "+r.public, redact.Reason(string(last)+": "+r.stored))
	}
	for _, class := range vocab.Classes {
		r, ok := reasons[class]
		require.True(t, ok, "a reason of class %s", class)
		require.Equal(t, r.public, redact.Reason(r.stored), "%s", class)
	}
}
