// Package redact turns error text into what an unauthenticated client may
// read: the kind of failure, without hosts, ports, users, database names or
// the drivers' messages. The full text belongs in logs and on admin routes.
package redact

import (
	"regexp"

	"github.com/msgx-aodb/msgx/internal/oneline"
)

// MaxLen bounds a public reason, in runes.
const MaxLen = 300

// infraStart finds where infrastructure text begins in an error: msgx's own
// "unavailable" wrappers, and the openings of the pgx, go-sql-driver/mysql,
// net and franz-go errors. Whatever follows is summed up, never shown.
// PostgreSQL's severities start a word: msgx's own class CODEC_ERROR is not
// one (its reasons are msgx's words, shown whole).
var infraStart = regexp.MustCompile("(?:store|mailbox): unavailable|failed to connect to `|" +
	`unable to dial|hostname resolving error|lookup \S+|` +
	`(?:dial|read|write) (?:tcp|tcp4|tcp6|udp|unix)\b|` +
	`Error \d{4}(?: \([0-9A-Z]{5}\))?:|\b(?:ERROR|FATAL|PANIC): |\(SQLSTATE [0-9A-Z]{5}\)|` +
	`timeout: |context deadline exceeded|i/o timeout|connection refused|connection reset|broken pipe|` +
	`unexpected EOF|invalid connection|bad connection|closed pool|tls: |x509: `)

// kinds sum up infrastructure text, the first match wins.
var kinds = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`SQLSTATE 28(?:P01|000)|password authentication failed|Access denied|Error 104[45]\b|Error 1698\b|SASL|authentication failed`), "authentication failed"},
	{regexp.MustCompile(`SQLSTATE 3D000|Error 1049\b`), "database not found"},
	{regexp.MustCompile(`(?i)SQLSTATE 53300|Error 1040\b|too many connections`), "too many connections"},
	{regexp.MustCompile(`SQLSTATE 57P0[123]|Error 1053\b`), "server shutting down"},
	{regexp.MustCompile(`Error 1153\b|max_allowed_packet`), "packet too large"},
	{regexp.MustCompile(`no such host|hostname resolving error|lookup `), "host not found"},
	{regexp.MustCompile(`connection refused`), "connection refused"},
	{regexp.MustCompile(`(?i)i/o timeout|deadline exceeded|timeout|timed out`), "timed out"},
	{regexp.MustCompile(`connection reset|broken pipe|unexpected EOF|invalid connection|bad connection|closed pool|use of closed|conn closed`), "connection lost"},
	{regexp.MustCompile(`tls: |x509: |certificate`), "TLS error"},
}

// Codes that say which failure without saying where: a PostgreSQL SQLSTATE,
// a MySQL error number.
var (
	sqlState  = regexp.MustCompile(`SQLSTATE ([0-9A-Z]{5})`)
	mysqlCode = regexp.MustCompile(`Error (\d{4})`)
)

// Addresses and credentials that may stand anywhere in a text.
var secrets = []*regexp.Regexp{
	regexp.MustCompile(`[a-z][a-z0-9+.-]*://\S+`),                                     // URLs (postgres://user:pw@host/db)
	regexp.MustCompile(`\S+:\S*@(?:tcp|unix)\([^)]*\)\S*`),                            // MySQL DSNs user:pw@tcp(host)/db
	regexp.MustCompile(`\b(?:user|database|dbname|host|password)=\S+`),                // key=value connection strings
	regexp.MustCompile(`'[^']*'@'[^']*'`),                                             // MySQL 'user'@'host'
	regexp.MustCompile(`\[[0-9A-Fa-f:.]+\](?::\d+)?`),                                 // [IPv6]:port
	regexp.MustCompile(`\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b`),                    // IPv4[:port]
	regexp.MustCompile(`\b(?:localhost|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+):\d{1,5}\b`), // host:port
}

// Reason is the public form of an error text (a stored reason, a readiness
// check's error). Text before any infrastructure error is kept (msgx's own
// words: "5 attempts; last INFRA: ", a message's field and value), with any
// address or credential in it masked; the infrastructure error itself
// becomes its kind ("connection refused", "authentication failed",
// "database error (SQLSTATE 42P01)", ...). The result is at most MaxLen runes.
func Reason(raw string) string {
	if raw == "" {
		return ""
	}
	prefix, infra := raw, ""
	if loc := infraStart.FindStringIndex(raw); loc != nil {
		prefix, infra = raw[:loc[0]], raw[loc[0]:]
	}
	out := mask(prefix)
	if infra != "" {
		out += kind(infra)
	}
	return oneline.Text(out, MaxLen)
}

// kind names the failure an infrastructure error text describes.
func kind(infra string) string {
	for _, k := range kinds {
		if k.re.MatchString(infra) {
			return k.kind
		}
	}
	if m := sqlState.FindStringSubmatch(infra); m != nil {
		return "database error (SQLSTATE " + m[1] + ")"
	}
	if m := mysqlCode.FindStringSubmatch(infra); m != nil {
		return "database error " + m[1]
	}
	return "unavailable"
}

// mask replaces every address and credential in s.
func mask(s string) string {
	for _, re := range secrets {
		s = re.ReplaceAllString(s, "…")
	}
	return s
}
