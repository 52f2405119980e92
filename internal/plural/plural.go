// Package plural writes a count with its noun: "1 message", "2 messages".
// One copy for every count msgx prints to a person.
package plural

import "strconv"

// Count is n and the noun, with an s unless n is 1 (the nouns msgx counts
// are regular: message, warning, statement, migration, id, todo).
func Count[N ~int | ~int64](n N, noun string) string {
	s := strconv.FormatInt(int64(n), 10) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}
