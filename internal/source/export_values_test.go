package source

import "time"

// SetFirstRows sets how many rows the first read of a column's values and
// a probe take; call it before any value is asked for.
func SetFirstRows(s *Source, n int) { s.values.firstRows = n }

// SetDeferAtMost sets how long at most the scan of a big table waits for
// a statement of the source's users; call it before any value is asked for.
func SetDeferAtMost(s *Source, d time.Duration) { s.values.deferAtMost = d }

// DeferredScans returns how many first loads wait for a statement of the
// source's users to end before they read their whole table.
func DeferredScans(s *Source) int {
	s.values.mu.Lock()
	defer s.values.mu.Unlock()
	return s.values.deferred
}

// ScansReleased reports whether the deferred scans of big tables may
// start (a statement of the source's users has ended, or a caller needed
// a whole list).
func ScansReleased(s *Source) bool {
	select {
	case <-s.values.served:
		return true
	default:
		return false
	}
}

// UserStatements returns how many statements of the source's users run.
func UserStatements(s *Source) int64 { return s.values.users.Load() }

// StatementConns returns how many connections the statement pool holds.
func StatementConns(s *Source) int {
	p, err := s.execPool()
	if err != nil {
		return 0
	}
	return p.db.Stats().OpenConnections
}

// HeadReads returns how many first reads of columns' values the source
// has run (a read of a table for several columns counts once).
func HeadReads(s *Source) int {
	s.values.mu.Lock()
	defer s.values.mu.Unlock()
	return s.values.headReads
}

// ScanPeak returns the most reads of whole tables' columns that ran at
// once on the source.
func ScanPeak(s *Source) int {
	s.values.mu.Lock()
	defer s.values.mu.Unlock()
	return s.values.scanPeak
}
