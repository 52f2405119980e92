package pgstore

// For the external tests (package pgstore_test, which can import testdb).
var (
	ColumnsRows  = columnsRows
	ColumnsState = columnsState
)
