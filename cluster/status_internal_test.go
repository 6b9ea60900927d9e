package cluster

import (
	"context"
	"errors"
	"github.com/nqueens/nqueens"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// statusRun is a run of n = 13 in K = 8 shards as the test leaves it in dir (and dir2):
// shards 0-3 done, 4 interrupted (a checkpoint, no lock), 5 running (a checkpoint and
// its lock held), 6 and 7 not started, with odd files beside them: a result of another
// plan named as shard 6's, a result with a bad checksum named as shard 7's, and in dir2 a
// copy of shard 0's result and shard 1 of a split of the plan into 4.
type statusRun struct {
	p          *fastcount.Plan
	dir, dir2  string
	now        time.Time
	ckpt       [2]*checkpoint // shards 4 and 5
	lock       *fileLock      // shard 5's
	other, bad string         // the odd files
	otherK     string         // in dir2: shard 1 of 4 of the plan
}

const statusN, statusK = 13, 8

// makeStatusRun counts the shards of statusRun with the engine of the plan.
func makeStatusRun(t *testing.T) *statusRun {
	t.Helper()
	s := &statusRun{p: plan(t, statusN), dir: t.TempDir(), dir2: t.TempDir(),
		now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	// The finish times: one three hours ago, three within the last hour.
	ago := []time.Duration{3 * time.Hour, 50 * time.Minute, 20 * time.Minute, 10 * time.Minute}
	for i := range 6 {
		ids, err := shardIDs(s.p, statusK, i)
		if err != nil {
			t.Fatal(err)
		}
		c := newCheckpoint(s.p, i, statusK, ids)
		ctx, cancel := context.WithCancel(context.Background())
		finished := 0
		err = count(ctx, s.p, c, matcherOf(t, s.p, ""), ShardOptions{Workers: 1, Version: "test", Progress: func(nqueens.Progress) {
			if finished++; i >= 4 && finished == 2+i { // shards 4 and 5 stop early
				cancel()
			}
		}})
		cancel()
		if i >= 4 {
			if !errors.Is(err, context.Canceled) || c.Complete || c.Done.Len() == 0 {
				t.Fatalf("shard %d: %v, %d of %d done", i, err, c.Done.Len(), c.Todo.Len())
			}
			c.Seconds = float64(100 * i) // counting time, as a long count would have
			if err := c.save(filepath.Join(s.dir, CheckpointFile(i, statusK))); err != nil {
				t.Fatal(err)
			}
			s.ckpt[i-4] = c
			continue
		}
		if err != nil || !c.Complete {
			t.Fatalf("shard %d: %v", i, err)
		}
		r := c.toResult()
		r.Version, r.Workers, r.Seconds = "test", 2, float64(1000*(i+1))
		r.Finished = s.now.Add(-ago[i]).Format(time.RFC3339)
		if err := writeResult(filepath.Join(s.dir, ResultFile(i, statusK)), r); err != nil {
			t.Fatal(err)
		}
	}
	l, err := tryLock(filepath.Join(s.dir, lockFile(5, statusK)))
	if err != nil {
		t.Fatal(err)
	}
	s.lock = l
	t.Cleanup(l.release)
	// A file left by a run of another plan, one whose content was edited after its seal,
	// and a copy of shard 0 in the second directory.
	other := plan(t, 12)
	ids, _ := shardIDs(other, statusK, 6)
	c := newCheckpoint(other, 6, statusK, ids)
	if err := count(context.Background(), other, c, matcherOf(t, other, ""), ShardOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	s.other = filepath.Join(s.dir, ResultFile(6, statusK))
	if err := writeResult(s.other, c.toResult()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(s.dir, ResultFile(3, statusK)))
	if err != nil {
		t.Fatal(err)
	}
	s.bad = filepath.Join(s.dir, ResultFile(7, statusK))
	os.WriteFile(s.bad, []byte(strings.Replace(string(b), `"shard": 3`, `"shard": 7`, 1)), 0o644)
	b, _ = os.ReadFile(filepath.Join(s.dir, ResultFile(0, statusK)))
	os.WriteFile(filepath.Join(s.dir2, ResultFile(0, statusK)), b, 0o644)
	// A shard of the same plan split into 4, not 8.
	ids, _ = shardIDs(s.p, 4, 1)
	c = newCheckpoint(s.p, 1, 4, ids)
	if err := count(context.Background(), s.p, c, matcherOf(t, s.p, ""), ShardOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	s.otherK = filepath.Join(s.dir2, ResultFile(1, 4))
	if err := writeResult(s.otherK, c.toResult()); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStatus: on a run with finished, interrupted, running, missing and odd files, status
// reports each: the shards done, running (locked or not) and missing, the sums of the
// done shards against a count of their sub-problems here, their CPU time, the fractions
// by the plan's costs and what is left, the rate and ETA, and every odd file named.
func TestStatus(t *testing.T) {
	s := makeStatusRun(t)
	st, err := readStatus([]string{s.dir, s.dir2}, RunStatusOptions{Now: s.now},
		func(n int) (*fastcount.Plan, error) { return fastcount.NewPlan(n) })
	if err != nil {
		t.Fatal(err)
	}
	if st.N != statusN || st.Shards != statusK || st.PlanHash != s.p.Hash() || st.Engine != s.p.Version() || st.Subs != s.p.Len() || st.EstimatedBy != "plan" {
		t.Errorf("plan: %+v", st)
	}
	if st.ShardsDone != 4 || st.Missing != "6-7" || len(st.Started) != 2 || st.Complete || u128.U128(st.Unique) != (u128.U128{}) {
		t.Fatalf("done %d, missing %q, running %+v, complete %v, unique %v", st.ShardsDone, st.Missing, st.Started, st.Complete, st.Unique)
	}

	// The sums, against the sub-problems of shards 0-3 counted again here.
	var ids []int
	for i := range 4 {
		x, _ := shardIDs(s.p, statusK, i)
		ids = append(ids, x...)
	}
	var total, burnside u128.U128
	if err := s.p.CountSubs(context.Background(), ids, 1, func(_ int, r fastcount.SubResult) {
		total, _ = total.Add64(r.Total)
		burnside, _ = burnside.Add64(r.Burnside)
	}); err != nil {
		t.Fatal(err)
	}
	if u128.U128(st.Total) != total || u128.U128(st.Burnside) != burnside || total == (u128.U128{}) {
		t.Errorf("sums %v %v, counted %v %v", st.Total, st.Burnside, total, burnside)
	}

	checkStarted(t, s, st)

	// CPU: result files at 2 workers, checkpoints taken at 2 as well.
	spent := 2*(1000+2000+3000+4000) + 2*(400+500.0)
	sizes, _ := split(s.p, statusK)
	costDone := float64(sizes[0].Cost + sizes[1].Cost + sizes[2].Cost + sizes[3].Cost)
	costDone += st.Started[0].FractionDone*float64(sizes[4].Cost) + st.Started[1].FractionDone*float64(sizes[5].Cost)
	left := spent * (float64(s.p.TotalCost) - costDone) / costDone
	if st.CPUSeconds != spent || math.Abs(st.CPUSecondsLeft-left) > 1e-6*left || math.Abs(st.FractionDone-costDone/float64(s.p.TotalCost)) > 1e-9 {
		t.Errorf("cpu %v s, left %v s, fraction %v; want %v, %v, %v", st.CPUSeconds, st.CPUSecondsLeft, st.FractionDone, spent, left, costDone/float64(s.p.TotalCost))
	}

	// Three shards in the last hour: 3 an hour, the 4 left in 80 minutes.
	if st.Window != time.Hour || st.ShardsPerHour != 3 || !st.ETA.Equal(s.now.Add(80*time.Minute)) {
		t.Errorf("window %v, rate %v, ETA %v", st.Window, st.ShardsPerHour, st.ETA)
	}

	checkOddFiles(t, s, st)

	// Once shard 5's count ends, it is an interrupted shard.
	s.lock.release()
	st, err = readStatus([]string{s.dir}, RunStatusOptions{Now: s.now}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.EstimatedBy == "plan" || len(st.Started) != 2 || st.Started[1].Locked || len(st.OddFiles) != 2 {
		t.Errorf("without the lock and the plan: %+v", st)
	}
	// Without the plan: every shard weighs one, a running shard's part is by sub-problems.
	c := s.ckpt[0]
	if f := float64(c.Done.Len()) / float64(c.Todo.Len()); st.Started[0].FractionDone != f {
		t.Errorf("fraction by sub-problems %v, want %v", st.Started[0].FractionDone, f)
	}
	if f := (4 + st.Started[0].FractionDone + st.Started[1].FractionDone) / 8; math.Abs(st.FractionDone-f) > 1e-9 {
		t.Errorf("fraction by shards %v, want %v", st.FractionDone, f)
	}
}

// TestStatusComplete: with every shard done, status gives the unique count, and a plan
// that is not the files' is refused.
func TestStatusComplete(t *testing.T) {
	dir := t.TempDir()
	countShards(t, dir, 12, 3)
	st, err := readStatus([]string{dir}, RunStatusOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Complete || st.ShardsDone != 3 || st.Missing != "" || u128.U128(st.Unique) != u128.From(known(12)[1]) || u128.U128(st.Total) != u128.From(known(12)[0]) ||
		st.FractionDone != 1 || st.CPUSecondsLeft != 0 || !st.ETA.IsZero() {
		t.Errorf("%+v", st)
	}
	_, err = readStatus([]string{dir}, RunStatusOptions{}, func(int) (*fastcount.Plan, error) { return fastcount.NewPlan(13) })
	if !errors.Is(err, ErrOtherPlan) || !strings.Contains(err.Error(), "counted by another version") {
		t.Errorf("another plan: %v", err)
	}
}

// TestStatusNoFiles: a directory without shard files is ErrNoShardFiles; one without a
// readable file says why.
func TestStatusNoFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	if _, err := readStatus([]string{dir}, RunStatusOptions{}, nil); !errors.Is(err, ErrNoShardFiles) {
		t.Errorf("no shard files: %v", err)
	}
	os.WriteFile(filepath.Join(dir, ResultFile(0, 2)), []byte(`{"format":`), 0o644)
	if _, err := readStatus([]string{dir}, RunStatusOptions{}, nil); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("no readable file: %v", err)
	}
}

// BenchmarkStatus100k: the status of a run of 100,000 shards, all done, each a small
// result file (one sub-problem), read from a directory the benchmark writes first (with
// plain writes, not fsync'd: the files are the same). The issue asks for ≤ 30 s.
func BenchmarkStatus100k(b *testing.B) {
	const k = 100_000
	dir := b.TempDir()
	write := func(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
	now := time.Now().UTC()
	for i := range k {
		r := &result{Plan: strings.Repeat("ab", 32), Engine: "qjoin/v3", N: 27, Shard: i, Shards: k, Subs: k,
			IDs: ranges{{i, i}}, Total: u128.From(uint64(1000 + i)), Burnside: u128.From(uint64(8 * i)),
			Seconds: 3600, Workers: 2, Version: "bench", Host: "node", Finished: now.Add(-time.Duration(i) * time.Second).Format(time.RFC3339)}
		if err := writeResultWith(filepath.Join(dir, ResultFile(i, k)), r, write); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		st, err := readStatus([]string{dir}, RunStatusOptions{Now: now}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if st.ShardsDone != k || !st.Complete || len(st.OddFiles) != 0 {
			b.Fatalf("done %d, complete %v, odd %q", st.ShardsDone, st.Complete, st.OddFiles)
		}
	}
}

// checkStarted checks the started shards of the status st of the run s: their fraction by
// the costs of their sub-problems.
func checkStarted(t *testing.T, s *statusRun, st RunStatus) {
	t.Helper()
	for j, r := range st.Started {
		c := s.ckpt[j]
		var done, all float64
		for _, id := range c.Todo.IDs() {
			all += float64(s.p.Cost(id))
			if c.Done.Contains(id) {
				done += float64(s.p.Cost(id))
			}
		}
		want := StartedShard{Shard: 4 + j, Checkpoint: filepath.Join(s.dir, CheckpointFile(4+j, statusK)), Written: c.Written,
			Subs: c.Todo.Len(), SubsDone: c.Done.Len(), FractionDone: done / all, Seconds: c.Seconds, Locked: j == 1}
		if r != want || r.FractionDone <= 0 || r.FractionDone >= 1 {
			t.Errorf("running: %+v, want %+v", r, want)
		}
	}
}

// checkOddFiles checks the odd files of the status st of the run s: each named once, as
// merge names them.
func checkOddFiles(t *testing.T, s *statusRun, st RunStatus) {
	t.Helper()
	want := []string{s.other + " is from another plan", s.bad + ": bad checksum",
		"shard 0 of 8 appears twice: ", s.otherK + " is shard 1 of 4, not of 8 as the other "}
	if len(st.OddFiles) != len(want) {
		t.Errorf("odd files: %q", st.OddFiles)
	}
	for _, w := range want {
		found := false
		for _, o := range st.OddFiles {
			found = found || strings.Contains(o, w)
		}
		if !found {
			t.Errorf("no odd file says %q: %q", w, st.OddFiles)
		}
	}
}
