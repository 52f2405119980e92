package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// bearer is one route group's token: "Authorization: Bearer <token>",
// compared in constant time over SHA-256 digests, so neither the content nor
// the length of the token leaks through timing.
type bearer struct {
	realm string // "msgx admin", "msgx send"
	set   bool
	want  [sha256.Size]byte
	// open is the answer without a configured token: nil lets every request
	// through (send in dev), otherwise the refusal (admin: 403 disabled).
	open func(w http.ResponseWriter)
}

func newBearer(realm, token string, open func(w http.ResponseWriter)) bearer {
	return bearer{realm: realm, set: token != "", want: sha256.Sum256([]byte(token)), open: open}
}

// requireToken lets a request through only with b's token. Failures count
// per client address (authFailures): beyond the allowance the answer is 429
// with Retry-After, whatever the token, until the allowance refills; and the
// warning of a failure is logged once per interval per client, with the
// count of failures not logged since.
func (s *server) requireToken(b bearer) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !b.set {
				if b.open != nil {
					b.open(w)
					return
				}
				next.ServeHTTP(w, r)
				return
			}
			client, now := clientAddr(r), s.Clock.Now()
			if wait, blocked := s.authFails.blocked(client, now); blocked {
				s.authFailed(w, r, b, client, now, "blocked", wait)
				return
			}
			scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
			token = strings.TrimSpace(token)
			if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
				wait, blocked := s.authFails.fail(client, now)
				s.authFailed(w, r, b, client, now, "missing token", wait)
				if !blocked {
					w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer realm=%q", b.realm))
					writeError(w, http.StatusUnauthorized, b.realm+" token required: Authorization: Bearer <token>")
				}
				return
			}
			got := sha256.Sum256([]byte(token))
			if subtle.ConstantTimeCompare(got[:], b.want[:]) != 1 {
				wait, blocked := s.authFails.fail(client, now)
				s.authFailed(w, r, b, client, now, "wrong token", wait)
				if !blocked {
					w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer realm=%q, error=\"invalid_token\"", b.realm))
					writeError(w, http.StatusUnauthorized, "invalid "+b.realm+" token")
				}
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// authFailed logs a failed authentication (rate-limited per client) and,
// when wait > 0, answers 429: the client used up its failures.
func (s *server) authFailed(w http.ResponseWriter, r *http.Request, b bearer, client string, now time.Time, why string, wait time.Duration) {
	if ok, suppressed := s.authLogs.allow(client, now); ok {
		s.logFor(r).Warn("api: authentication failed", "realm", b.realm, "client", client, "why", why,
			"suppressed", suppressed, "blocked", wait > 0)
	}
	if wait > 0 {
		secs := int64(max(1, (wait+time.Second-1)/time.Second))
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
		writeError(w, http.StatusTooManyRequests, fmt.Sprintf("too many failed authentications from this address; retry after %d s", secs))
	}
}

// clientAddr is the address a request came from: the TCP peer, never a
// forwarding header (any client can write one).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
