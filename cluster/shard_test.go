package cluster

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nqueens/nqueens"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/oeis"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/u128"
	"pgregory.net/rapid"
)

// known(n) is {A000170(n), A002562(n)}.
func known(n int) [2]uint64 { return [2]uint64{oeis.Total(n), oeis.Unique(n)} }

func plan(t testing.TB, n int) *fastcount.Plan {
	t.Helper()
	p, err := fastcount.NewPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRanges(t *testing.T) {
	r := rangesOf([]int{9, 0, 1, 2, 3, 4, 12, 13, 15, 14, 4})
	if got := r.String(); got != "0-4,9,12-15" {
		t.Fatalf("String = %q", got)
	}
	if r.Len() != 10 || !slices.Equal(r.IDs(), []int{0, 1, 2, 3, 4, 9, 12, 13, 14, 15}) {
		t.Errorf("Len %d IDs %v", r.Len(), r.IDs())
	}
	b, _ := json.Marshal(r)
	var back ranges
	if err := json.Unmarshal(b, &back); err != nil || !back.Equal(r) {
		t.Errorf("round trip %s: %v %v", b, back, err)
	}
	if err := json.Unmarshal([]byte(`""`), &back); err != nil || back.Len() != 0 {
		t.Errorf("empty: %v %v", back, err)
	}
	bs := newBitset(200)
	for _, id := range []int{0, 1, 3, 63, 64, 65, 130} {
		bs.add(id)
	}
	if got := bs.ranges(200); !got.Equal(ranges{{0, 1}, {3, 3}, {63, 65}, {130, 130}}) || !got.Contains(64) || got.Contains(2) || got.Contains(131) || bs.has(2) {
		t.Errorf("bitset ranges %v", got)
	}
	for _, bad := range []string{`"1-"`, `"a"`, `"-3"`, `"1,,2"`, `[1,2]`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	for _, bad := range []ranges{{{0, 20}}, {{3, 2}}, {{0, 2}, {3, 4}}, {{5, 6}, {1, 2}}, {{-1, 0}}} {
		if err := bad.check(20); err == nil {
			t.Errorf("%v passes check", bad)
		}
	}
}

// assignAll is IDs of every shard.
func assignAll(t testing.TB, p *fastcount.Plan, k int) [][]int {
	t.Helper()
	out := make([][]int, k)
	for i := range out {
		ids, err := shardIDs(p, k, i)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = ids
	}
	return out
}

func TestAssign(t *testing.T) {
	for n := 10; n <= 14; n++ {
		p := plan(t, n)
		for k := 1; k <= 7; k++ {
			a := assignAll(t, p, k)
			var largest uint64
			for i := 0; i < p.Len(); i++ {
				largest = max(largest, uint64(p.Cost(i)))
			}
			again := assignAll(t, p, k)
			sizes, err := split(p, k)
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, p.Len())
			var lo, hi uint64 = ^uint64(0), 0
			for i, ids := range a {
				if !slices.Equal(ids, again[i]) || !slices.IsSorted(ids) {
					t.Fatalf("n=%d k=%d: shard %d not deterministic or not sorted", n, k, i)
				}
				for _, id := range ids {
					if seen[id] {
						t.Fatalf("n=%d k=%d: id %d twice", n, k, id)
					}
					seen[id] = true
				}
				var c uint64
				for _, id := range ids {
					c += uint64(p.Cost(id))
				}
				if sizes[i] != (ShardSize{Subs: len(ids), Cost: c}) {
					t.Fatalf("n=%d k=%d: Split says %+v for shard %d of %d sub-problems costing %d", n, k, sizes[i], i, len(ids), c)
				}
				lo, hi = min(lo, c), max(hi, c)
			}
			if slices.Contains(seen, false) {
				t.Fatalf("n=%d k=%d: an id has no shard", n, k)
			}
			if hi-lo > largest { // longest-first: within one sub-problem's cost
				t.Errorf("n=%d k=%d: shard costs %d..%d", n, k, lo, hi)
			}
		}
	}
	for _, k := range []int{0, MaxShards + 1} {
		if _, err := shardIDs(plan(t, 8), k, 0); err == nil {
			t.Errorf("%d shards accepted", k)
		}
		if _, err := split(plan(t, 8), k); err == nil {
			t.Errorf("%d shards accepted by Split", k)
		}
	}
	if _, err := shardIDs(plan(t, 8), 4, 4); err == nil {
		t.Error("shard 4 of 4 accepted")
	}
}

// TestAssignHeap: the heap picks the same shards as a plain scan for the
// least loaded one (ties to the lowest index), so plans keep their splits.
func TestAssignHeap(t *testing.T) {
	for _, n := range []int{9, 13, 16} {
		p := plan(t, n)
		for _, k := range []int{1, 2, 3, 7, 64, p.Len() + 5} {
			got := assignAll(t, p, k)
			order := make([]int, p.Len())
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p.Cost(b), p.Cost(a)) })
			want := make([][]int, k)
			load := make([]uint64, k)
			for _, id := range order {
				best := 0
				for s := 1; s < k; s++ {
					if load[s] < load[best] {
						best = s
					}
				}
				want[best] = append(want[best], id)
				load[best] += uint64(p.Cost(id))
			}
			for i := range want {
				slices.Sort(want[i])
				if !slices.Equal(got[i], want[i]) {
					t.Fatalf("n=%d k=%d shard %d: %v, scan %v", n, k, i, got[i], want[i])
				}
			}
		}
	}
}

