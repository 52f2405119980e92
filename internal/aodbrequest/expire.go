package aodbrequest

import (
	"context"
)

// expireBatch bounds one statement of a run.
const expireBatch = 100

// Expiry is the request expiry: open requests past expires_at become
// EXPIRED; a RESP that comes later is SKIPPED no-match:request. The leader
// runs it as the maintenance job "requests" (internal/maintenance).
type Expiry struct{ s *Service }

// Expiry returns the service's expiry job.
func (s *Service) Expiry() *Expiry { return &Expiry{s: s} }

// RunOnce expires every request due now, in bounded batches, and returns
// how many. An interrupted send is recovered first (outside shadow mode),
// so a request that is in coutmsgs expires as SENT, not as never sent.
func (e *Expiry) RunOnce(ctx context.Context) (int, error) {
	s := e.s
	if !s.cfg.Shadow {
		if err := s.Recover(ctx); err != nil {
			return 0, err
		}
	}
	total := 0
	for {
		ids, err := s.st.ExpireDueRequests(ctx, s.clk.Now(), expireBatch)
		if err != nil {
			return total, err
		}
		total += len(ids)
		if len(ids) > 0 {
			s.log.Info("requests expired", "req_ids", ids)
			if s.obs != nil {
				s.obs.RequestsExpired(len(ids))
			}
		}
		if len(ids) < expireBatch {
			return total, nil
		}
	}
}
