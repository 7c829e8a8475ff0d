// Package leaktest finds goroutines that outlive the code that started
// them, for tests of Close and Shutdown: a test names the package or
// method whose goroutines must be gone, and leaktest reads every
// goroutine's stack for a frame of it. It is imported only by _test.go
// files.
package leaktest
