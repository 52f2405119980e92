package status

import "time"

// How msgx shows a time to a person (CLI and console): airport local time
// with its offset — the shift works in it — or UTC with a Z (`--utc`, the
// console's UTC box). JSON keeps RFC 3339 with the offset.
const (
	LocalLayout = "2006-01-02 15:04:05 -07:00"
	UTCLayout   = "2006-01-02 15:04:05Z"
)

// Stamp is t for a person: in loc with its offset, or in UTC when loc is nil
// or UTC.
func Stamp(t time.Time, loc *time.Location) string {
	if loc == nil || loc == time.UTC {
		return t.UTC().Format(UTCLayout)
	}
	return t.In(loc).Format(LocalLayout)
}
