package cluster

import (
	"encoding/json"

	"github.com/nqueens/nqueens/internal/u128"
)

// kernelUnknown is the kernel of a file of format version 2 or 3, which
// does not say which kernel counted (nor does a checkpoint of those versions
// with sub-problems done, resumed by this one).
const kernelUnknown = "unknown"

// The files of format version 2 (nqueens-shard/2, nqueens-checkpoint/2), written by the
// same engine (qjoin/v2) before version 3 renamed subs to plan_subs and dropped nodes:
// merge, the skip of a finished shard and resume read them, checksum included, so that a
// run begun with the previous build ends with this one. Nothing writes them.
const (
	resultFormatV2     = "nqueens-shard/2"
	checkpointFormatV2 = "nqueens-checkpoint/2"
)

// resultV2 is a result file of version 2, field for field (the checksum covers them in
// this order).
type resultV2 struct {
	Format   string  `json:"format"`
	Plan     string  `json:"plan"`
	Engine   string  `json:"engine"`
	N        int     `json:"n"`
	Shard    int     `json:"shard"`
	Shards   int     `json:"shards"`
	Subs     int     `json:"subs"`
	IDs      ranges  `json:"ids"`
	Total    uint64  `json:"total"`
	Burnside uint64  `json:"burnside"`
	Nodes    uint64  `json:"nodes"`
	Seconds  float64 `json:"seconds"`
	Workers  int     `json:"workers"`
	Version  string  `json:"version"`
	Host     string  `json:"host,omitempty"`
	Finished string  `json:"finished"`
	Checksum string  `json:"checksum"`
}

// checkpointV2 is a checkpoint of version 2, field for field.
type checkpointV2 struct {
	Format   string  `json:"format"`
	Plan     string  `json:"plan"`
	Engine   string  `json:"engine"`
	N        int     `json:"n"`
	Shard    int     `json:"shard"`
	Shards   int     `json:"shards"`
	Subs     int     `json:"subs"`
	Todo     ranges  `json:"todo"`
	Done     ranges  `json:"done"`
	Total    uint64  `json:"total"`
	Burnside uint64  `json:"burnside"`
	Nodes    uint64  `json:"nodes"`
	Seconds  float64 `json:"seconds"`
	Runs     int     `json:"runs"`
	Complete bool    `json:"complete"`
	Version  string  `json:"version"`
	Written  string  `json:"written"`
	Checksum string  `json:"checksum"`
}

// The files of format version 3 (nqueens-shard/3, nqueens-checkpoint/3), written by the
// same engine before version 4 recorded the kernel: read as version 2 is, with the
// kernel kernelUnknown. Nothing writes them.
const (
	resultFormatV3     = "nqueens-shard/3"
	checkpointFormatV3 = "nqueens-checkpoint/3"
)

// resultV3 is a result file of version 3, field for field.
type resultV3 struct {
	Format   string    `json:"format"`
	Plan     string    `json:"plan"`
	Engine   string    `json:"engine"`
	N        int       `json:"n"`
	Shard    int       `json:"shard"`
	Shards   int       `json:"shards"`
	Subs     int       `json:"plan_subs"`
	IDs      ranges    `json:"ids"`
	Total    u128.U128 `json:"total"`
	Burnside u128.U128 `json:"burnside"`
	Seconds  float64   `json:"seconds"`
	Workers  int       `json:"workers"`
	Version  string    `json:"version"`
	Host     string    `json:"host,omitempty"`
	Finished string    `json:"finished"`
	Checksum string    `json:"checksum"`
}

// checkpointV3 is a checkpoint of version 3, field for field.
type checkpointV3 struct {
	Format   string    `json:"format"`
	Plan     string    `json:"plan"`
	Engine   string    `json:"engine"`
	N        int       `json:"n"`
	Shard    int       `json:"shard"`
	Shards   int       `json:"shards"`
	Subs     int       `json:"plan_subs"`
	Todo     ranges    `json:"todo"`
	Done     ranges    `json:"done"`
	Total    u128.U128 `json:"total"`
	Burnside u128.U128 `json:"burnside"`
	Seconds  float64   `json:"seconds"`
	Runs     int       `json:"runs"`
	Complete bool      `json:"complete"`
	Version  string    `json:"version"`
	Written  string    `json:"written"`
	Checksum string    `json:"checksum"`
}

// readResultV3 reads a result file of version 3 into r, in the current layout.
func readResultV3(data []byte, r *result) error {
	var v resultV3
	if err := unseal(data, &v, &v.Checksum); err != nil {
		return err
	}
	*r = result{Format: resultFormat, Plan: v.Plan, Engine: v.Engine, N: v.N, Shard: v.Shard, Shards: v.Shards,
		Subs: v.Subs, IDs: v.IDs, Total: v.Total, Burnside: v.Burnside, Seconds: v.Seconds, Workers: v.Workers,
		Version: v.Version, Host: v.Host, Kernel: kernelUnknown, Finished: v.Finished, Checksum: v.Checksum}
	return nil
}

// loadCheckpointV3 reads a checkpoint of version 3 into c, in the current layout.
func loadCheckpointV3(data []byte, c *checkpoint) error {
	var v checkpointV3
	if err := unseal(data, &v, &v.Checksum); err != nil {
		return err
	}
	*c = checkpoint{Format: checkpointFormat, Plan: v.Plan, Engine: v.Engine, N: v.N, Shard: v.Shard, Shards: v.Shards,
		Subs: v.Subs, Todo: v.Todo, Done: v.Done, Total: v.Total, Burnside: v.Burnside, Seconds: v.Seconds,
		Runs: v.Runs, Complete: v.Complete, Version: v.Version, Written: v.Written, Checksum: v.Checksum}
	if len(v.Done) > 0 {
		c.Kernel = kernelUnknown
	}
	return nil
}

// formatOf is the format a file says it has, "" if it says none.
func formatOf(data []byte) string {
	var head struct {
		Format string `json:"format"`
	}
	json.Unmarshal(data, &head)
	return head.Format
}

// readResultV2 reads a result file of version 2 into r, in the current layout.
func readResultV2(data []byte, r *result) error {
	var v resultV2
	if err := unseal(data, &v, &v.Checksum); err != nil {
		return err
	}
	*r = result{Format: resultFormat, Plan: v.Plan, Engine: v.Engine, N: v.N, Shard: v.Shard, Shards: v.Shards,
		Subs: v.Subs, IDs: v.IDs, Total: u128.From(v.Total), Burnside: u128.From(v.Burnside), Seconds: v.Seconds, Workers: v.Workers,
		Version: v.Version, Host: v.Host, Kernel: kernelUnknown, Finished: v.Finished, Checksum: v.Checksum}
	return nil
}

// loadCheckpointV2 reads a checkpoint of version 2 into c, in the current layout (it is
// saved in it at its next write).
func loadCheckpointV2(data []byte, c *checkpoint) error {
	var v checkpointV2
	if err := unseal(data, &v, &v.Checksum); err != nil {
		return err
	}
	*c = checkpoint{Format: checkpointFormat, Plan: v.Plan, Engine: v.Engine, N: v.N, Shard: v.Shard, Shards: v.Shards,
		Subs: v.Subs, Todo: v.Todo, Done: v.Done, Total: u128.From(v.Total), Burnside: u128.From(v.Burnside), Seconds: v.Seconds,
		Runs: v.Runs, Complete: v.Complete, Version: v.Version, Written: v.Written, Checksum: v.Checksum}
	if len(v.Done) > 0 {
		c.Kernel = kernelUnknown
	}
	return nil
}
