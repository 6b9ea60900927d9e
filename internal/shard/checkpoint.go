package shard

import (
	"fmt"
	"os"

	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// CheckpointFormat names the layout of checkpoint files. Version 2 records
// the Burnside numerator of the finished sub-problems instead of a unique
// count (see fastcount.SubResult); version 3 calls the plan's sub-problems
// plan_subs and records no nodes, as result files; version 4 records the
// kernel that counted. LoadCheckpoint reads the three: a count of version 2
// or 3 resumes.
const CheckpointFormat = "nqueens-checkpoint/4"

// Checkpoint is the progress of a count over the sub-problems Todo of a plan:
// which are done, and their sums. A count of the whole board has Shard 0 of
// Shards 1.
type Checkpoint struct {
	Format   string    `json:"format"`
	Plan     string    `json:"plan"`
	Engine   string    `json:"engine"`
	N        int       `json:"n"`
	Shard    int       `json:"shard"`
	Shards   int       `json:"shards"`
	Subs     int       `json:"plan_subs"` // sub-problems in the whole plan
	Todo     Ranges    `json:"todo"`      // the sub-problems of this count
	Done     Ranges    `json:"done"`      // those finished, a subset of Todo
	Total    u128.U128 `json:"total"`
	Burnside u128.U128 `json:"burnside"` // Σ of the sub-problems' Burnside numerators (8 × unique when complete)
	Seconds  float64   `json:"seconds"`  // counting time so far, over every run
	Runs     int       `json:"runs"`     // runs that contributed
	Complete bool      `json:"complete"`
	Version  string    `json:"version"`
	Kernel   string    `json:"kernel"`  // the matcher kernel(s) of the runs so far ("" before the first)
	Written  string    `json:"written"` // RFC 3339 time of the write
	Checksum string    `json:"checksum"`
}

// NewCheckpoint is the state of a count of the sub-problems ids of p, as
// shard i of k, before any work.
func NewCheckpoint(p *fastcount.Plan, i, k int, ids []int) *Checkpoint {
	return &Checkpoint{Format: CheckpointFormat, Plan: p.Hash(), Engine: p.Version(), N: p.N,
		Shard: i, Shards: k, Subs: p.Len(), Todo: RangesOf(ids), Done: Ranges{},
		Complete: len(ids) == 0}
}

// Save seals c with its checksum and writes it atomically to path.
func (c *Checkpoint) Save(path string) error {
	c.Format = CheckpointFormat
	b, err := seal(c, &c.Checksum)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, b)
}

// LoadCheckpoint reads and checks a checkpoint file. Errors name the file.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Checkpoint{}
	switch formatOf(data) {
	case checkpointFormatV2:
		err = loadCheckpointV2(data, c)
	case checkpointFormatV3:
		err = loadCheckpointV3(data, c)
	default:
		err = checkFormat(data, CheckpointFormat)
		if err == nil {
			err = unseal(data, c, &c.Checksum)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

func (c *Checkpoint) check() error {
	if c.Format != CheckpointFormat {
		return fmt.Errorf("format %q, want %q", c.Format, CheckpointFormat)
	}
	if err := checkPlanSize(c.N, c.Shard, c.Shards, c.Subs); err != nil {
		return err
	}
	if err := c.Todo.check(c.Subs); err != nil {
		return err
	}
	if err := c.Done.check(c.Subs); err != nil {
		return err
	}
	todo := newBitset(c.Subs)
	todo.addRanges(c.Todo)
	for _, x := range c.Done {
		for id := x[0]; id <= x[1]; id++ {
			if !todo.has(id) {
				return fmt.Errorf("sub-problem %d is done but not to do", id)
			}
		}
	}
	if c.Complete != (c.Done.Len() == c.Todo.Len()) {
		return fmt.Errorf("complete=%v with %d of %d sub-problems done", c.Complete, c.Done.Len(), c.Todo.Len())
	}
	return nil
}

// Matches tells whether c is the progress of shard i of k of plan p over
// the sub-problems ids; if not, the error says what differs.
func (c *Checkpoint) Matches(p *fastcount.Plan, i, k int, ids []int) error {
	switch {
	case c.N == p.N && c.Engine != p.Version():
		return fmt.Errorf("is %w: written by engine %s, this program counts n=%d with engine %s (the engine/plan version differs, plan %.12s, not %.12s)",
			ErrOtherPlan, c.Engine, p.N, p.Version(), c.Plan, p.Hash())
	case c.Plan != p.Hash() || c.N != p.N:
		return fmt.Errorf("is %w: n=%d plan %.12s, not n=%d plan %.12s", ErrOtherPlan, c.N, c.Plan, p.N, p.Hash())
	case c.Shard != i || c.Shards != k:
		return fmt.Errorf("is the checkpoint of shard %d of %d, not %d of %d", c.Shard, c.Shards, i, k)
	case !c.Todo.Equal(RangesOf(ids)):
		return fmt.Errorf("covers other sub-problems than this count's")
	}
	return nil
}

// Result is the result file content of a complete checkpoint.
func (c *Checkpoint) Result() *Result {
	return &Result{Format: ResultFormat, Plan: c.Plan, Engine: c.Engine, N: c.N, Shard: c.Shard,
		Shards: c.Shards, Subs: c.Subs, IDs: c.Todo, Total: c.Total, Burnside: c.Burnside,
		Seconds: c.Seconds, Version: c.Version, Kernel: c.Kernel}
}

// Unique is the unique count of a complete count of the whole plan (one
// shard of one): Burnside/8, checked to be whole. For a shard or an
// unfinished count it is Burnside/8 rounded down, a share and no count.
func (c *Checkpoint) Unique() (u128.U128, error) {
	if c.Complete && c.Shards == 1 {
		return fastcount.Unique(c.Burnside)
	}
	return c.Burnside.Div8(), nil
}
