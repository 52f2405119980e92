package vocab

import "time"

// SnapshotGen is the current generation of a flight day.
type SnapshotGen struct {
	FDay          time.Time
	Version       int64
	LastMessageID int64
	ContentDigest string
	UpdatedAt     time.Time
	// Dttm is the META DTTM of the message that made the generation (nil for
	// a generation made before it was kept): an older snapshot is stale.
	Dttm    *time.Time
	DttmRaw string
}

// AdvanceSnapshotGenParams is a compare-and-set of a day's generation
// (Snapshots.AdvanceSnapshotGen).
type AdvanceSnapshotGenParams struct {
	FDay            time.Time
	ExpectedVersion int64 // 0: the day has no generation yet
	MessageID       int64
	ContentDigest   string
	Dttm            *time.Time // META DTTM of the message
	DttmRaw         string
	Now             time.Time
}

// Snapshot log outcomes of one flight day.
const (
	SnapApplied = "APPLIED" // upserted, pruned, generation advanced
	SnapStale   = "STALE"   // sent before the day's generation: left alone
)

// SnapshotLog is the audit row of one snapshot day.
type SnapshotLog struct {
	MsgID                               int64
	Subtype                             string
	FDay                                time.Time
	Outcome                             string     // SnapApplied or SnapStale
	GenVersion                          int64      // made (APPLIED) or kept (STALE)
	StaleOf                             *int64     // STALE: the message that made the kept generation
	Dttm                                *time.Time // META DTTM of the message
	ScopeBegin, ScopeEnd                *time.Time
	Records, Changed, Unchanged, Pruned int
	// KeptNewer: values and flights a newer message kept from the
	// snapshot (rule 19).
	KeptNewer int
	RecvAt    time.Time
}
