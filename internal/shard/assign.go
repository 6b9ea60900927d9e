package shard

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/nqueens/nqueens/internal/fastcount"
)

// Assign splits the sub-problems of p among k shards, balanced by their
// estimated cost: longest first, each to the shard with the least cost so far
// (ties to the lowest shard), so the split depends only on the plan. Shard i
// counts Assign(p, k)[i], in increasing id order. Since most sub-problems
// weigh the same, consecutive ids land on different shards, which also
// spreads any drift of the estimate along the list.
func Assign(p *fastcount.Plan, k int) ([][]int, error) {
	if k < 1 {
		return nil, fmt.Errorf("shard: %d shards: want at least 1", k)
	}
	order := make([]int, len(p.Subs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p.Subs[b].Cost, p.Subs[a].Cost) })
	out := make([][]int, k)
	load := make([]uint64, k)
	for _, id := range order {
		best := 0
		for s := 1; s < k; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		out[best] = append(out[best], id)
		load[best] += uint64(p.Subs[id].Cost)
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out, nil
}

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
