// Package shard runs counts that outgrow one machine or one session.
//
// The work plan of internal/fastcount is a deterministic list of independent
// sub-problems, identified by a hash of (engine version, n, sub-problems).
// This package
//
//   - assigns the sub-problems to K shards, balanced by their estimated cost
//     (Assign);
//   - records a shard's sums in a result file sealed by a checksum over its
//     content (Result, WriteResult, ReadResult);
//   - merges the result files of a plan, refusing missing, duplicated,
//     foreign (not of the plan most files share) or corrupted shards and
//     detecting overflow (Merge);
//   - counts a set of sub-problems with periodic checkpoints written
//     atomically, so that a run killed at any instant resumes where its
//     last checkpoint left it (Count, Checkpoint).
//
// Files are JSON: readable with any tool, small (ids are stored as ranges),
// and written through a temporary file, fsync and rename (package atomicfile).
package shard
