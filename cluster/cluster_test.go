package cluster_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
	"github.com/nqueens/nqueens/internal/oeis"
	"github.com/nqueens/nqueens/internal/u128"
)

// newPlan is the plan of n, or the end of the test.
func newPlan(t *testing.T, n int) *cluster.Plan {
	t.Helper()
	p, err := cluster.NewPlan(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestShardsAndMerge counts n = 12 as 3 shards through the public API, counts a shard
// again (skipped), merges to the known counts, and reads the run's status: complete.
func TestShardsAndMerge(t *testing.T) {
	ctx := context.Background()
	p := newPlan(t, 12)
	sizes, err := p.Split(3)
	if err != nil || len(sizes) != 3 || sizes[0].Subs+sizes[1].Subs+sizes[2].Subs != p.Subs() {
		t.Fatalf("Split(3) = %v, %v for %d sub-problems", sizes, err, p.Subs())
	}
	dir := t.TempDir()
	for i := range 3 {
		r, err := cluster.CountShard(ctx, p, i, 3, dir, cluster.ShardOptions{Workers: 2})
		if err != nil || r.Status != nqueens.Complete || r.Skipped || r.Subs != sizes[i].Subs || r.Workers != 2 {
			t.Fatalf("shard %d: %+v, %v", i, r, err)
		}
		if _, err := os.Stat(r.Checkpoint); !os.IsNotExist(err) {
			t.Errorf("shard %d left its checkpoint %s", i, r.Checkpoint)
		}
	}
	if r, err := cluster.CountShard(ctx, p, 1, 3, dir, cluster.ShardOptions{}); err != nil || !r.Skipped || r.Workers != runtime.GOMAXPROCS(0) {
		t.Errorf("a finished shard again: %+v, %v", r, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "shard-*.json"))
	if err != nil || len(files) != 3 {
		t.Fatal(files, err)
	}
	m, err := cluster.MergeShards(files)
	if err != nil || u128.U128(m.Total) != u128.From(oeis.Total(12)) || u128.U128(m.Unique) != u128.From(oeis.Unique(12)) || m.Shards != 3 || m.PlanHash != p.Hash() {
		t.Fatalf("merge: %+v, %v", m, err)
	}
	st, err := cluster.ReadRunStatus(ctx, []string{dir}, cluster.RunStatusOptions{})
	if err != nil || !st.Complete || st.ShardsDone != 3 || st.Total != m.Total || st.Unique != m.Unique || st.PlanHash != p.Hash() ||
		st.EstimatedBy != "plan" || st.FractionDone != 1 {
		t.Errorf("status of the finished run: %+v, %v", st, err)
	}
	var me *cluster.MergeError
	if _, err := cluster.MergeShards(files[:2]); !errors.As(err, &me) {
		t.Errorf("a merge with a shard missing: %v", err)
	}
	other, _ := cluster.NewPlan(ctx, 11)
	if _, err := cluster.CountShard(ctx, other, 0, 3, dir, cluster.ShardOptions{}); !errors.Is(err, cluster.ErrOtherPlan) {
		t.Errorf("n=11 into the directory of n=12: %v", err)
	}
}

// TestCountCheckpointed interrupts a checkpointed count, refuses to start over an
// existing checkpoint without Resume, and resumes it to the known counts.
func TestCountCheckpointed(t *testing.T) {
	p := newPlan(t, 16)
	ck := filepath.Join(t.TempDir(), "ck")
	// The count is cancelled from its own progress, after a few sub-problems: however
	// fast the engine, the interruption lands inside the count.
	ctx, cancel := context.WithCancel(context.Background())
	opt := cluster.ShardOptions{Workers: 1, Checkpoint: ck, CheckpointEvery: 10 * time.Millisecond,
		Progress: func(p nqueens.Progress) {
			if p.Done > 0 {
				cancel()
			}
		}}
	r, err := cluster.CountCheckpointed(ctx, p, opt)
	cancel()
	if !errors.Is(err, context.Canceled) || r.Status != nqueens.Interrupted || r.SubsDone == 0 || r.SubsDone >= r.Subs {
		t.Fatalf("interrupted count: %+v, %v", r, err)
	}
	opt.Progress = nil
	if _, err := cluster.CountCheckpointed(context.Background(), p, opt); !errors.Is(err, cluster.ErrCheckpointExists) {
		t.Fatalf("over an existing checkpoint without Resume: %v", err)
	}
	opt.Resume = true
	r, err = cluster.CountCheckpointed(context.Background(), p, opt)
	if err != nil || r.Status != nqueens.Complete || r.Resumed == 0 || u128.U128(r.Total) != u128.From(oeis.Total(16)) || u128.U128(r.Unique) != u128.From(oeis.Unique(16)) {
		t.Fatalf("resumed: %+v, %v", r, err)
	}
	other, _ := cluster.NewPlan(context.Background(), 15)
	if _, err := cluster.CountCheckpointed(context.Background(), other, opt); !errors.Is(err, cluster.ErrOtherPlan) {
		t.Errorf("a checkpoint of n=16 for n=15: %v", err)
	}
}

func TestParseShard(t *testing.T) {
	env := func(k string) string {
		if k == "SLURM_ARRAY_TASK_ID" {
			return "5"
		}
		return ""
	}
	for s, want := range map[string][2]int{"0/8": {0, 8}, "7/8": {7, 8}, "auto/8": {5, 8}} {
		if i, k, err := cluster.ParseShard(s, env); err != nil || i != want[0] || k != want[1] {
			t.Errorf("%s: %d/%d %v", s, i, k, err)
		}
	}
	for _, s := range []string{"8/8", "-1/8", "1", "1/0", "a/b", "auto/4", "1/100000000"} {
		if _, _, err := cluster.ParseShard(s, env); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
}

// TestCountNotSaved: a count whose checkpoint directory is removed while it runs still
// returns its exact sums, Complete, with an error wrapping ErrNotSaved; interrupted, it
// returns the partial sums, Interrupted, wrapping both ErrNotSaved and the cancellation.
func TestCountNotSaved(t *testing.T) {
	p := newPlan(t, 13)
	for _, interrupt := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "gone")
		os.Mkdir(dir, 0o755)
		ctx, cancel := context.WithCancel(context.Background())
		opt := cluster.ShardOptions{Workers: 1, Checkpoint: filepath.Join(dir, "ck"),
			Progress: func(nqueens.Progress) {
				os.RemoveAll(dir)
				if interrupt {
					cancel()
				}
			}}
		r, err := cluster.CountCheckpointed(ctx, p, opt)
		cancel()
		if !errors.Is(err, cluster.ErrNotSaved) || !strings.Contains(err.Error(), "checkpoint NOT saved") {
			t.Fatalf("interrupt=%v: %v", interrupt, err)
		}
		if interrupt {
			if r.Status != nqueens.Interrupted || !errors.Is(err, context.Canceled) || r.SubsDone == 0 {
				t.Errorf("interrupted: %+v, %v", r, err)
			}
			continue
		}
		if r.Status != nqueens.Complete || u128.U128(r.Total) != u128.From(oeis.Total(13)) || u128.U128(r.Unique) != u128.From(oeis.Unique(13)) {
			t.Errorf("complete: %+v, %v", r, err)
		}
	}
}

// TestShardResultNotWritten: a shard whose result file cannot be written returns its
// sums, Complete, with an error wrapping ErrNotSaved that says the checkpoint holds the
// count; run again, it writes the result from the checkpoint without counting.
func TestShardResultNotWritten(t *testing.T) {
	ctx := context.Background()
	p := newPlan(t, 12)
	dir := t.TempDir()
	blocker := filepath.Join(dir, "shard-0000-of-0002.json", "x")
	opt := cluster.ShardOptions{Workers: 1, Progress: func(nqueens.Progress) { os.MkdirAll(blocker, 0o755) }}
	r, err := cluster.CountShard(ctx, p, 0, 2, dir, opt)
	if !errors.Is(err, cluster.ErrNotSaved) || r.Status != nqueens.Complete || r.SubsDone != r.Subs ||
		!strings.Contains(err.Error(), "result file NOT written") || !strings.Contains(err.Error(), "run the same command again") {
		t.Fatalf("%+v, %v", r, err)
	}
	os.RemoveAll(filepath.Dir(blocker))
	var resumed int
	opt = cluster.ShardOptions{Resuming: func(path string, done, subs int, written string) { resumed = done }}
	again, err := cluster.CountShard(ctx, p, 0, 2, dir, opt)
	if err != nil || again.Total != r.Total || again.Burnside != r.Burnside || resumed != r.Subs || again.Resumed != r.Subs {
		t.Fatalf("again: %+v, %v (resumed %d)", again, err, resumed)
	}
	if _, err := os.Stat(again.ResultFile); err != nil {
		t.Error(err)
	}
}

// TestProgress: CountCheckpointed and CountShard report in phase "count" through the
// hook of nqueens.Progress, keeping its promises (the root's TestProgressPromises checks
// them for the root's entry points): one call at a time, never going back, never after
// the count returned.
func TestProgress(t *testing.T) {
	ctx := context.Background()
	plan := newPlan(t, 12)
	dir := t.TempDir()
	for _, name := range []string{"CountCheckpointed", "CountShard"} {
		var inFlight, calls atomic.Int32
		var returned atomic.Bool
		var last uint64
		opt := cluster.ShardOptions{Workers: 4, Checkpoint: filepath.Join(dir, "ck"), Progress: func(pr nqueens.Progress) {
			if inFlight.Add(1) > 1 {
				t.Errorf("%s: two calls of the hook at once", name)
			}
			defer inFlight.Add(-1)
			if returned.Load() {
				t.Errorf("%s: a call after the count returned: %+v", name, pr)
			}
			time.Sleep(50 * time.Microsecond) // room for another call to come in
			if pr.Phase != "count" || pr.Done < last || pr.Done > pr.Total {
				t.Errorf("%s: %+v after done %d", name, pr, last)
			}
			last = pr.Done
			calls.Add(1)
		}}
		var err error
		if name == "CountCheckpointed" {
			_, err = cluster.CountCheckpointed(ctx, plan, opt)
		} else {
			opt.Checkpoint = ""
			_, err = cluster.CountShard(ctx, plan, 1, 2, dir, opt)
		}
		returned.Store(true)
		if err != nil {
			t.Fatal(name, err)
		}
		time.Sleep(20 * time.Millisecond)
		if calls.Load() == 0 {
			t.Errorf("%s: no call", name)
		}
	}
}

// TestShardSize: one shard's size is its entry of the split, for a plan of the join
// (n = 22) and one of the constellations (n = 9), shards empty or not.
func TestShardSize(t *testing.T) {
	for _, c := range []struct{ n, k int }{{22, 1}, {22, 7}, {22, 1000}, {9, 3}, {9, 10000}} {
		p := newPlan(t, c.n)
		sizes, err := p.Split(c.k)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 1, c.k / 2, c.k - 1} {
			if i >= c.k {
				continue
			}
			got, err := p.ShardSize(i, c.k)
			if err != nil || got != sizes[i] {
				t.Errorf("n=%d shard %d/%d: %+v %v, the split says %+v", c.n, i, c.k, got, err, sizes[i])
			}
		}
		if _, err := p.ShardSize(c.k, c.k); err == nil {
			t.Errorf("n=%d: shard %d of %d taken", c.n, c.k, c.k)
		}
	}
}
