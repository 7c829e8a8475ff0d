//go:build race

package demo_test

const raceEnabled = true
