package server

import "context"

// SetBeforeWrite makes s call fn after it serves an early snapshot and
// before that snapshot's store write starts: tests hold the write there to
// observe the not-yet-durable state for certain, not by timing.
func SetBeforeWrite(s *Service, fn func()) { s.beforeWrite = fn }

// SetUpdating makes s call fn when it starts updating its snapshot while
// an ingest's store write runs: tests hold the write until the update has
// started, to see that one does not wait for the other.
func SetUpdating(s *Service, fn func()) { s.updating = fn }

// SetBeforeRecord makes s call fn with the version an ingest or triage
// write committed, before s records its tallies after the commit: tests
// see there what the write's own transaction recorded.
func SetBeforeRecord(s *Service, fn func(v int64)) { s.beforeRecord = fn }

// SetPreparing makes s call fn when a full ingest that a watch round may
// interrupt starts preparing, with the context the round cancels: tests
// hold the full ingest there to see that a watched edit does not wait.
func SetPreparing(s *Service, fn func(ctx context.Context)) { s.preparing = fn }

// MaxYields is maxYields for the tests of the yield.
const MaxYields = maxYields
