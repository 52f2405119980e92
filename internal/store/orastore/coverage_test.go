package orastore

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// unusedInPostgres are twins of PostgreSQL queries that no store method
// calls on PostgreSQL either (the CLI or tests use them through db/postgres).
var unusedInPostgres = []string{
	"BackfillTodoGet", "ProcStateGetHead", "RefListByType",
	"LeaderSessions", "LeaderTerminate", "LeaderUnlock",
	"FlightCountByLifecycle", "FlightDelete", "FlightGet", "FlightHstListByFlight",
	"PayloadListByFlight", "RoutePointDeleteByFlightKind",
}

// TestEveryQueryCalled: every query of the Oracle files is called by the
// adapter (through exec/query, which refuse binds that differ from the
// file), except those no store method calls on PostgreSQL either and the
// test harness's reset.
func TestEveryQueryCalled(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, _ := os.ReadFile(f)
		src.Write(data)
	}
	for _, d := range detailTables { // called by prefix; the single-flight ones are unused in PostgreSQL too
		for _, s := range []string{"ListByFlights", "Insert", "DeleteByFlights", "ListByFlight", "DeleteByFlight"} {
			src.WriteString(`"` + d.prefix + s + `"`)
		}
	}
	var uncalled []string
	for name := range queries {
		if !strings.Contains(src.String(), `"`+name+`"`) {
			uncalled = append(uncalled, name)
		}
	}
	sort.Strings(uncalled)
	allowed := append([]string{"TestSchemaReset"}, unusedInPostgres...)
	for _, n := range uncalled {
		if slices.Contains(allowed, n) {
			continue
		}
		t.Errorf("query %s is never called by the adapter", n)
	}
}