// TestMerge128: shard files whose sums carry past 2^64 (as the shards of
// n = 29 do) merge to the 128-bit sum, and a unique count above 2^64/8
// comes out of it whole. The small board's shards get 2^64 - 5 solutions
// and 2^64 - 8 of Burnside numerator more in one file, 5 and 8 more in
// another: the merged sums are the true ones plus 2^64.
func TestMerge128(t *testing.T) {
	dir := t.TempDir()
	p := countShards(t, dir, 12, 4)
	reseal(t, p[0], func(r *result) {
		r.Total, _ = r.Total.Add64(1<<64 - 1 - 4)
		r.Burnside, _ = r.Burnside.Add64(1<<64 - 8)
	})
	reseal(t, p[1], func(r *result) {
		r.Total, _ = r.Total.Add64(5)
		r.Burnside, _ = r.Burnside.Add64(8)
	})
	m, err := MergeShards(p)
	if err != nil {
		t.Fatal(err)
	}
	wantT, _ := u128.From(known(12)[0]).Add(u128.U128{Hi: 1})
	wantB, _ := u128.From(8 * known(12)[1]).Add(u128.U128{Hi: 1})
	if u128.U128(m.Total) != wantT || u128.U128(m.Burnside) != wantB || u128.U128(m.Unique) != wantB.Div8() {
		t.Errorf("merged %v %v %v, want %v %v %v", m.Total, m.Burnside, m.Unique, wantT, wantB, wantB.Div8())
	}
	// The files hold the sums as plain JSON numbers.
	b, _ := os.ReadFile(p[0])
	if want := fmt.Sprintf(`"total": %v`, func() u128.U128 { r, _ := readResult(p[0]); return r.Total }()); !strings.Contains(string(b), want) || !strings.Contains(want, "18446744") {
		t.Errorf("%s lacks %s", p[0], want)
	}
}

// TestCount128: a checkpoint whose sums are near 2^64 carries them past it.
func TestCount128(t *testing.T) {
	p := plan(t, 11)
	ids := make([]int, p.Len())
	for i := range ids {
		ids[i] = i
	}
	c := newCheckpoint(p, 0, 1, ids)
	c.Total = u128.From(1<<64 - 1)
	c.Burnside = u128.From(1<<64 - 8)
	if err := count(context.Background(), p, c, matcherOf(t, p, ""), ShardOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	wantT, _ := u128.From(1<<64 - 1).Add64(known(11)[0])
	wantB, _ := u128.From(1<<64 - 8).Add64(8 * known(11)[1])
	if c.Total != wantT || c.Burnside != wantB {
		t.Errorf("checkpoint sums %v %v, want %v %v", c.Total, c.Burnside, wantT, wantB)
	}
	if u, err := c.unique(); err != nil || u != wantB.Div8() {
		t.Errorf("unique %v %v", u, err)
	}
}

func TestIndexFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		env     func(string) string
		i       int
		name    string
		wantErr string
	}{
		{env("SLURM_ARRAY_TASK_ID", "3", "JOB_COMPLETION_INDEX", "1"), 3, "SLURM_ARRAY_TASK_ID", ""},
		{env("JOB_COMPLETION_INDEX", "1", "AWS_BATCH_JOB_ARRAY_INDEX", "2"), 1, "JOB_COMPLETION_INDEX", ""},
		{env("AWS_BATCH_JOB_ARRAY_INDEX", "0"), 0, "AWS_BATCH_JOB_ARRAY_INDEX", ""},
		{env("JOB_COMPLETION_INDEX", "4"), 0, "JOB_COMPLETION_INDEX", "not a shard of 4"},
		{env("SLURM_ARRAY_TASK_ID", "x1"), 0, "SLURM_ARRAY_TASK_ID", "not a shard index"},
		{env("SLURM_ARRAY_TASK_ID", "-1"), 0, "SLURM_ARRAY_TASK_ID", "not a shard index"},
		{env(), 0, "", "no job array index"},
	}
	for _, c := range cases {
		i, name, err := indexFromEnv(c.env, 4)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("want error %q, got %v", c.wantErr, err)
			}
			continue
		}
		if err != nil || i != c.i || name != c.name {
			t.Errorf("got %d %s %v, want %d %s", i, name, err, c.i, c.name)
		}
	}
}

