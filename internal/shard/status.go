package shard

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// DefaultWindow is the time over which Status measures the rate of a run when
// StatusOptions.Window is zero.
const DefaultWindow = time.Hour

// StatusOptions configures ReadStatus.
type StatusOptions struct {
	// Plan, if not nil, returns the plan of n: its costs weigh the shards (Split) and
	// the finished sub-problems of a running shard. Nil: every shard weighs the same,
	// which the split makes nearly so, and a running shard's part is its share of
	// sub-problems finished.
	Plan   func(n int) (*fastcount.Plan, error)
	Now    time.Time     // the time of the report; zero: time.Now()
	Window time.Duration // the recent time over which the rate is measured; 0: DefaultWindow
}

// Status is the state of a sharded count, as its files say: the result files of the
// finished shards, the checkpoints of the started ones, the locks of those being
// counted.
type Status struct {
	Plan, Engine    string
	N, Shards, Subs int // Subs: the plan's sub-problems
	Done            int // shards with a result file of the plan
	// Running are the shards started and not done, by shard: a checkpoint or a lock held.
	Running []Running
	// Missing are the shards neither done nor started.
	Missing Ranges
	// Total and Burnside are the sums of the done shards. Unique is Burnside/8 when every
	// shard is done (Complete), 0 before: a part of the Burnside sum is no count.
	Total, Burnside, Unique u128.U128
	Complete                bool
	// ByPlan tells that the costs come from the plan; false: every shard weighs the same.
	ByPlan bool
	// Fraction is the part of the plan's cost done: the done shards, and the finished
	// sub-problems of the running ones.
	Fraction float64
	// CPUSeconds is the counting time × workers summed over the result files and the
	// checkpoints (a checkpoint does not record its workers: it is taken to run on as
	// many as most result files say, or 1). CPUSecondsLeft estimates what the rest takes,
	// CPUSeconds × (cost left / cost done); -1 when nothing is done yet.
	CPUSeconds, CPUSecondsLeft float64
	// Rate is the shards finished per hour over the Window before the report (shorter
	// when the run started less than Window ago: then since the start, the earliest
	// finish of a shard less its counting time). ETA is when the shards not done end at
	// that rate; zero when the rate is 0.
	Rate   float64
	Window time.Duration
	ETA    time.Time
	Now    time.Time
	// Odd names the files left out, as Merge names them: unreadable, truncated or with a
	// bad checksum, of another plan or shard count, a shard twice, a shard's checkpoint
	// twice; and sums that overflow or do not add up.
	Odd []string
}

// Running is a shard started and not done.
type Running struct {
	Shard      int
	Checkpoint string // its checkpoint file; "" when only its lock shows it (starting)
	Written    string // RFC 3339 time of the checkpoint's last write
	Subs       int    // the shard's sub-problems
	SubsDone   int
	Fraction   float64 // the part of the shard's cost (or, without a plan, of its sub-problems) done
	Seconds    float64 // counting time so far
	// Locked tells that a process holds the shard's lock now: it is being counted. A
	// checkpoint without a lock held is an interrupted shard, to be run again.
	Locked bool
}

// ErrNoShardFiles is wrapped by the error of ReadStatus when a directory holds no shard
// files.
var ErrNoShardFiles = errors.New("no shard files (shard-*.json, shard-*.checkpoint)")

// shardFiles are the files of a run found in its directories.
type shardFiles struct{ results, checkpoints, locks []string }

// listShardFiles lists the shard files of dirs: result files, checkpoints, locks.
func listShardFiles(dirs []string) (*shardFiles, error) {
	fs := &shardFiles{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		before := len(fs.results) + len(fs.checkpoints)
		for _, e := range entries {
			name := e.Name()
			if !strings.HasPrefix(name, "shard-") || e.IsDir() {
				continue
			}
			path := filepath.Join(dir, name)
			switch filepath.Ext(name) {
			case ".json":
				fs.results = append(fs.results, path)
			case ".checkpoint":
				fs.checkpoints = append(fs.checkpoints, path)
			case ".lock":
				fs.locks = append(fs.locks, path)
			}
		}
		if len(fs.results)+len(fs.checkpoints) == before {
			return nil, fmt.Errorf("%s: %w", dir, ErrNoShardFiles)
		}
	}
	return fs, nil
}

