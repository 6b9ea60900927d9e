package main

import (
	"testing"

	"github.com/nqueens/nqueens/internal/shard"
)

// TestShardFileNames: the names the command gives a shard's files (in its messages, and
// merge's glob) are those the library writes.
func TestShardFileNames(t *testing.T) {
	for _, c := range [][2]int{{0, 1}, {3, 8}, {4095, 4096}} {
		i, k := c[0], c[1]
		for ext, want := range map[string]string{"json": shard.FileName(i, k), "checkpoint": shard.CheckpointName(i, k), "lock": shard.LockName(i, k)} {
			if got := shardFileName(i, k, ext); got != want {
				t.Errorf("shard %d/%d, %s: %s, the library writes %s", i, k, ext, got, want)
			}
		}
	}
}
