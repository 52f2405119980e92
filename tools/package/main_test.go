package main

import "testing"

func TestDebVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.3":                  "1.2.3",
		"1.2":                     "1.2",
		"v1.2.3-4-gabc1234":       "1.2.3+4.gabc1234",
		"v1.2.3-4-gabc1234-dirty": "1.2.3+4.gabc1234.dirty",
		"2b8a195":                 "0.0.0+git.2b8a195",
		"1234567":                 "0.0.0+git.1234567",
		"abc1234-dirty":           "0.0.0+git.abc1234.dirty",
		"dev":                     "0.0.0+git.dev",
		"v1.0.0+meta":             "1.0.0+meta",
		"3.1a":                    "0.0.0+git.3.1a",
		"v2.0.0-rc.1":             "2.0.0~rc.1",
	} {
		if got := DebVersion(in); got != want {
			t.Errorf("DebVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestContractsArePackaged: the contracts ship beside the docs with the
// flight schema at the relative path they refer to it by, and docs/*.go
// (which only embeds them) does not.
func TestContractsArePackaged(t *testing.T) {
	info, err := describe("../..", "/bin/true", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	dst := map[string]bool{}
	for _, c := range info.Contents {
		dst[c.Destination] = true
	}
	for _, want := range []string{"openapi.yaml", "asyncapi.yaml", "schema/flight.schema.json", "api.md"} {
		if !dst["/usr/share/doc/msgx/docs/"+want] {
			t.Errorf("docs/%s is not packaged", want)
		}
	}
	if dst["/usr/share/doc/msgx/docs/contracts.go"] {
		t.Error("docs/contracts.go is packaged")
	}
}
