package vocab

import "time"

// RefRecord is one reference-data record.
type RefRecord struct {
	RType, RKey   string
	Record        string
	Version       int64
	LastMessageID int64
	Now           time.Time
}
