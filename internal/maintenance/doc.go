// Package maintenance runs the leader's housekeeping jobs (docs/cli.md
// `msgx maintenance`, docs/design.md §8): the history sweep, snapshot log
// retention, the queue archive and outbox retention. Each job runs on its
// own goroutine, never inside the pump's transactions, in bounded batches
// with a short random pause between them, and each can be run once by hand
// (`msgx maintenance run <job> [--dry-run]`). Jobs are registered by name in
// a Registry, so another package can add one (request expiry).
//
// The last run of every job is kept in MAINTENANCE_RUN: `msgx status` reads
// it from any instance, and a job's Schedule is computed from it, so a
// restart or a new leader neither repeats nor skips a daily run.
package maintenance
