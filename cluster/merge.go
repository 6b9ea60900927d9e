package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// MergeResult is the sum of every shard of a plan.
type MergeResult struct {
	PlanHash, Engine        string // the plan's Hash and Engine
	N, Shards, Subs         int    // Subs: the plan's sub-problems, every one counted once
	Total, Unique, Burnside nqueens.Uint128
	Seconds                 float64  // counting time summed over the shards
	Files                   []string // the result files, by shard
	Versions                []string // the distinct program versions that counted
	// Kernels are the distinct matcher kernels that counted the shards ("avx512", "go",
	// "none" for n ≤ 9), in the order of the shards that first name them.
	Kernels []string

	results []*result // the files' content, by shard, for RequireAudit
}

// MergeError lists every reason a merge was refused, naming the files.
type MergeError struct{ Problems []string }

func (e *MergeError) Error() string {
	return "merge refused: " + strings.Join(e.Problems, "; ")
}

// MergeShards reads the result files at paths and sums them. It refuses, with a
// *MergeError naming the files, when a file cannot be read, is truncated or fails its
// checksum, comes from another plan or shard count, duplicates a shard, when a shard is
// missing (saying so when its checkpoint is beside the files: an interrupted shard),
// when the sub-problems of the shards overlap or leave a gap, when a sum overflows, and
// when the Burnside numerators do not add up to a multiple of 8. It reads result files of
// the previous formats (nqueens-shard/2 and /3) as well.
//
// The plan and shard count are those most files share: the odd ones out are named (with
// no majority, every group is).
func MergeShards(paths []string) (MergeResult, error) {
	rs, files, problems := readResults(paths)
	if len(rs) == 0 {
		if len(problems) == 0 {
			problems = append(problems, "no result files")
		}
		return MergeResult{}, &MergeError{problems}
	}
	run, err := sortResults(rs, files, nil, nil)
	if err != nil {
		return MergeResult{}, &MergeError{append(problems, err.Error())}
	}
	problems = append(problems, run.problems...)
	problems = append(problems, missingShards(run, files)...)
	if len(problems) > 0 {
		return MergeResult{}, &MergeError{problems}
	}
	if problems := checkCover(run); len(problems) > 0 {
		return MergeResult{}, &MergeError{problems}
	}
	return sumShards(run)
}

