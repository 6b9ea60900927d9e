package shard

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// Merged is the sum of every shard of a plan.
type Merged struct {
	Plan, Engine            string
	N, Shards, Subs         int
	Total, Unique, Burnside u128.U128 // Unique = Burnside/8
	Seconds                 float64   // counting time summed over the shards (CPU-ish time × workers)
	Files                   []string  // the result files, by shard
	Versions                []string  // the distinct program versions that counted
}

// MergeError lists every reason a merge was refused.
type MergeError struct{ Problems []string }

func (e *MergeError) Error() string {
	return "merge refused: " + strings.Join(e.Problems, "; ")
}

// Merge reads the result files at paths and sums them. It refuses, with a
// MergeError naming the files, when a file cannot be read, is truncated or
// fails its checksum, comes from another plan or shard count than most
// files (the odd ones out are named; with no majority, every group is),
// duplicates a shard, when a shard is missing, when the
// sub-problems of the shards overlap or leave a gap, when a sum overflows
// 128 bits, and when the Burnside numerators do not add up to a multiple of
// 8 (then some shard counted wrong).
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
	major, ok := majority(rs)
	if !ok {
		add("the files are from %s", describeGroups(rs, files))
		return nil, &MergeError{problems}
	}
	ref, refFile := rs[major[0]], files[major[0]]
	most := filesLike(len(major), refFile)
	m := &Merged{Plan: ref.Plan, Engine: ref.Engine, N: ref.N, Shards: ref.Shards, Subs: ref.Subs}
	m.Files = make([]string, ref.Shards)
	byShard := make([]*Result, ref.Shards)
	for k, r := range rs {
		f := files[k]
		samePlan := r.Plan == ref.Plan && r.N == ref.N && r.Subs == ref.Subs && r.Engine == ref.Engine
		switch {
		case samePlan && r.Shards != ref.Shards:
			add("%s is shard %d of %d, not of %d as the other %s: the plan is the same, the number of shards is not",
				f, r.Shard, r.Shards, ref.Shards, most)
			continue
		case !samePlan:
			add("%s is from another plan (n=%d, %d shards, plan %.12s) than the other %s (n=%d, %d shards, plan %.12s)",
				f, r.N, r.Shards, r.Plan, most, ref.N, ref.Shards, ref.Plan)
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
		var started []string // missing shards with a checkpoint beside the files
		for _, id := range missing {
			if len(started) < 12 {
				i, _ := strconv.Atoi(id)
				if s := checkpointBeside(files, i, ref.Shards); s != "" {
					started = append(started, s)
				}
			}
		}
		if len(missing) > 12 {
			missing = append(missing[:12], fmt.Sprintf("… (%d in all)", len(missing)))
		}
		add("missing shard(s) %s of %d (shards are numbered 0..%d)", strings.Join(missing, ", "), ref.Shards, ref.Shards-1)
		for _, s := range started {
			add("%s", s)
		}
	}
	if len(problems) > 0 {
		return nil, &MergeError{problems}
	}

	// Every sub-problem of the plan exactly once (a bit each; the first
	// owner of a sub-problem counted twice is found again in the files).
	seen := newBitset(ref.Subs)
	owner := func(id int) int {
		for s, r := range byShard {
			if r.IDs.Contains(id) {
				return s
			}
		}
		return -1
	}
	for s, r := range byShard {
		for _, x := range r.IDs {
			for id := x[0]; id <= x[1]; id++ {
				if seen.has(id) {
					add("sub-problem %d is counted by both %s and %s", id, m.Files[owner(id)], m.Files[s])
					if len(problems) >= 5 {
						return nil, &MergeError{problems}
					}
					continue
				}
				seen.add(id)
			}
		}
	}
	var gaps []int
	for id := 0; id < ref.Subs; id++ {
		if !seen.has(id) {
			gaps = append(gaps, id)
		}
	}
	if len(gaps) > 0 {
		add("%d sub-problem(s) counted by no shard: %s", len(gaps), RangesOf(gaps))
	}
	if len(problems) > 0 {
		return nil, &MergeError{problems}
	}

	carry := false
	for _, r := range byShard {
		var c1, c2 bool
		m.Total, c1 = m.Total.Add(r.Total)
		m.Burnside, c2 = m.Burnside.Add(r.Burnside)
		carry = carry || c1 || c2
		m.Seconds += r.Seconds
		if !slices.Contains(m.Versions, r.Version) {
			m.Versions = append(m.Versions, r.Version)
		}
	}
	if carry {
		return nil, &MergeError{[]string{"the sums overflow 128 bits: the shard counts cannot all be right"}}
	}
	u, err := fastcount.Unique(m.Burnside)
	if err != nil {
		return nil, &MergeError{[]string{fmt.Sprintf("the Burnside sum %v of the shards is not a multiple of 8: a shard count is wrong", m.Burnside)}}
	}
	m.Unique = u
	return m, nil
}

