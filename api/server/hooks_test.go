package server

// SetBeforeWrite makes s call fn after it serves an early snapshot and
// before that snapshot's store write starts: tests hold the write there to
// observe the not-yet-durable state for certain, not by timing.
func SetBeforeWrite(s *Service, fn func()) { s.beforeWrite = fn }
