//go:build race

package app

// raceBuild: this test binary has the race detector, so the msgx binary the
// real-process tests run is built with it too. Besides checking the binary
// for races, that reuses the packages `go test -race` has just compiled: a
// plain build would compile every dependency a second time (a minute on two
// cores).
const raceBuild = true
