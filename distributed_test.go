package nqueens_test

import (
	"context"
	"errors"
	"github.com/nqueens/nqueens/internal/u128"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/oeis"
)

// TestShardsAndMerge counts n = 12 as 3 shards through the public API, counts a shard
// again (skipped), and merges to the known counts.
func TestShardsAndMerge(t *testing.T) {
	ctx := context.Background()
	p, err := nqueens.NewPlan(ctx, 12)
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := p.Split(3)
	if err != nil || len(sizes) != 3 || sizes[0].Subs+sizes[1].Subs+sizes[2].Subs != p.Subs() {
		t.Fatalf("Split(3) = %v, %v for %d sub-problems", sizes, err, p.Subs())
	}
	dir := t.TempDir()
	for i := range 3 {
		r, err := nqueens.CountShard(ctx, p, i, 3, dir, nqueens.ShardOptions{Workers: 2})
		if err != nil || r.Status != nqueens.Complete || r.Skipped || r.Subs != sizes[i].Subs {
			t.Fatalf("shard %d: %+v, %v", i, r, err)
		}
		if _, err := os.Stat(r.Checkpoint); !os.IsNotExist(err) {
			t.Errorf("shard %d left its checkpoint %s", i, r.Checkpoint)
		}
	}
	if r, err := nqueens.CountShard(ctx, p, 1, 3, dir, nqueens.ShardOptions{}); err != nil || !r.Skipped {
		t.Errorf("a finished shard again: %+v, %v", r, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "shard-*.json"))
	if err != nil || len(files) != 3 {
		t.Fatal(files, err)
	}
	m, err := nqueens.MergeShards(files)
	if err != nil || m.Total != u128.From(oeis.Total(12)) || m.Unique != u128.From(oeis.Unique(12)) || m.Shards != 3 || m.Plan != p.Hash() {
		t.Fatalf("merge: %+v, %v", m, err)
	}
	var me *nqueens.MergeError
	if _, err := nqueens.MergeShards(files[:2]); !errors.As(err, &me) {
		t.Errorf("a merge with a shard missing: %v", err)
	}
	other, _ := nqueens.NewPlan(ctx, 11)
	if _, err := nqueens.CountShard(ctx, other, 0, 3, dir, nqueens.ShardOptions{}); !errors.Is(err, nqueens.ErrOtherPlan) {
		t.Errorf("n=11 into the directory of n=12: %v", err)
	}
}