// countShards writes the k shard results of n into dir and returns their paths.
func countShards(t testing.TB, dir string, n, k int) []string {
	t.Helper()
	p := plan(t, n)
	a := assignAll(t, p, k)
	var paths []string
	for i, ids := range a {
		c := newCheckpoint(p, i, k, ids)
		if err := count(context.Background(), p, c, matcherOf(t, p, ""), ShardOptions{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		if !c.Complete {
			t.Fatalf("shard %d incomplete", i)
		}
		path := filepath.Join(dir, ResultFile(i, k))
		r := c.toResult()
		r.Version = "test"
		if err := writeResult(path, r); err != nil {
			t.Fatal(err)
		}
		back, err := readResult(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := back.matches(p, i, k, ids); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// TestShardsMerge: for n = 10..14 and K = 1..7 the shards merge to the known counts.
func TestShardsMerge(t *testing.T) {
	for n := 10; n <= 14; n++ {
		for k := 1; k <= 7; k++ {
			dir := t.TempDir()
			countShards(t, dir, n, k)
			paths, err := ResultPaths([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			m, err := MergeShards(paths)
			if err != nil {
				t.Fatalf("n=%d k=%d: %v", n, k, err)
			}
			if u128.U128(m.Total) != u128.From(known(n)[0]) || u128.U128(m.Unique) != u128.From(known(n)[1]) || m.Shards != k || m.N != n {
				t.Errorf("n=%d k=%d: merged %d %d, want %v", n, k, m.Total, m.Unique, known(n))
			}
		}
	}
}

// reseal rewrites a result file with an edit, sealed with a valid checksum:
// the faults a checksum cannot catch.
func reseal(t *testing.T, path string, edit func(*result)) {
	t.Helper()
	r, err := readResult(path)
	if err != nil {
		t.Fatal(err)
	}
	edit(r)
	b, err := seal(r, &r.Checksum)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b, 0o644)
}

// A mergeFault is a fault of a run that MergeShards refuses: fault damages the result
// files paths of a run of n = 12 in 4 shards in dir and returns the files to merge (nil:
// the directory), want are substrings of the error ("P0", "P1": the good files' paths;
// "{gap}": the id taken out by the case "gap").
type mergeFault struct {
	name  string
	fault func(t *testing.T, dir string, paths []string) []string
	want  []string
}

// copyFile copies the file from to the file to.
func copyFile(from, to string) {
	b, _ := os.ReadFile(from)
	os.WriteFile(to, b, 0o644)
}

// runFaults are the faults of the run: shards missing or twice, files of other plans or
// shard counts.
func runFaults() []mergeFault {
	return []mergeFault{
		{"missing", func(t *testing.T, dir string, p []string) []string {
			os.Remove(p[2])
			return nil
		}, []string{"missing shard(s) 2 of 4"}},
		{"duplicated", func(t *testing.T, dir string, p []string) []string {
			copyFile(p[1], filepath.Join(dir, "shard-copy.json"))
			return nil
		}, []string{"shard 1 of 4 appears twice", "shard-0001-of-0004.json", "shard-copy.json"}},
		{"other plan", func(t *testing.T, dir string, p []string) []string {
			other := countShards(t, t.TempDir(), 11, 4)
			copyFile(other[3], p[3])
			return nil
		}, []string{"shard-0003-of-0004.json is from another plan (n=11", "than the other 3 files, such as P0 (n=12", "missing shard(s) 3"}},
		{"foreign first", func(t *testing.T, dir string, p []string) []string {
			other := countShards(t, t.TempDir(), 11, 4)
			copyFile(other[0], p[0]) // the first file read is the odd one out
			return nil
		}, []string{"shard-0000-of-0004.json is from another plan (n=11", "than the other 3 files, such as P1 (n=12", "missing shard(s) 0 of 4"}},
		{"no majority", func(t *testing.T, dir string, p []string) []string {
			other := countShards(t, t.TempDir(), 11, 4)
			return []string{other[1], p[2]}
		}, []string{"the files are from 2 plans or shard counts, and none has more of the files than every other", "n=11, 4 shards", "n=12, 4 shards", "shard-0002-of-0004.json"}},
		{"other K", func(t *testing.T, dir string, p []string) []string {
			other := countShards(t, t.TempDir(), 12, 5)
			copyFile(other[4], filepath.Join(dir, ResultFile(4, 5)))
			return nil
		}, []string{"shard-0004-of-0005.json is shard 4 of 5, not of 4 as the other 4 files, such as P0: the plan is the same, the number of shards is not"}},
		{"a checkpoint", func(t *testing.T, dir string, p []string) []string {
			os.WriteFile(p[0], []byte(`{"format": "`+checkpointFormat+`", "engine": "qjoin/v1", "n": 12}`), 0o644)
			return nil
		}, []string{`shard-0000-of-0004.json: a checkpoint (format "` + checkpointFormat + `"), where a shard result is wanted`}},
		{"missing, interrupted", func(t *testing.T, dir string, p []string) []string {
			pl := plan(t, 12)
			c := newCheckpoint(pl, 1, 4, assignAll(t, pl, 4)[1])
			if err := c.save(filepath.Join(dir, CheckpointFile(1, 4))); err != nil {
				t.Fatal(err)
			}
			os.Remove(p[1])
			os.Remove(p[3])
			return nil
		}, []string{"missing shard(s) 1, 3 of 4", "shard 1 was interrupted, checkpoint present: " /* dir */, "shard-0001-of-0004.checkpoint (0 of "}},
	}
}

// fileFaults are the faults of the files and their sums; the case "gap" sets *gapID to
// the id it takes out of its shard.
func fileFaults(gapID *int) []mergeFault {
	return []mergeFault{
		{"bad checksum", func(t *testing.T, dir string, p []string) []string {
			b, _ := os.ReadFile(p[1])
			os.WriteFile(p[1], []byte(strings.Replace(string(b), `"total": `, `"total": 1`, 1)), 0o644)
			return nil
		}, []string{"shard-0001-of-0004.json: bad checksum"}},
		{"truncated", func(t *testing.T, dir string, p []string) []string {
			b, _ := os.ReadFile(p[0])
			os.WriteFile(p[0], b[:len(b)/2], 0o644)
			return nil
		}, []string{"shard-0000-of-0004.json: truncated"}},
		{"empty", func(t *testing.T, dir string, p []string) []string {
			os.WriteFile(p[0], nil, 0o644)
			return nil
		}, []string{"shard-0000-of-0004.json: truncated"}},
		{"garbage", func(t *testing.T, dir string, p []string) []string {
			os.WriteFile(p[3], []byte("{\"format\": nope}"), 0o644)
			return nil
		}, []string{"shard-0003-of-0004.json: not valid JSON"}},
		{"no checksum", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[0], func(r *result) {})
			b, _ := os.ReadFile(p[0])
			var m map[string]any
			json.Unmarshal(b, &m)
			delete(m, "checksum")
			b, _ = json.Marshal(m)
			os.WriteFile(p[0], b, 0o644)
			return nil
		}, []string{"shard-0000-of-0004.json: bad checksum"}},
		{"overlap", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[1], func(r *result) { r.IDs = rangesOf(append(r.IDs.IDs(), 0)) })
			return nil
		}, []string{"sub-problem 0 is counted by both", "shard-0000-of-0004.json and", "shard-0001-of-0004.json"}},
		{"gap", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[2], func(r *result) {
				ids := r.IDs.IDs()
				*gapID = ids[0]
				r.IDs = rangesOf(ids[1:])
			})
			return nil
		}, []string{"1 sub-problem(s) counted by no shard: {gap}"}},
		{"overflow", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[2], func(r *result) { r.Total = u128.U128{Hi: 1 << 63} })
			reseal(t, p[3], func(r *result) { r.Total = u128.U128{Hi: 1 << 63} })
			return nil
		}, []string{"overflow 128 bits"}},
		{"huge shard count", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[0], func(r *result) { r.Shards, r.Shard = 1<<50, 1<<49 })
			return nil
		}, []string{"shard-0000-of-0004.json: 1125899906842624 shards out of range 1..67108864"}},
		{"huge plan", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[1], func(r *result) { r.Subs, r.IDs = 1<<50, ranges{{0, 1<<50 - 1}} })
			return nil
		}, []string{"shard-0001-of-0004.json: 1125899906842624 sub-problems out of range"}},
		{"bad n", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[1], func(r *result) { r.N = 1000 })
			return nil
		}, []string{"shard-0001-of-0004.json: n=1000 out of range"}},
		{"nothing", func(t *testing.T, dir string, p []string) []string {
			return []string{}
		}, []string{"no result files"}},
		{"burnside", func(t *testing.T, dir string, p []string) []string {
			reseal(t, p[1], func(r *result) { r.Burnside, _ = r.Burnside.Add64(1) })
			return nil
		}, []string{"Burnside sum", "not a multiple of 8"}},
		{"old format", func(t *testing.T, dir string, p []string) []string {
			b, _ := os.ReadFile(p[2])
			old := strings.Replace(string(b), resultFormat, "nqueens-shard/1", 1)
			old = strings.Replace(old, `"engine": "`+qjoin.Version, `"engine": "fastcount/constellations-v1`, 1)
			os.WriteFile(p[2], []byte(old), 0o644)
			return nil
		}, []string{"shard-0002-of-0004.json: written by another engine/plan version", "nqueens-shard/1", "fastcount/constellations-v1"}},
	}
}

