// Package backoff is the one retry delay msgx uses everywhere (the failing
// head, the mailbox backfill, the Kafka relay): a base doubled per attempt,
// capped.
package backoff

import "time"

// Doubling is the wait after the given failed attempt (1-based): base, 2×base,
// 4×base ..., never more than limit.
func Doubling(base, limit time.Duration, attempt int) time.Duration {
	d := base
	for i := 1; i < attempt && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}
