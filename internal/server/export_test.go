package server

// SetStreamOpened sets a function run when an event stream has been
// registered, before it is used.
func SetStreamOpened(s *Server, f func()) { s.streamOpened = f }

// LimitedUsers reports how many users the rate limiter holds.
func LimitedUsers(s *Server) int { return s.limits.size() }