// checkpointBeside looks for the checkpoint of shard i of k in the directories of files:
// a shard that was interrupted has one, and the merge says so ("shard 1 was interrupted,
// checkpoint present: DIR/shard-0001-of-0002.checkpoint, 12 of 1687 sub-problems done;
// run it again to finish it"), or "" when there is none.
func checkpointBeside(files []string, i, k int) string {
	seen := map[string]bool{}
	for _, f := range files {
		dir := filepath.Dir(f)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		path := filepath.Join(dir, CheckpointName(i, k))
		if _, err := os.Stat(path); err != nil {
			continue
		}
		held := "unreadable"
		if c, err := LoadCheckpoint(path); err == nil {
			held = fmt.Sprintf("%d of %d sub-problems done", c.Done.Len(), c.Todo.Len())
		}
		return fmt.Sprintf("shard %d was interrupted, checkpoint present: %s (%s); run the shard again to finish it", i, path, held)
	}
	return ""
}

// planOf is what the files of one merge must share: the plan and the shard count.
type planOf struct {
	plan, engine    string
	n, subs, shards int
}

func keyOf(r *Result) planOf {
	return planOf{plan: r.Plan, engine: r.Engine, n: r.N, subs: r.Subs, shards: r.Shards}
}

// majority returns the indices of the results of the plan and shard count that most
// of rs share, so that one foreign file among good ones is the one named, whatever its
// place in the list; ok is false when two groups tie for the most.
func majority(rs []*Result) (idx []int, ok bool) {
	groups := map[planOf][]int{}
	for i, r := range rs {
		groups[keyOf(r)] = append(groups[keyOf(r)], i)
	}
	ties := 0
	for _, g := range groups {
		switch {
		case len(g) > len(idx):
			idx, ties = g, 0
		case len(g) == len(idx):
			ties++
		}
	}
	return idx, ties == 0
}

// describeGroups lists the plans and shard counts of rs with their files, in the order
// they first appear.
func describeGroups(rs []*Result, files []string) string {
	var order []planOf
	groups := map[planOf][]string{}
	for i, r := range rs {
		k := keyOf(r)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], files[i])
	}
	parts := make([]string, len(order))
	for i, k := range order {
		fs := groups[k]
		if len(fs) > 3 {
			fs = append(fs[:3:3], fmt.Sprintf("… (%d in all)", len(groups[k])))
		}
		parts[i] = fmt.Sprintf("n=%d, %d shards, plan %.12s: %s", k.n, k.shards, k.plan, strings.Join(fs, ", "))
	}
	return fmt.Sprintf("%d plans or shard counts, and none has more of the files than every other, so none can be taken for the right one: %s",
		len(order), strings.Join(parts, "; "))
}

// filesLike says "N files, such as F", or "file F" for one.
func filesLike(n int, f string) string {
	if n == 1 {
		return "file " + f
	}
	return fmt.Sprintf("%d files, such as %s", n, f)
}