// TestCountCheckpointed interrupts a checkpointed count, refuses to start over an
// existing checkpoint without Resume, and resumes it to the known counts.
func TestCountCheckpointed(t *testing.T) {
	p, err := nqueens.NewPlan(context.Background(), 16)
	if err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(t.TempDir(), "ck")
	// The count is cancelled from its own progress, after a few sub-problems: however
	// fast the engine, the interruption lands inside the count.
	ctx, cancel := context.WithCancel(context.Background())
	opt := nqueens.ShardOptions{Workers: 1, Checkpoint: ck, CheckpointEvery: 10 * time.Millisecond,
		Progress: func(p nqueens.Progress) {
			if p.Done > 0 {
				cancel()
			}
		}}
	r, err := nqueens.CountCheckpointed(ctx, p, opt)
	cancel()
	if !errors.Is(err, context.Canceled) || r.Status != nqueens.Interrupted || r.SubsDone == 0 || r.SubsDone >= r.Subs {
		t.Fatalf("interrupted count: %+v, %v", r, err)
	}
	opt.Progress = nil
	if _, err := nqueens.CountCheckpointed(context.Background(), p, opt); !errors.Is(err, nqueens.ErrCheckpointExists) {
		t.Fatalf("over an existing checkpoint without Resume: %v", err)
	}
	opt.Resume = true
	r, err = nqueens.CountCheckpointed(context.Background(), p, opt)
	if err != nil || r.Status != nqueens.Complete || r.Resumed == 0 || r.Total != u128.From(oeis.Total(16)) || r.Unique != u128.From(oeis.Unique(16)) {
		t.Fatalf("resumed: %+v, %v", r, err)
	}
	other, _ := nqueens.NewPlan(context.Background(), 15)
	if _, err := nqueens.CountCheckpointed(context.Background(), other, opt); !errors.Is(err, nqueens.ErrOtherPlan) {
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
		if i, k, err := nqueens.ParseShard(s, env); err != nil || i != want[0] || k != want[1] {
			t.Errorf("%s: %d/%d %v", s, i, k, err)
		}
	}
	for _, s := range []string{"8/8", "-1/8", "1", "1/0", "a/b", "auto/4", "1/100000000"} {
		if _, _, err := nqueens.ParseShard(s, env); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
}

// TestCountNotSaved: a count whose checkpoint directory is removed while it runs still
// returns its exact sums, Complete, with an error wrapping ErrNotSaved; interrupted, it
// returns the partial sums, Interrupted, wrapping both ErrNotSaved and the cancellation.
func TestCountNotSaved(t *testing.T) {
	p, err := nqueens.NewPlan(context.Background(), 13)
	if err != nil {
		t.Fatal(err)
	}
	for _, interrupt := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "gone")
		os.Mkdir(dir, 0o755)
		ctx, cancel := context.WithCancel(context.Background())
		opt := nqueens.ShardOptions{Workers: 1, Checkpoint: filepath.Join(dir, "ck"),
			Progress: func(nqueens.Progress) {
				os.RemoveAll(dir)
				if interrupt {
					cancel()
				}
			}}
		r, err := nqueens.CountCheckpointed(ctx, p, opt)
		cancel()
		if !errors.Is(err, nqueens.ErrNotSaved) || !strings.Contains(err.Error(), "checkpoint NOT saved") {
			t.Fatalf("interrupt=%v: %v", interrupt, err)
		}
		if interrupt {
			if r.Status != nqueens.Interrupted || !errors.Is(err, context.Canceled) || r.SubsDone == 0 {
				t.Errorf("interrupted: %+v, %v", r, err)
			}
			continue
		}
		if r.Status != nqueens.Complete || r.Total != u128.From(oeis.Total(13)) || r.Unique != u128.From(oeis.Unique(13)) {
			t.Errorf("complete: %+v, %v", r, err)
		}
	}
}

// TestShardResultNotWritten: a shard whose result file cannot be written returns its
// sums, Complete, with an error wrapping ErrNotSaved that says the checkpoint holds the
// count; run again, it writes the result from the checkpoint without counting.
func TestShardResultNotWritten(t *testing.T) {
	ctx := context.Background()
	p, err := nqueens.NewPlan(ctx, 12)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	blocker := filepath.Join(dir, "shard-0000-of-0002.json", "x")
	opt := nqueens.ShardOptions{Workers: 1, Progress: func(nqueens.Progress) { os.MkdirAll(blocker, 0o755) }}
	r, err := nqueens.CountShard(ctx, p, 0, 2, dir, opt)
	if !errors.Is(err, nqueens.ErrNotSaved) || r.Status != nqueens.Complete || r.SubsDone != r.Subs ||
		!strings.Contains(err.Error(), "result file NOT written") || !strings.Contains(err.Error(), "run the same command again") {
		t.Fatalf("%+v, %v", r, err)
	}
	os.RemoveAll(filepath.Dir(blocker))
	var resumed int
	opt = nqueens.ShardOptions{Resuming: func(path string, done, subs int, written string) { resumed = done }}
	again, err := nqueens.CountShard(ctx, p, 0, 2, dir, opt)
	if err != nil || again.Total != r.Total || again.Burnside != r.Burnside || resumed != r.Subs || again.Resumed != r.Subs {
		t.Fatalf("again: %+v, %v (resumed %d)", again, err, resumed)
	}
	if _, err := os.Stat(again.ResultFile); err != nil {
		t.Error(err)
	}
}