// missingShards names the shards of run without a result file, and those of them
// interrupted, whose checkpoint is beside the files read: "" when none is missing.
func missingShards(run *sorted, files []string) []string {
	var missing []string
	for i, f := range run.files {
		if f == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	k := run.key.shards
	var started []string // missing shards with a checkpoint beside the files
	for _, id := range missing {
		if len(started) < 12 {
			i, _ := strconv.Atoi(id)
			if s := checkpointBeside(files, i, k); s != "" {
				started = append(started, s)
			}
		}
	}
	if len(missing) > 12 {
		missing = append(missing[:12], fmt.Sprintf("… (%d in all)", len(missing)))
	}
	msg := fmt.Sprintf("missing shard(s) %s of %d (shards are numbered 0..%d)", strings.Join(missing, ", "), k, k-1)
	return append([]string{msg}, started...)
}

// checkCover checks that the shards of run count every sub-problem of the plan exactly
// once (a bit each; the first owner of a sub-problem counted twice is found again in the
// files), naming up to 5 counted twice, and those counted by no shard.
func checkCover(run *sorted) (problems []string) {
	seen := newBitset(run.key.subs)
	owner := func(id int) int {
		for s, r := range run.byShard {
			if r.IDs.Contains(id) {
				return s
			}
		}
		return -1
	}
	for s, r := range run.byShard {
		for _, x := range r.IDs {
			for id := x[0]; id <= x[1]; id++ {
				if seen.has(id) {
					problems = append(problems, fmt.Sprintf("sub-problem %d is counted by both %s and %s", id, run.files[owner(id)], run.files[s]))
					if len(problems) >= 5 {
						return problems
					}
					continue
				}
				seen.add(id)
			}
		}
	}
	var gaps []int
	for id := 0; id < run.key.subs; id++ {
		if !seen.has(id) {
			gaps = append(gaps, id)
		}
	}
	if len(gaps) > 0 {
		problems = append(problems, fmt.Sprintf("%d sub-problem(s) counted by no shard: %s", len(gaps), rangesOf(gaps)))
	}
	return problems
}

// sumShards sums the shards of run, every one there and checked: refused when a sum
// overflows 128 bits or the Burnside numerators do not add up to a multiple of 8 (then
// some shard counted wrong).
func sumShards(run *sorted) (MergeResult, error) {
	ref := run.key
	m := MergeResult{PlanHash: ref.plan, Engine: ref.engine, N: ref.n, Shards: ref.shards, Subs: ref.subs,
		Files: run.files, results: run.byShard}
	carry := false
	var total, burnside u128.U128
	for _, r := range run.byShard {
		var c1, c2 bool
		total, c1 = total.Add(r.Total)
		burnside, c2 = burnside.Add(r.Burnside)
		carry = carry || c1 || c2
		m.Seconds += r.Seconds
		if !slices.Contains(m.Versions, r.Version) {
			m.Versions = append(m.Versions, r.Version)
		}
		m.Kernels = addKernels(m.Kernels, r.Kernel)
	}
	if carry {
		return MergeResult{}, &MergeError{[]string{"the sums overflow 128 bits: the shard counts cannot all be right"}}
	}
	u, err := fastcount.Unique(burnside)
	if err != nil {
		return MergeResult{}, &MergeError{[]string{fmt.Sprintf("the Burnside sum %v of the shards is not a multiple of 8: a shard count is wrong", burnside)}}
	}
	m.Total, m.Burnside, m.Unique = nqueens.Uint128(total), nqueens.Uint128(burnside), nqueens.Uint128(u)
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
		path := filepath.Join(dir, CheckpointFile(i, k))
		if _, err := os.Stat(path); err != nil {
			continue
		}
		held := "unreadable"
		if c, err := loadCheckpoint(path); err == nil {
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

func keyOf(r *result) planOf {
	return planOf{plan: r.Plan, engine: r.Engine, n: r.N, subs: r.Subs, shards: r.Shards}
}

// sorted is the result files of one plan and shard count, by shard: the plan and shard
// count that most files share, so that one foreign file among good ones is the one
// named, whatever its place in the list.
type sorted struct {
	key      planOf
	byShard  []*result // nil for a shard without a result
	files    []string  // the file of each shard's result, "" for none
	problems []string  // the files left out, and why
	most     string    // the files of the majority, for messages: "N files, such as F"
}

// sortResults sorts the results rs, read from files, by shard, for the plan and shard
// count that most of them share together with the votes (the plans of other files of the
// run, such as checkpoints, named by voters). It names every file left out in problems:
// another plan, another shard count of the same plan, a shard twice. With no majority (two
// groups tie for the most) the error says which files are from what.
func sortResults(rs []*result, files []string, votes []planOf, voters []string) (*sorted, error) {
	keys := make([]planOf, 0, len(rs)+len(votes))
	for _, r := range rs {
		keys = append(keys, keyOf(r))
	}
	keys = append(keys, votes...)
	major, ok := majority(keys)
	if !ok {
		return nil, describeGroups(keys, slices.Concat(files, voters))
	}
	ref := keys[major[0]]
	most := filesLike(len(major), slices.Concat(files, voters)[major[0]])
	s := &sorted{key: ref, byShard: make([]*result, ref.shards), files: make([]string, ref.shards), most: most}
	add := func(format string, a ...any) { s.problems = append(s.problems, fmt.Sprintf(format, a...)) }
	for k, r := range rs {
		f := files[k]
		if msg := ref.differs(keyOf(r), r.Shard, f, most); msg != "" {
			add("%s", msg)
			continue
		}
		if prev := s.files[r.Shard]; prev != "" {
			add("shard %d of %d appears twice: %s and %s", r.Shard, r.Shards, prev, f)
			continue
		}
		s.files[r.Shard], s.byShard[r.Shard] = f, r
	}
	return s, nil
}

// differs says how the plan and shard count k of file f (of shard i) differ from ref,
// those of most files, described by most: "" when they do not.
func (ref planOf) differs(k planOf, i int, f, most string) string {
	samePlan := k.plan == ref.plan && k.n == ref.n && k.subs == ref.subs && k.engine == ref.engine
	switch {
	case samePlan && k.shards != ref.shards:
		return fmt.Sprintf("%s is shard %d of %d, not of %d as the other %s: the plan is the same, the number of shards is not",
			f, i, k.shards, ref.shards, most)
	case !samePlan:
		return fmt.Sprintf("%s is from another plan (n=%d, %d shards, plan %.12s) than the other %s (n=%d, %d shards, plan %.12s)",
			f, k.n, k.shards, k.plan, most, ref.n, ref.shards, ref.plan)
	}
	return ""
}

// majority returns the indices of the keys that most keys share; ok is false when two
// groups tie for the most.
func majority(keys []planOf) (idx []int, ok bool) {
	groups := map[planOf][]int{}
	for i, k := range keys {
		groups[k] = append(groups[k], i)
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

// describeGroups lists the plans and shard counts of keys with their files, in the order
// they first appear.
func describeGroups(keys []planOf, files []string) error {
	var order []planOf
	groups := map[planOf][]string{}
	for i, k := range keys {
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
	return fmt.Errorf("the files are from %d plans or shard counts, and none has more of the files than every other, so none can be taken for the right one: %s",
		len(order), strings.Join(parts, "; "))
}

// readResults reads the result files at paths, a few at a time on every core: the
// results that check out and their files, in the order of paths, and the errors of the
// others (which name their files).
func readResults(paths []string) (rs []*result, files, problems []string) {
	out := make([]*result, len(paths))
	errs := make([]error, len(paths))
	parallel(len(paths), func(i int) { out[i], errs[i] = readResult(paths[i]) })
	for i, r := range out {
		if errs[i] != nil {
			problems = append(problems, errs[i].Error())
			continue
		}
		rs = append(rs, r)
		files = append(files, paths[i])
	}
	return rs, files, problems
}

// parallel calls f(0), ..., f(n-1) on every core (on one for fewer than 64 calls).
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), n/64)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// filesLike says "N files, such as F", or "file F" for one.
func filesLike(n int, f string) string {
	if n == 1 {
		return "file " + f
	}
	return fmt.Sprintf("%d files, such as %s", n, f)
}
