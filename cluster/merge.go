package cluster

import (
	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/shard"
)

// ResultFile is the name of the result file of shard i of k in its directory, as
// CountShard writes it: shard-0003-of-0008.json for i = 3, k = 8.
func ResultFile(i, k int) string { return shard.FileName(i, k) }

// CheckpointFile is the name of the checkpoint of shard i of k in its directory, as
// CountShard writes it by default: shard-0003-of-0008.checkpoint for i = 3, k = 8.
func CheckpointFile(i, k int) string { return shard.CheckpointName(i, k) }

// ResultPaths lists the result files named by args, for MergeShards and AuditShards: a
// directory stands for its result files (shard-*.json), and is an error when it holds
// none; anything else stands for itself.
func ResultPaths(args []string) ([]string, error) { return shard.ResultPaths(args) }

// MergeResult is the sum of every shard of a plan.
type MergeResult struct {
	PlanHash, Engine        string // the plan's Hash and Engine
	N, Shards, Subs         int    // Subs: the plan's sub-problems, every one counted once
	Total, Unique, Burnside nqueens.Uint128
	Seconds                 float64  // counting time summed over the shards
	Files                   []string // the result files, by shard
	Versions                []string // the distinct program versions that counted

	results []*shard.Result // the files' content, by shard, for RequireAudit
}

// MergeError lists every reason a merge was refused, naming the files.
type MergeError = shard.MergeError

// MergeShards reads the result files at paths and sums them. It refuses, with a
// *MergeError naming the files, when a file cannot be read, is truncated or fails its
// checksum, comes from another plan or shard count, duplicates a shard, when a shard is
// missing (saying so when its checkpoint is beside the files: an interrupted shard),
// when the sub-problems of the shards overlap or leave a gap, when a sum overflows, and
// when the Burnside numerators do not add up to a multiple of 8. It reads result files of
// the previous formats (nqueens-shard/2 and /3) as well.
func MergeShards(paths []string) (MergeResult, error) {
	m, err := shard.Merge(paths)
	if err != nil {
		return MergeResult{}, err
	}
	return MergeResult{PlanHash: m.Plan, Engine: m.Engine, N: m.N, Shards: m.Shards, Subs: m.Subs,
		Total: m.Total, Unique: m.Unique, Burnside: m.Burnside, Seconds: m.Seconds,
		Files: m.Files, Versions: m.Versions, results: m.Results}, nil
}
