package mailbox

// UseLegacyBackfill makes m backfill as on a server without JSON_TABLE.
func UseLegacyBackfill(m *Mailbox) { m.noJSONTable.Store(true) }