func TestMergeRefuses(t *testing.T) {
	gapID := -1 // the id the "gap" case takes out of its shard
	cases := append(runFaults(), fileFaults(&gapID)...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			paths := countShards(t, dir, 12, 4)
			if !t.Run("ok", func(t *testing.T) {
				if _, err := MergeShards(paths); err != nil {
					t.Fatal(err)
				}
			}) {
				return
			}
			explicit := c.fault(t, dir, paths)
			if explicit == nil {
				var err error
				if explicit, err = ResultPaths([]string{dir}); err != nil {
					t.Fatal(err)
				}
			}
			_, err := MergeShards(explicit)
			var me *MergeError
			if !errors.As(err, &me) {
				t.Fatalf("merge accepted the fault: %v", err)
			}
			for _, w := range c.want {
				w = strings.NewReplacer("P0", paths[0], "P1", paths[1]).Replace(w) // the good files' names
				w = strings.ReplaceAll(w, "{gap}", strconv.Itoa(gapID))
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestCheckpointResume(t *testing.T) {
	p := plan(t, 13)
	ids := make([]int, p.Len())
	for i := range ids {
		ids[i] = i
	}
	path := filepath.Join(t.TempDir(), "ck")
	c := newCheckpoint(p, 0, 1, ids)
	for run := 1; ; run++ {
		ctx, cancel := context.WithCancel(context.Background())
		finished := 0
		err := count(ctx, p, c, matcherOf(t, p, ""), ShardOptions{Workers: 2, Checkpoint: path, Version: "test",
			Progress: func(nqueens.Progress) {
				if finished++; finished == 150 {
					cancel()
				}
			}})
		cancel()
		back, lerr := loadCheckpoint(path)
		if lerr != nil {
			t.Fatal(lerr)
		}
		if err := back.matches(p, 0, 1, ids); err != nil {
			t.Fatal(err)
		}
		if back.Done.Len() != c.Done.Len() || back.Total != c.Total || back.Runs != run {
			t.Fatalf("saved %d done, total %d, run %d; in memory %d, %d", back.Done.Len(), back.Total, back.Runs, c.Done.Len(), c.Total)
		}
		if err == nil {
			if u, err := c.unique(); !c.Complete || c.Total != u128.From(known(13)[0]) || u != u128.From(known(13)[1]) || err != nil {
				t.Fatalf("after %d runs: %+v, unique %d %v", run, c, u, err)
			}
			if run < 2 {
				t.Errorf("finished in %d runs: the interruptions did not interrupt", run)
			}
			return
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
		if c.Complete {
			t.Fatal("interrupted yet complete")
		}
		c = back // continue from the file, as a new process would
	}
}

// TestCheckpointSizes: a checkpoint whose sizes are out of bounds is
// refused before they are used to allocate.
func TestCheckpointSizes(t *testing.T) {
	p := plan(t, 10)
	for name, edit := range map[string]func(c *checkpoint){
		"subs":   func(c *checkpoint) { c.Subs, c.Todo = 1<<50, ranges{{0, 1<<50 - 1}} },
		"shards": func(c *checkpoint) { c.Shards = 1 << 50 },
		"n":      func(c *checkpoint) { c.N = -3 },
	} {
		path := filepath.Join(t.TempDir(), "ck")
		c := newCheckpoint(p, 0, 1, []int{1, 2, 3})
		edit(c)
		if err := c.save(path); err != nil {
			t.Fatal(err)
		}
		if _, err := loadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCheckpointMismatch(t *testing.T) {
	p := plan(t, 10)
	path := filepath.Join(t.TempDir(), "ck")
	c := newCheckpoint(p, 1, 3, []int{1, 2, 3})
	if err := c.save(path); err != nil {
		t.Fatal(err)
	}
	c, err := loadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.matches(plan(t, 11), 1, 3, []int{1, 2, 3}); !errors.Is(err, ErrOtherPlan) {
		t.Errorf("other plan: %v", err)
	}
	if err := c.matches(p, 2, 3, []int{1, 2, 3}); err == nil {
		t.Error("other shard accepted")
	}
	if err := c.matches(p, 1, 3, []int{1, 2}); err == nil {
		t.Error("other ids accepted")
	}
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), `"done": ""`, `"done": "1"`, 1)), 0o644)
	if _, err := loadCheckpoint(path); !errors.Is(err, errChecksum) {
		t.Errorf("edited checkpoint: %v", err)
	}
	// A checkpoint of the previous format and engine is refused by name.
	old := strings.Replace(string(b), checkpointFormat, "nqueens-checkpoint/1", 1)
	old = strings.Replace(old, `"burnside"`, `"unique"`, 1)
	os.WriteFile(path, []byte(old), 0o644)
	if _, err := loadCheckpoint(path); !errors.Is(err, errOtherVersion) || !strings.Contains(err.Error(), "engine/plan version") {
		t.Errorf("old checkpoint: %v", err)
	}
	// One of this format from another engine meets the plan: Matches says so.
	c.Engine = "fastcount/constellations-v2"
	if err := c.matches(p, 1, 3, []int{1, 2, 3}); !errors.Is(err, ErrOtherPlan) || !strings.Contains(err.Error(), "engine/plan version differs") {
		t.Errorf("other engine: %v", err)
	}
	// One of the previous quadrant join names both versions.
	c.Engine = "qjoin/v1"
	if err := c.matches(p, 1, 3, []int{1, 2, 3}); !errors.Is(err, ErrOtherPlan) ||
		!strings.Contains(err.Error(), "qjoin/v1") || !strings.Contains(err.Error(), qjoin.Version) {
		t.Errorf("previous engine: %v", err)
	}
}

// TestFormatV2: result files and checkpoints of the previous format (nqueens-shard/2 and
// nqueens-checkpoint/2: subs for the plan's sub-problems, nodes) are read, checksum
// included, and merge with files of this one; this one writes plan_subs and no nodes,
// so that "subs" means a count's own sub-problems wherever the commands print it.
func TestFormatV2(t *testing.T) {
	dir := t.TempDir()
	paths := countShards(t, dir, 12, 3)
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	json.Unmarshal(b, &keys)
	if keys["plan_subs"] == nil || keys["subs"] != nil || keys["nodes"] != nil || keys["format"] != resultFormat {
		t.Errorf("a result file of this version: %s", b)
	}
	// Shard 1 rewritten as the previous version wrote it.
	r, err := readResult(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	old := resultV2{Format: resultFormatV2, Plan: r.Plan, Engine: r.Engine, N: r.N, Shard: r.Shard, Shards: r.Shards,
		Subs: r.Subs, IDs: r.IDs, Total: r.Total.Lo, Burnside: r.Burnside.Lo, Nodes: 12345, Seconds: r.Seconds, Version: "old", Finished: r.Finished}
	ob, err := seal(&old, &old.Checksum)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(paths[1], ob, 0o644)
	back, err := readResult(paths[1])
	if err != nil || back.Subs != r.Subs || back.Total != r.Total || back.Version != "old" {
		t.Fatalf("a version 2 file reads as %+v, %v", back, err)
	}
	m, err := MergeShards(paths)
	if err != nil || u128.U128(m.Total) != u128.From(known(12)[0]) || u128.U128(m.Unique) != u128.From(known(12)[1]) || len(m.Versions) != 2 {
		t.Errorf("merge with a version 2 file: %+v, %v", m, err)
	}
	// An edit is caught by the version 2 checksum too.
	os.WriteFile(paths[1], []byte(strings.Replace(string(ob), `"total": `, `"total": 1`, 1)), 0o644)
	if _, err := readResult(paths[1]); !errors.Is(err, errChecksum) {
		t.Errorf("an edited version 2 file: %v", err)
	}

	// A checkpoint of version 2 resumes; saved again, it is of this version.
	p := plan(t, 12)
	ids := allIDs(p.Len())
	c := newCheckpoint(p, 0, 1, ids)
	ck := filepath.Join(dir, "ck")
	oc := checkpointV2{Format: checkpointFormatV2, Plan: c.Plan, Engine: c.Engine, N: c.N, Shard: 0, Shards: 1, Subs: c.Subs,
		Todo: c.Todo, Done: ranges{}, Nodes: 7, Version: "old", Written: "2025-01-01T00:00:00Z"}
	cb, err := seal(&oc, &oc.Checksum)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ck, cb, 0o644)
	lc, err := loadCheckpoint(ck)
	if err != nil || lc.matches(p, 0, 1, ids) != nil {
		t.Fatalf("a version 2 checkpoint: %+v, %v", lc, err)
	}
	if err := count(context.Background(), p, lc, matcherOf(t, p, ""), ShardOptions{Workers: 2, Checkpoint: ck, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if u, _ := lc.unique(); lc.Total != u128.From(known(12)[0]) || u != u128.From(known(12)[1]) {
		t.Errorf("resumed from version 2: %d %d", lc.Total, u)
	}
	nb, _ := os.ReadFile(ck)
	keys = nil
	json.Unmarshal(nb, &keys)
	if keys["format"] != checkpointFormat || keys["plan_subs"] == nil || keys["nodes"] != nil {
		t.Errorf("the checkpoint saved again: %s", nb)
	}
}

// TestAssignBands: the bands of a plan with few distinct costs pick the same
// shards as a plain scan for the least loaded one (ties to the lowest index),
// on random lists of costs drawn from a few values, with more or fewer shards
// than sub-problems.
func TestAssignBands(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values := rapid.SliceOfNDistinct(rapid.Uint32Range(1, 40), 1, 6, rapid.ID[uint32]).Draw(t, "values")
		costs := rapid.SliceOfN(rapid.SampledFrom(values), 0, 300).Draw(t, "costs")
		k := rapid.IntRange(1, 40).Draw(t, "k")
		got := make([]int, len(costs))
		err := assignCosts(len(costs), func(i int) uint32 { return costs[i] }, k, func(id, shard int) { got[id] = shard })
		if err != nil {
			t.Fatal(err)
		}
		order := make([]int, len(costs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(costs[b], costs[a]) })
		load := make([]uint64, k)
		for _, id := range order {
			best := 0
			for s := 1; s < k; s++ {
				if load[s] < load[best] {
					best = s
				}
			}
			if got[id] != best {
				t.Fatalf("sub-problem %d (cost %d) went to shard %d, the scan says %d", id, costs[id], got[id], best)
			}
			load[best] += uint64(costs[id])
		}
	})
}

// BenchmarkAssignBands splits 155 million sub-problems of 12 costs, as the
// plan of n = 29 has, into 2^26 shards.
func BenchmarkAssignBands(b *testing.B) {
	const n = 155_000_000
	cost := func(i int) uint32 { return uint32(1000 + (i*2654435761>>7)%12) }
	for b.Loop() {
		if err := assignCosts(n, cost, MaxShards, func(id, shard int) {}); err != nil {
			b.Fatal(err)
		}
	}
}

// matcherOf is the matcher kernel named name ("" the fastest here) resolved for p.
func matcherOf(t testing.TB, p *fastcount.Plan, name string) matcher {
	t.Helper()
	m, err := resolveKernel(p, name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
