// Package depcheck lets a package's test keep the package's dependency
// boundaries (issue #22): it lists the package's imports, direct and
// transitive, as the go tool resolves them for a build (test files not
// included) and fails on a forbidden one.
package depcheck

import (
	"os/exec"
	"strings"
	"testing"
)

// Forbid fails t when the package in the test's working directory (the
// package under test) depends, directly or not, on a package whose import
// path equals or lies under one of prefixes.
func Forbid(t testing.TB, prefixes ...string) {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for dep := range strings.FieldsSeq(string(out)) {
		for _, p := range prefixes {
			if dep == p || strings.HasPrefix(dep, p+"/") {
				t.Errorf("imports %s (forbidden: %s)", dep, p)
			}
		}
	}
}

// ForbidDirect fails t when the package under test itself imports a package
// whose import path equals or lies under one of prefixes: for a package it
// may reach only through another (the backfiller reaches internal/flight
// through the store's types, never on its own).
func ForbidDirect(t testing.TB, prefixes ...string) {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-f", `{{range .Imports}}{{.}} {{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for imp := range strings.FieldsSeq(string(out)) {
		for _, p := range prefixes {
			if imp == p || strings.HasPrefix(imp, p+"/") {
				t.Errorf("imports %s (forbidden: %s)", imp, p)
			}
		}
	}
}
