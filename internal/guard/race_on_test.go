//go:build race

package guard_test

const raceEnabled = true
