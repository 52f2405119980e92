// Package vocab is msgx's vocabulary: the words of the processing contract
// (docs/design.md) and the records that carry them, shared by the code that
// decides (internal/apply) and the code that stores (internal/store and its
// adapters), so neither imports the other — as river's rivertype holds
// JobRow and JobState for both its driver and its client.
//
// It holds the statuses of a message (StatusPending … StatusDead) and of an
// outbox event, the error classes (Class), the outbox targets and event
// types, the snapshot outcomes, the request statuses and origins, the
// dependency names, the keys and marks derived from values (PartitionKey,
// IdempotencyKey, LateMark, RawDigest, ConflictSuffix), and the records a
// message's outcome is decided from and written as: QueueEntry (a
// PROC_STATE row; sis.Message is the decoded XML), Meta, Binding, Holder,
// Finish, Backfill, NewEvent, FlightWrite, SnapshotGen, SnapshotLog,
// RefRecord, Request and the params of the writes apply prepares
// (AdvanceSnapshotGenParams, MarkRequestDoneParams, RecordFailureParams).
// Nothing here reads or writes anything: no database, no codec beyond its
// classes.
package vocab
