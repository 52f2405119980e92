// Package doccheck holds the tests that keep the README and docs/ honest:
// the README fits on a screen, every relative link resolves, and
// docs/console.png was taken of the console as it is. It has no code.
package doccheck
