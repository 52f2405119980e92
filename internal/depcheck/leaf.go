package depcheck

import (
	"os/exec"
	"strings"
	"testing"
)

// Leaf fails t when the package under test imports a package outside the
// standard library that is not under one of allowed, or depends, directly
// or not, on another package of its own module. What an allowed library
// imports in turn is its own affair.
func Leaf(t testing.TB, allowed ...string) {
	t.Helper()
	list := func(args ...string) []string {
		out, err := exec.CommandContext(t.Context(), "go", append([]string{"list"}, args...)...).Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return strings.Fields(string(out))
	}
	self := list("-f", "{{.ImportPath}}", ".")[0]
	for _, imp := range list("-f", `{{range .Imports}}{{.}} {{end}}`, ".") {
		std := !strings.Contains(strings.Split(imp, "/")[0], ".")
		ok := std
		for _, p := range allowed {
			ok = ok || imp == p || strings.HasPrefix(imp, p+"/")
		}
		if !ok {
			t.Errorf("imports %s (allowed: the standard library, %s)", imp, strings.Join(allowed, ", "))
		}
	}
	for _, dep := range list("-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.ImportPath}}{{end}}{{end}}", ".") {
		if dep != self {
			t.Errorf("depends on %s (a leaf depends on no package of its module)", dep)
		}
	}
}
