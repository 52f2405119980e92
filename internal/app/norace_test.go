//go:build !race

package app

// raceBuild: see race_test.go.
const raceBuild = false
