//go:build !linux

package understand_test

import "time"

// threadCPU reports that the thread's CPU time cannot be read here.
func threadCPU() (time.Duration, bool) { return 0, false }
