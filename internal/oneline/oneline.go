// Package oneline puts multi-line texts — driver errors, stored reasons — on
// one line, for one-line CLI errors, logs and reports.
package oneline

import (
	"slices"
	"strings"
)

// Err is err's text on one line: every run of whitespace is one space, and
// a line repeated (pgx lists each connect attempt, often the same one
// twice) appears once.
func Err(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" && !slices.Contains(parts, l) {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// Text is s on one line, at most n characters (a cut is marked with …;
// n ≤ 0: no limit).
func Text(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); n > 0 && len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
