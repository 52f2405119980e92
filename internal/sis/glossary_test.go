package sis_test

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// docs/decode.md's Glossary table is sis.Glossary, row for row.
func TestGlossaryDocs(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/decode.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Glossary\n")
	if !ok {
		t.Fatal("docs/decode.md has no Glossary section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	got := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([A-Z]{4})` \\| (.*) \\|$").FindAllStringSubmatch(sec, -1) {
		got[m[1]] = m[2]
	}
	var want []string
	for code, meaning := range sis.Glossary {
		want = append(want, fmt.Sprintf("| `%s` | %s |", code, meaning))
		if got[code] != meaning {
			t.Errorf("docs/decode.md Glossary: %s is %q, sis.Glossary says %q", code, got[code], meaning)
		}
	}
	if len(got) != len(sis.Glossary) {
		t.Errorf("docs/decode.md Glossary has %d codes, sis.Glossary %d", len(got), len(sis.Glossary))
	}
	if t.Failed() {
		sort.Strings(want)
		t.Logf("the table as it should be:\n%s", strings.Join(want, "\n"))
	}
}
