package shard

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/nqueens/nqueens/internal/fastcount"
)

// Merged is the sum of every shard of a plan.
type Merged struct {
	Plan, Engine                   string
	N, Shards, Subs                int
	Total, Unique, Burnside, Nodes uint64   // Unique = Burnside/8
	Seconds                        float64  // counting time summed over the shards (CPU-ish time × workers)
	Files                          []string // the result files, by shard
	Versions                       []string // the distinct program versions that counted
}

// MergeError lists every reason a merge was refused.
type MergeError struct{ Problems []string }

func (e *MergeError) Error() string {
	return "merge refused: " + strings.Join(e.Problems, "; ")
}

// Merge reads the result files at paths and sums them. It refuses, with a
// MergeError naming the files, when a file cannot be read, is truncated or
// fails its checksum, comes from another plan or shard count than the
// first readable one, duplicates a shard, when a shard is missing, when the
// sub-problems of the shards overlap or leave a gap, when a sum overflows
// uint64, and when the Burnside numerators do not add up to a multiple of 8
// (then some shard counted wrong).
func Merge(paths []string) (*Merged, error) {
	var problems []string
	add := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	var rs []*Result
	var files []string
	for _, p := range paths {
		r, err := ReadResult(p)
		if err != nil {
			add("%v", err)
			continue
		}
		rs = append(rs, r)
		files = append(files, p)
	}
	if len(rs) == 0 {
		if len(problems) == 0 {
			add("no result files")
		}
		return nil, &MergeError{problems}
	}
	ref, refFile := rs[0], files[0]
	m := &Merged{Plan: ref.Plan, Engine: ref.Engine, N: ref.N, Shards: ref.Shards, Subs: ref.Subs}
	m.Files = make([]string, ref.Shards)
	byShard := make([]*Result, ref.Shards)
	for k, r := range rs {
		f := files[k]
		samePlan := r.Plan == ref.Plan && r.N == ref.N && r.Subs == ref.Subs && r.Engine == ref.Engine
		switch {
		case samePlan && r.Shards != ref.Shards:
			add("%s is shard %d of %d, %s is of %d: the plan is the same, the number of shards is not",
				f, r.Shard, r.Shards, refFile, ref.Shards)
			continue
		case !samePlan:
			add("%s is from another plan (n=%d, %d shards, plan %.12s) than %s (n=%d, %d shards, plan %.12s)",
				f, r.N, r.Shards, r.Plan, refFile, ref.N, ref.Shards, ref.Plan)
			continue
		}
		if prev := m.Files[r.Shard]; prev != "" {
			add("shard %d of %d appears twice: %s and %s", r.Shard, r.Shards, prev, f)
			continue
		}
		m.Files[r.Shard], byShard[r.Shard] = f, r
	}
	var missing []string
	for i, f := range m.Files {
		if f == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		if len(missing) > 12 {
			missing = append(missing[:12], fmt.Sprintf("… (%d in all)", len(missing)))
		}
		add("missing shard(s) %s of %d (shards are numbered 0..%d)", strings.Join(missing, ", "), ref.Shards, ref.Shards-1)
	}
	if len(problems) > 0 {
		return nil, &MergeError{problems}
	}

	// Every sub-problem of the plan exactly once.
	owner := make([]int, ref.Subs)
	for i := range owner {
		owner[i] = -1
	}
	for s, r := range byShard {
		for _, x := range r.IDs {
			for id := x[0]; id <= x[1]; id++ {
				if o := owner[id]; o >= 0 {
					add("sub-problem %d is counted by both %s and %s", id, m.Files[o], m.Files[s])
					if len(problems) >= 5 {
						return nil, &MergeError{problems}
					}
					continue
				}
				owner[id] = s
			}
		}
	}
	var gaps []int
	for id, o := range owner {
		if o < 0 {
			gaps = append(gaps, id)
		}
	}
	if len(gaps) > 0 {
		add("%d sub-problem(s) counted by no shard: %s", len(gaps), RangesOf(gaps))
	}
	if len(problems) > 0 {
		return nil, &MergeError{problems}
	}

	var carry uint64
	for _, r := range byShard {
		var c1, c2 uint64
		m.Total, c1 = bits.Add64(m.Total, r.Total, 0)
		m.Burnside, c2 = bits.Add64(m.Burnside, r.Burnside, 0)
		carry |= c1 | c2
		m.Nodes = addSat(m.Nodes, r.Nodes)
		m.Seconds += r.Seconds
		if !slices.Contains(m.Versions, r.Version) {
			m.Versions = append(m.Versions, r.Version)
		}
	}
	if carry != 0 {
		return nil, &MergeError{[]string{"the sums overflow uint64: the shard counts cannot all be right"}}
	}
	u, err := fastcount.Unique(m.Burnside)
	if err != nil {
		return nil, &MergeError{[]string{fmt.Sprintf("the Burnside sum %d of the shards is not a multiple of 8: a shard count is wrong", m.Burnside)}}
	}
	m.Unique = u
	return m, nil
}

// addSat is a+b, or the largest uint64 if that overflows: node counts are
// statistics, and saturating them must not refuse a merge.
func addSat(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return ^uint64(0)
	}
	return s
}
