package shard

import "github.com/nqueens/nqueens/internal/atomicfile"

// WriteFileAtomic replaces path with data so that a crash at any instant leaves either the
// old file or the new one, never a mix (see package atomicfile).
func WriteFileAtomic(path string, data []byte) error { return atomicfile.WriteBytes(path, data) }
