// Package cluster counts the boards too big for one run of nqueens.Count: a count is a
// fixed Plan of independent sub-problems, which can be counted with a checkpoint file
// that survives interruptions (CountCheckpointed), or split into K balanced shards
// counted anywhere, each into its result file (CountShard), and the shards merged with
// checks (MergeShards). ReadRunStatus says how far a sharded count has come, from its
// files alone.
//
// A checksum proves a shard's result file, not its sums: a node with a bad core or a bad
// build writes a well-formed file with a wrong sum. AuditShards counts a sample of the
// finished shards again, each with another matcher kernel than the one its file says
// counted it, compares, and leaves a sealed record that RequireAudit asks of a merge.
//
// The command's "count --shard", "merge", "status" and "audit" are this package;
// docs/cluster.md shows them on Slurm, Kubernetes and GNU parallel. A count that fits
// one run is nqueens.Count; MaxCountN and CountMemory, which hold for both, are the
// root's; ShardMemory bounds one shard's memory alone.
//
// The files (result files, checkpoints, audit records) are JSON, readable with any tool
// and small (sub-problem ids are stored as ranges, "0-4,9,12-15"), sealed by a
// "checksum": "sha256:" and the hex SHA-256 of the compact JSON of the content with the
// checksum empty, and written whole: through a temporary file, fsync and rename, so that
// a run killed at any instant leaves the previous file or the new one.
package cluster
