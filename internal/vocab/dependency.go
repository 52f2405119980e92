package vocab

// The dependencies by name. The pump pauses on DependencyDatabase (msgx's
// own database, whichever dialect) or DependencyMailbox. msgx_dependency_up,
// /readyz and the status report name the own database by its dialect
// (DependencyPostgres or DependencyOracle; dbopen.Name) and the brokers
// DependencyKafka.
const (
	// DependencyDatabase keeps the value "postgres" on Oracle too: it is
	// stored in PUMP_STATE.PAUSED_DEPENDENCY (a CHECK constraint on both
	// dialects), and is msgx_pump_paused's label and the status report's
	// paused.dependency (docs/metrics.md, docs/openapi.yaml).
	DependencyDatabase = "postgres"
	DependencyPostgres = "postgres"
	DependencyOracle   = "oracle"
	DependencyMailbox  = "mailbox"
	DependencyKafka    = "kafka"
)
