package shard

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"slices"

	"github.com/nqueens/nqueens/internal/fastcount"
)

// MaxShards is the largest number of shards of a count: far more than any
// plan has sub-problems, and small enough that a plan or a file naming it
// cannot make the program allocate without bound.
const MaxShards = 1_000_000

// MaxSubs bounds the sub-problems a checkpoint or result file may claim for
// its plan (every plan has far fewer), for the same reason.
const MaxSubs = 1 << 24

// Assign splits the sub-problems of p among k shards, balanced by their
// estimated cost: longest first, each to the shard with the least cost so far
// (ties to the lowest shard), so the split depends only on the plan. Shard i
// counts Assign(p, k)[i], in increasing id order. Since most sub-problems
// weigh the same, consecutive ids land on different shards, which also
// spreads any drift of the estimate along the list.
func Assign(p *fastcount.Plan, k int) ([][]int, error) {
	if k < 1 || k > MaxShards {
		return nil, fmt.Errorf("shard: %d shards: want 1 to %d", k, MaxShards)
	}
	order := make([]int, len(p.Subs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p.Subs[b].Cost, p.Subs[a].Cost) })
	out := make([][]int, k)
	// The shards by (load, index), least first: a heap, so that a split
	// costs O(subs·log k), not O(subs·k).
	h := make(shardHeap, k)
	for i := range h {
		h[i].shard = i // zero loads in index order: already a heap
	}
	for _, id := range order {
		best := &h[0]
		out[best.shard] = append(out[best.shard], id)
		best.load += uint64(p.Subs[id].Cost)
		heap.Fix(&h, 0)
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out, nil
}

// shardHeap orders shards by their load so far, then by index.
type shardHeap []struct {
	load  uint64
	shard int
}

func (h shardHeap) Len() int { return len(h) }
func (h shardHeap) Less(i, j int) bool {
	return h[i].load < h[j].load || h[i].load == h[j].load && h[i].shard < h[j].shard
}
func (h shardHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *shardHeap) Push(any)     { panic("shardHeap: fixed size") }
func (h *shardHeap) Pop() any     { panic("shardHeap: fixed size") }

// Cost is the estimated cost of the given sub-problems of p.
func Cost(p *fastcount.Plan, ids []int) uint64 {
	var c uint64
	for _, id := range ids {
		c += uint64(p.Subs[id].Cost)
	}
	return c
}

// IndexVars are the environment variables that carry a job array's index, in
// the order IndexFromEnv looks at them: Slurm job arrays, Kubernetes Indexed
// Jobs, AWS Batch array jobs.
var IndexVars = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"}

// ErrNoIndex is returned by IndexFromEnv when no job-array index is set.
var ErrNoIndex = errors.New("no job array index: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX is set")

// IndexFromEnv returns the shard index of this process from the first of
// IndexVars that getenv reports non-empty, and the variable's name. The
// value must be a decimal integer in 0..k-1.
func IndexFromEnv(getenv func(string) string, k int) (int, string, error) {
	for _, name := range IndexVars {
		v := getenv(name)
		if v == "" {
			continue
		}
		i, err := parseIndex(v)
		if err != nil {
			return 0, name, fmt.Errorf("%s=%q: %v", name, v, err)
		}
		if i >= k {
			return 0, name, fmt.Errorf("%s=%d is not a shard of %d: shards are numbered 0..%d (Slurm: --array=0-%d)", name, i, k, k-1, k-1)
		}
		return i, name, nil
	}
	return 0, "", ErrNoIndex
}

// parseIndex reads a non-negative decimal index.
func parseIndex(s string) (int, error) {
	if len(s) > 9 {
		return 0, errors.New("not a shard index")
	}
	i := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, errors.New("not a shard index (want 0, 1, 2...)")
		}
		i = 10*i + int(c-'0')
	}
	return i, nil
}
