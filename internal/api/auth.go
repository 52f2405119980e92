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
	kind  string // the credential kind failures are counted under: "admin", "send"
	set   bool
	want  [sha256.Size]byte
	// open is the answer without a configured token: nil lets every request
	// through (send in dev), otherwise the refusal (admin: 403 disabled).
	open func(w http.ResponseWriter)
}

func newBearer(kind, token string, open func(w http.ResponseWriter)) bearer {
	return bearer{realm: "msgx " + kind, kind: kind, set: token != "", want: sha256.Sum256([]byte(token)), open: open}
}

// requireToken lets a request through only with b's token. A request with
// the token always passes: the failure limit never refuses a valid
// credential, so one client's wrong tokens cannot lock out another client
// behind the same address (NAT, a proxy). Failures count per client address
// and credential kind (authFailures): beyond the allowance a wrong or
// missing token is answered 429 with Retry-After until the allowance
// refills; and the warning of a failure is logged once per interval per
// client, kind and limited or not, with the count of those not logged since.
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
			scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
			token = strings.TrimSpace(token)
			why, challenge := "wrong token", fmt.Sprintf("Bearer realm=%q, error=\"invalid_token\"", b.realm)
			if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
				why, challenge = "missing token", fmt.Sprintf("Bearer realm=%q", b.realm)
			} else if got := sha256.Sum256([]byte(token)); subtle.ConstantTimeCompare(got[:], b.want[:]) == 1 {
				next.ServeHTTP(w, r)
				return
			}
			client, now := clientAddr(r), s.Clock.Now()
			wait, limited := s.authFails.fail(authKey{client: client, kind: b.kind}, now)
			s.authFailed(r, b, client, now, why, limited)
			if limited {
				secs := int64(max(1, (wait+time.Second-1)/time.Second))
				w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
				writeError(w, http.StatusTooManyRequests, fmt.Sprintf("too many failed %s authentications from this address; retry after %d s", b.kind, secs))
				return
			}
			w.Header().Set("WWW-Authenticate", challenge)
			if why == "missing token" {
				writeError(w, http.StatusUnauthorized, b.realm+" token required: Authorization: Bearer <token>")
			} else {
				writeError(w, http.StatusUnauthorized, "invalid "+b.realm+" token")
			}
		})
	}
}

// authFailed counts a failed authentication (limited: answered 429) and
// logs it, at most once per interval per client, kind and limited or not:
// the first refusal of a client by the limit in an interval is logged
// whatever came before it, naming who is being limited.
func (s *server) authFailed(r *http.Request, b bearer, client string, now time.Time, why string, limited bool) {
	s.Metrics.AuthFailed(b.kind, limited)
	if ok, suppressed := s.authLogs.allow(client+" "+b.kind+" "+strconv.FormatBool(limited), now); ok {
		s.logFor(r).Warn("api: authentication failed", "realm", b.realm, "kind", b.kind, "client", client, "why", why,
			"suppressed", suppressed, "limited", limited)
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
