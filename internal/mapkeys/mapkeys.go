// Package mapkeys lists the keys of maps compared side by side (a flight's
// versions, two sites' states, two JSON objects): one sorted copy of each
// key either map has.
package mapkeys

import (
	"cmp"
	"slices"
)

// Union is every key of a or b, once, in ascending order.
func Union[K cmp.Ordered, V, W any](a map[K]V, b map[K]W) []K {
	keys := make([]K, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