// ReadStatus reads the shard files of a run in the directories dirs (each must hold
// some): which shards are done, running or missing, the sums of those done, the CPU time
// spent and left, the rate and the ETA. The plan and shard count are those most files
// share, as for Merge; the other files are named in Odd. The error is for what makes a
// report impossible: a directory unreadable or without shard files (ErrNoShardFiles), no
// file readable, no majority of one plan, a plan of opt.Plan that is not the files'.
func ReadStatus(dirs []string, opt StatusOptions) (*Status, error) {
	now, window := opt.Now, opt.Window
	if now.IsZero() {
		now = time.Now()
	}
	if window <= 0 {
		window = DefaultWindow
	}
	fs, err := listShardFiles(dirs)
	if err != nil {
		return nil, err
	}
	rs, files, odd := readResults(fs.results)
	var ckpts []*Checkpoint
	var ckptFiles []string
	var votes []planOf
	loaded := make([]*Checkpoint, len(fs.checkpoints))
	errs := make([]error, len(fs.checkpoints))
	parallel(len(fs.checkpoints), func(i int) { loaded[i], errs[i] = LoadCheckpoint(fs.checkpoints[i]) })
	for i, c := range loaded {
		if errs[i] != nil {
			odd = append(odd, errs[i].Error())
			continue
		}
		ckpts, ckptFiles = append(ckpts, c), append(ckptFiles, fs.checkpoints[i])
		votes = append(votes, planOf{plan: c.Plan, engine: c.Engine, n: c.N, subs: c.Subs, shards: c.Shards})
	}
	if len(rs) == 0 && len(ckpts) == 0 {
		return nil, fmt.Errorf("no shard file can be read: %s", strings.Join(odd, "; "))
	}
	run, err := sortResults(rs, files, votes, ckptFiles)
	if err != nil {
		return nil, err
	}
	odd = append(odd, run.problems...)
	ref := run.key
	k := ref.shards
	st := &Status{Plan: ref.plan, Engine: ref.engine, N: ref.n, Shards: k, Subs: ref.subs, Now: now}

	// The costs: of each shard, and of a sub-problem (nil: by count).
	shardCost := func(int) float64 { return 1 }
	var subCost func(id int) float64
	if opt.Plan != nil {
		p, err := opt.Plan(ref.n)
		if err != nil {
			return nil, err
		}
		if p.Hash() != ref.plan || p.Version() != ref.engine {
			return nil, fmt.Errorf("the files are of n=%d plan %.12s (engine %s), this program plans n=%d as %.12s (engine %s): they are %w, counted by another version",
				ref.n, ref.plan, ref.engine, p.N, p.Hash(), p.Version(), ErrOtherPlan)
		}
		sizes, err := Split(p, k)
		if err != nil {
			return nil, err
		}
		for i, r := range run.byShard {
			if r != nil && r.IDs.Len() != sizes[i].Subs {
				odd = append(odd, fmt.Sprintf("%s holds %d sub-problems, where shard %d of %d of the plan has %d", run.files[i], r.IDs.Len(), i, k, sizes[i].Subs))
				run.byShard[i], run.files[i] = nil, ""
			}
		}
		shardCost = func(i int) float64 { return float64(sizes[i].Cost) }
		subCost = func(id int) float64 { return float64(p.Cost(id)) }
		st.ByPlan = true
	}

	// The done shards: sums, CPU time, finish times.
	var costAll, costDone float64
	for i := range k {
		costAll += shardCost(i)
	}
	workers := map[int]int{}
	var carry bool
	var finished []time.Time
	start := now
	for i, r := range run.byShard {
		if r == nil {
			continue
		}
		st.Done++
		var c1, c2 bool
		st.Total, c1 = st.Total.Add(r.Total)
		st.Burnside, c2 = st.Burnside.Add(r.Burnside)
		carry = carry || c1 || c2
		st.CPUSeconds += r.Seconds * float64(max(r.Workers, 1))
		workers[max(r.Workers, 1)]++
		costDone += shardCost(i)
		if t, err := time.Parse(time.RFC3339, r.Finished); err == nil {
			finished = append(finished, t)
			if s := t.Add(-time.Duration(r.Seconds * float64(time.Second))); s.Before(start) {
				start = s
			}
		}
	}
	if carry {
		odd = append(odd, "the sums of the done shards overflow 128 bits: the shard counts cannot all be right")
	}
	if st.Done == k && !carry {
		u, err := fastcount.Unique(st.Burnside)
		if err != nil {
			odd = append(odd, fmt.Sprintf("the Burnside sum %v of the shards is not a multiple of 8: a shard count is wrong", st.Burnside))
		} else {
			st.Unique, st.Complete = u, true
		}
	}
	mostWorkers, votesFor := 1, 0
	for w, c := range workers {
		if c > votesFor || c == votesFor && w < mostWorkers {
			mostWorkers, votesFor = w, c
		}
	}

	// The running shards: a checkpoint of the plan, or a lock held.
	running := map[int]*Running{}
	for j, c := range ckpts {
		f := ckptFiles[j]
		key := votes[j]
		if msg := ref.differs(key, c.Shard, f, run.most); msg != "" {
			odd = append(odd, msg)
			continue
		}
		if run.byShard[c.Shard] != nil {
			continue // left over by a count that stopped between its result and the removal
		}
		if prev, ok := running[c.Shard]; ok {
			odd = append(odd, fmt.Sprintf("shard %d of %d has two checkpoints: %s and %s", c.Shard, k, prev.Checkpoint, f))
			if prev.SubsDone >= c.Done.Len() {
				continue
			}
		}
		r := &Running{Shard: c.Shard, Checkpoint: f, Written: c.Written, Subs: c.Todo.Len(), SubsDone: c.Done.Len(), Seconds: c.Seconds}
		r.Fraction = 1
		if subCost == nil && r.Subs > 0 {
			r.Fraction = float64(r.SubsDone) / float64(r.Subs)
		} else if subCost != nil {
			var done, all float64
			isDone := c.Done.Contains
			for _, x := range c.Todo {
				for id := x[0]; id <= x[1]; id++ {
					all += subCost(id)
					if isDone(id) {
						done += subCost(id)
					}
				}
			}
			if all > 0 {
				r.Fraction = done / all
			}
		}
		held, err := Held(filepath.Join(filepath.Dir(f), LockName(c.Shard, k)))
		if err != nil {
			return nil, err
		}
		r.Locked = held
		running[c.Shard] = r
	}
	for _, f := range fs.locks {
		var i, kk int
		if _, err := fmt.Sscanf(filepath.Base(f), "shard-%d-of-%d.lock", &i, &kk); err != nil || kk != k || i < 0 || i >= k {
			continue
		}
		if run.byShard[i] != nil || running[i] != nil {
			continue
		}
		held, err := Held(f)
		if err != nil {
			return nil, err
		}
		if held { // started, its checkpoint not written yet
			running[i] = &Running{Shard: i, Locked: true}
		}
	}
	for _, r := range running {
		st.Running = append(st.Running, *r)
		st.CPUSeconds += r.Seconds * float64(mostWorkers)
		costDone += r.Fraction * shardCost(r.Shard)
	}
	slices.SortFunc(st.Running, func(a, b Running) int { return a.Shard - b.Shard })
	var missing []int
	for i := range k {
		if run.byShard[i] == nil && running[i] == nil {
			missing = append(missing, i)
		}
	}
	st.Missing = RangesOf(missing)

	// What is left, and when it ends.
	st.CPUSecondsLeft = -1
	if costAll > 0 {
		st.Fraction = min(costDone/costAll, 1)
	}
	if costDone > 0 && st.CPUSeconds > 0 {
		st.CPUSecondsLeft = st.CPUSeconds * math.Max(costAll-costDone, 0) / costDone
	}
	st.Window = min(window, now.Sub(start))
	if st.Window > 0 {
		recent := 0
		for _, t := range finished {
			if now.Sub(t) <= st.Window {
				recent++
			}
		}
		st.Rate = float64(recent) / st.Window.Hours()
	}
	if left := k - st.Done; st.Rate > 0 && left > 0 {
		st.ETA = now.Add(time.Duration(float64(left) / st.Rate * float64(time.Hour)))
	}
	st.Odd = odd
	return st, nil
}
