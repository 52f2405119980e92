// Command contracts-diff compares msgx's contracts (docs/openapi.yaml,
// docs/asyncapi.yaml, docs/schema/flight.schema.json) with those of the last
// release (the newest tag v*, or -base) and fails on a change that can
// break a client unless the contract's major version was raised (the rule
// of docs/events.md, Compatibility). The flight schema, which both
// contracts reference, needs both raised. Run by `make contracts-diff`.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"go.yaml.in/yaml/v3"
)

func main() {
	base := flag.String("base", "", "git ref of the last release (default: the newest tag v*)")
	flag.Parse()
	if *base == "" {
		out, err := exec.Command("git", "describe", "--tags", "--abbrev=0", "--match", "v*").Output()
		if err != nil {
			fmt.Println("contracts-diff: no release tag v*: nothing to compare with")
			return
		}
		*base = strings.TrimSpace(string(out))
	}
	files := []string{"docs/openapi.yaml", "docs/asyncapi.yaml", "docs/schema/flight.schema.json"}
	old, next := map[string]any{}, map[string]any{}
	for _, f := range files {
		o, err := exec.Command("git", "show", *base+":"+f).Output()
		if err != nil {
			fmt.Printf("contracts-diff: %s is not in %s: nothing to compare with\n", f, *base)
			continue
		}
		n, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		if old[f], err = parse(o); err != nil {
			fail(fmt.Errorf("%s at %s: %w", f, *base, err))
		}
		if next[f], err = parse(n); err != nil {
			fail(fmt.Errorf("%s: %w", f, err))
		}
	}
	bumped := func(f string) bool { _, ok := old[f]; return !ok || major(next[f]) > major(old[f]) }
	allowed := map[string]bool{files[0]: bumped(files[0]), files[1]: bumped(files[1]),
		files[2]: bumped(files[0]) && bumped(files[1])}
	bad := 0
	for _, f := range files {
		if _, ok := old[f]; !ok {
			continue
		}
		for _, b := range breaking(old[f], next[f]) {
			if allowed[f] {
				fmt.Printf("%s%s (breaking, allowed: major version raised)\n", f, b)
				continue
			}
			fmt.Printf("%s%s: breaking\n", f, b)
			bad++
		}
	}
	if bad > 0 {
		fail(fmt.Errorf("%d breaking changes since %s: keep them compatible or raise the major info.version (docs/events.md, Compatibility)", bad, *base))
	}
	fmt.Printf("contracts-diff: compatible with %s\n", *base)
}

// parse reads YAML or JSON into plain maps and lists.
func parse(b []byte) (any, error) {
	var y any
	if err := yaml.Unmarshal(b, &y); err != nil {
		return nil, err
	}
	j, err := json.Marshal(y) // YAML's numbers and keys as JSON's
	if err != nil {
		return nil, err
	}
	var v any
	return v, json.Unmarshal(j, &v)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "contracts-diff:", err)
	os.Exit(1)
}
