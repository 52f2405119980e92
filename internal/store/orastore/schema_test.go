package orastore

import (
	"strings"
	"testing"
)

// TestSchemaStatements: the embedded DDL splits into statements without a
// trailing `;`, and a `;` inside a comment literal does not split.
func TestSchemaStatements(t *testing.T) {
	stmts, err := SchemaStatements()
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) < 100 {
		t.Fatalf("%d statements", len(stmts))
	}
	tables := 0
	for _, s := range stmts {
		if strings.HasSuffix(s, ";") {
			t.Errorf("trailing ';': %s", firstLine(s))
		}
		if strings.HasPrefix(s, "CREATE TABLE") {
			tables++
		}
	}
	if tables < 20 {
		t.Errorf("%d tables", tables)
	}
	got := splitScript("COMMENT ON TABLE T IS 'a; b;\nc';\nCREATE INDEX I ON T (A); -- done\n")
	if len(got) != 2 || got[0] != "COMMENT ON TABLE T IS 'a; b;\nc'" || got[1] != "CREATE INDEX I ON T (A)" {
		t.Errorf("split %q", got)
	}
}
