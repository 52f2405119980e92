package depcheck_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/msgx-aodb/msgx"

// floors is the house's direction of imports (docs/architecture.md): a
// package imports only packages on a lower floor, so two rooms on one floor
// never import each other (the services talk through internal/wake, the
// store and data handed over) and nothing imports upwards. Every package of
// the module has a floor: a new one is placed on purpose.
var floors = map[string]int{
	// 0: leaves — the codec, clocks, config, the wake-up, generated accessors.
	"internal/sis": 0, "internal/sis/sistest": 0, "internal/clock": 0, "internal/backoff": 0, "internal/config": 0,
	"internal/jsonstr": 0, "internal/mapkeys": 0, "internal/oneline": 0, "internal/plural": 0, "internal/service": 0,
	"internal/gctune": 0, "internal/logging": 0, "internal/wake": 0,
	"internal/depcheck": 0, "internal/doccheck": 0,
	"db/mailbox": 0, "db/pgadmin": 0, "db/postgres": 0, "db/report": 0,
	"internal/store/pgstore/pgarg": 0, // NULL-able array elements pgx encodes without a copy
	"deploy":                       0, "docs": 0, "sql": 0, "scripts/contracts-diff": 0,
	// 1: the domain (flight state, pure) and the leader lock.
	"internal/flight": 1, "internal/leader": 1, "internal/redact": 1, "internal/schema": 1,
	"docs/examples/reporting": 1, "scripts/configdoc": 1, "internal/sdnotify": 1, "internal/contracttest": 1,
	"db/pgarrays": 1, // generated over pgarg's element types
	// 2: the vocabulary every room shares, column widths, readiness.
	"internal/vocab": 2, "internal/widths": 2, "internal/readiness": 2, "scripts/migrate-diff": 2,
	// 3: the neutral store, the mailbox, decoding with widths, the RESP match.
	"internal/store": 3, "internal/mailbox": 3, "internal/decode": 3, "internal/respmatch": 3,
	// 4: what one message does (pure), the adapters, Kafka records, readers.
	"internal/apply": 4, "internal/store/pgstore": 4, "internal/store/orastore": 4, "internal/store/storetest": 4,
	"internal/kafka": 4, "internal/status": 4, "internal/replay": 4,
	// 5: the services (rooms), the opener, and the test databases.
	"internal/ingress": 5, "internal/pump": 5, "internal/backfill": 5, "internal/relay": 5,
	"internal/maintenance": 5, "internal/aodbrequest": 5, "internal/metrics": 5, "internal/dbopen": 5,
	"internal/compare": 5, "internal/testdb": 5,
	// 6: the HTTP surface over the rooms; the test environment.
	"internal/api": 6, "internal/testenv": 6,
	// 7: wiring; 8: the binary.
	"internal/app": 7, "cmd/msgx": 8,
}

func TestImportsGoDownTheHouse(t *testing.T) {
	t.Parallel()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		floor, ok := floors[pkg]
		if !ok {
			t.Errorf("%s has no floor: place it in floors (internal/depcheck/house_test.go) and docs/architecture.md", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ours := strings.CutPrefix(imp, module+"/")
			if !ours {
				continue
			}
			if f, ok := floors[dep]; ok && f >= floor {
				t.Errorf("%s (floor %d) imports %s (floor %d): imports go down only", pkg, floor, dep, f)
			}
		}
	}
}
