package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// ErrNoShardFiles is wrapped by the error of ReadRunStatus when a directory holds no shard
// result file or checkpoint.
var ErrNoShardFiles = errors.New("no shard files (shard-*.json, shard-*.checkpoint)")

// RunStatusOptions configures ReadRunStatus.
type RunStatusOptions struct {
	// NoPlan skips planning n: every shard weighs the same (the split balances them by
	// cost, but for a few) and a started shard's part is its share of sub-problems
	// finished. Planning takes seconds up to n = 26, 10 s and 0.39 GB at n = 27 (with a
	// million shards), 25 s and 0.93 GB at n = 28.
	NoPlan bool
	Window time.Duration // the recent time over which the rate is measured; 0: an hour
	Now    time.Time     // the time of the report; zero: now
}

// RunStatus is the state of a sharded count in progress (CountShard into one or more
// directories), as the files of its shards say.
type RunStatus struct {
	PlanHash, Engine string // the plan's Hash and Engine
	N, Shards, Subs  int    // Subs: the plan's sub-problems
	// The shards with a result file of the plan; with a checkpoint whose lock a process
	// holds now; with a checkpoint and no lock held (to be run again); with none of these.
	ShardsDone, ShardsRunning, ShardsInterrupted, ShardsMissing int
	Started                                                     []StartedShard // the running and interrupted shards, by shard
	Missing                                                     string         // the shards not started, as ranges: "6-7,12"
	// Total and Burnside are the sums of the done shards. Unique is set when every shard
	// is done (Complete): a part of the Burnside sum is no count.
	Total, Burnside, Unique nqueens.Uint128
	Complete                bool
	// Kernels are the distinct matcher kernels that counted the done shards, in the order
	// of the shards that first name them (as MergeResult.Kernels).
	Kernels []string
	// FractionDone is the part of the plan's cost done: the done shards and the finished
	// sub-problems of the started ones. EstimatedBy says where the costs come from: "plan",
	// or "shards" (NoPlan: every shard the same).
	FractionDone float64
	EstimatedBy  string
	// CPUSeconds is the counting time × workers summed over the result files and
	// checkpoints: each count's wall time times its goroutines, not CPU time measured (a
	// checkpoint does not record its workers: taken as most result files say).
	// CPUSecondsLeft estimates the rest, CPUSeconds × cost left / cost done; -1 while
	// nothing is done.
	CPUSeconds, CPUSecondsLeft float64
	// ShardsPerHour is the rate of finished shards over Window before the report (since
	// the run started if it started later); ETA is when the shards not done end at that
	// rate, zero when the rate is 0 or every shard is done.
	ShardsPerHour float64
	Window        time.Duration
	ETA           time.Time
	// OddFiles names the files left out, as MergeShards names them: unreadable, truncated,
	// a bad checksum, another plan or shard count, a shard twice.
	OddFiles []string
}

// StartedShard is a shard of a RunStatus started and not done.
type StartedShard struct {
	Shard        int
	Locked       bool    // a process holds its lock: it is being counted; false: interrupted
	FractionDone float64 // the part of its cost (with NoPlan, of its sub-problems) done
	Subs         int     // the shard's sub-problems
	SubsDone     int
	Seconds      float64 // counting time so far
	Written      string  // RFC 3339 time of its checkpoint's last write
	Checkpoint   string  // its checkpoint file; "" when only its lock shows it (starting)
}

// defaultWindow is the time over which ReadRunStatus measures the rate of a run when
// RunStatusOptions.Window is zero.
const defaultWindow = time.Hour

// ReadRunStatus reads the files of a sharded count in the directories dirs: the plan and
// shard count are those most files share, as for MergeShards, and the other files are
// named in OddFiles. It fails when a directory cannot be read or holds no shard files
// (ErrNoShardFiles), when no file can be read, when two plans tie for the most files, and
// when this program plans n otherwise than the files say (another version counted them:
// NoPlan reports without the plan).
func ReadRunStatus(ctx context.Context, dirs []string, opt RunStatusOptions) (RunStatus, error) {
	var plan func(n int) (*fastcount.Plan, error)
	if !opt.NoPlan {
		plan = func(n int) (*fastcount.Plan, error) { return fastcount.NewPlanContext(ctx, n, fastcount.EngineAuto) }
	}
	return readStatus(dirs, opt, plan)
}

// readStatus is ReadRunStatus with the plan of n made by plan: nil weighs every shard the
// same (NoPlan). It reports in steps: the files read and sorted by plan (readRun), the
// costs (weigh), the done shards (addDone), the started ones (findStarted, addStarted),
// and what is left and when it ends (addEstimates).
func readStatus(dirs []string, opt RunStatusOptions, plan func(n int) (*fastcount.Plan, error)) (RunStatus, error) {
	now, window := opt.Now, opt.Window
	if now.IsZero() {
		now = time.Now()
	}
	if window <= 0 {
		window = defaultWindow
	}
	fs, err := listShardFiles(dirs)
	if err != nil {
		return RunStatus{}, err
	}
	r, err := readRun(fs)
	if err != nil {
		return RunStatus{}, err
	}
	ref := r.key
	st := RunStatus{PlanHash: ref.plan, Engine: ref.engine, N: ref.n, Shards: ref.shards, Subs: ref.subs, EstimatedBy: "shards"}
	w, err := r.weigh(plan)
	if err != nil {
		return RunStatus{}, err
	}
	if w.byPlan {
		st.EstimatedBy = "plan"
	}
	done := r.addDone(&st, w, now)
	started, err := r.findStarted(fs.locks, w)
	if err != nil {
		return RunStatus{}, err
	}
	costDone := done.cost + r.addStarted(&st, started, w, done.mostWorkers)
	st.addEstimates(w.all, costDone, done, now, window)
	st.OddFiles = r.odd
	return st, nil
}

// runFiles is the files of a run read for its status: the result files of the plan
// most files share, by shard, with the checkpoints (of any plan) and the files left out.
type runFiles struct {
	*sorted
	ckpts     []*checkpoint
	ckptFiles []string
	votes     []planOf // the plans of the checkpoints
	odd       []string // the files left out and why, and the sums that do not add up
}

// readRun reads the result files and checkpoints fs, those that cannot be read named in
// odd, and sorts the results by shard for the plan and shard count most files share.
func readRun(fs *shardFiles) (*runFiles, error) {
	rs, files, odd := readResults(fs.results)
	r := &runFiles{}
	loaded := make([]*checkpoint, len(fs.checkpoints))
	errs := make([]error, len(fs.checkpoints))
	parallel(len(fs.checkpoints), func(i int) { loaded[i], errs[i] = loadCheckpoint(fs.checkpoints[i]) })
	for i, c := range loaded {
		if errs[i] != nil {
			odd = append(odd, errs[i].Error())
			continue
		}
		r.ckpts, r.ckptFiles = append(r.ckpts, c), append(r.ckptFiles, fs.checkpoints[i])
		r.votes = append(r.votes, planOf{plan: c.Plan, engine: c.Engine, n: c.N, subs: c.Subs, shards: c.Shards})
	}
	if len(rs) == 0 && len(r.ckpts) == 0 {
		return nil, fmt.Errorf("no shard file can be read: %s", strings.Join(odd, "; "))
	}
	s, err := sortResults(rs, files, r.votes, r.ckptFiles)
	if err != nil {
		return nil, err
	}
	r.sorted, r.odd = s, append(odd, s.problems...)
	return r, nil
}

// weights are the costs of a run's shards and sub-problems.
type weights struct {
	shard  func(i int) float64  // of shard i
	sub    func(id int) float64 // of a sub-problem; nil: by count
	all    float64              // of every shard
	byPlan bool                 // the costs are the plan's; else every shard weighs 1
}

// weigh returns the costs of r's shards: the plan's, made by plan (nil: every shard
// weighs the same). With the plan, a result file that holds another number of
// sub-problems than its shard of the split is left out.
func (r *runFiles) weigh(plan func(n int) (*fastcount.Plan, error)) (weights, error) {
	ref, k := r.key, r.key.shards
	w := weights{shard: func(int) float64 { return 1 }}
	if plan != nil {
		p, err := plan(ref.n)
		if err != nil {
			return w, err
		}
		if p.Hash() != ref.plan || p.Version() != ref.engine {
			return w, fmt.Errorf("the files are of n=%d plan %.12s (engine %s), this program plans n=%d as %.12s (engine %s): they are %w, counted by another version",
				ref.n, ref.plan, ref.engine, p.N, p.Hash(), p.Version(), ErrOtherPlan)
		}
		sizes, err := split(p, k)
		if err != nil {
			return w, err
		}
		for i, res := range r.byShard {
			if res != nil && res.IDs.Len() != sizes[i].Subs {
				r.odd = append(r.odd, fmt.Sprintf("%s holds %d sub-problems, where shard %d of %d of the plan has %d", r.files[i], res.IDs.Len(), i, k, sizes[i].Subs))
				r.byShard[i], r.files[i] = nil, ""
			}
		}
		w.shard = func(i int) float64 { return float64(sizes[i].Cost) }
		w.sub = func(id int) float64 { return float64(p.Cost(id)) }
		w.byPlan = true
	}
	for i := range k {
		w.all += w.shard(i)
	}
	return w, nil
}

// doneShards is what the done shards of a run tell beyond their sums.
type doneShards struct {
	cost        float64     // their cost
	finished    []time.Time // when each finished
	start       time.Time   // when the run started: the earliest finish less its counting time
	mostWorkers int         // the workers most result files say
}

// addDone adds the done shards of r to st: their number, sums, and CPU time; and, when
// every shard is done, the unique count (the sums that overflow or do not add up are
// named in r.odd).
func (r *runFiles) addDone(st *RunStatus, w weights, now time.Time) doneShards {
	d := doneShards{start: now}
	workers := map[int]int{}
	var carry bool
	var total, burnside u128.U128
	for i, res := range r.byShard {
		if res == nil {
			continue
		}
		st.ShardsDone++
		var c1, c2 bool
		total, c1 = total.Add(res.Total)
		burnside, c2 = burnside.Add(res.Burnside)
		carry = carry || c1 || c2
		st.CPUSeconds += res.Seconds * float64(max(res.Workers, 1))
		st.Kernels = addKernels(st.Kernels, res.Kernel)
		workers[max(res.Workers, 1)]++
		d.cost += w.shard(i)
		if t, err := time.Parse(time.RFC3339, res.Finished); err == nil {
			d.finished = append(d.finished, t)
			if s := t.Add(-time.Duration(res.Seconds * float64(time.Second))); s.Before(d.start) {
				d.start = s
			}
		}
	}
	if carry {
		r.odd = append(r.odd, "the sums of the done shards overflow 128 bits: the shard counts cannot all be right")
	}
	st.Total, st.Burnside = nqueens.Uint128(total), nqueens.Uint128(burnside)
	if st.ShardsDone == st.Shards && !carry {
		u, err := fastcount.Unique(burnside)
		if err != nil {
			r.odd = append(r.odd, fmt.Sprintf("the Burnside sum %v of the shards is not a multiple of 8: a shard count is wrong", burnside))
		} else {
			st.Unique, st.Complete = nqueens.Uint128(u), true
		}
	}
	d.mostWorkers = 1
	votesFor := 0
	for n, c := range workers {
		if c > votesFor || c == votesFor && n < d.mostWorkers {
			d.mostWorkers, votesFor = n, c
		}
	}
	return d
}

// findStarted returns the started shards of r that are not done, by shard: a checkpoint
// of the plan (the one with more done, of two), or a lock held (locks: the lock files);
// the checkpoints of another plan and a shard's second one are named in r.odd.
func (r *runFiles) findStarted(locks []string, w weights) (map[int]*StartedShard, error) {
	k := r.key.shards
	started := map[int]*StartedShard{}
	for j, c := range r.ckpts {
		f := r.ckptFiles[j]
		if msg := r.key.differs(r.votes[j], c.Shard, f, r.most); msg != "" {
			r.odd = append(r.odd, msg)
			continue
		}
		if r.byShard[c.Shard] != nil {
			continue // left over by a count that stopped between its result and the removal
		}
		if prev, ok := started[c.Shard]; ok {
			r.odd = append(r.odd, fmt.Sprintf("shard %d of %d has two checkpoints: %s and %s", c.Shard, k, prev.Checkpoint, f))
			if prev.SubsDone >= c.Done.Len() {
				continue
			}
		}
		held, err := lockHeld(filepath.Join(filepath.Dir(f), lockFile(c.Shard, k)))
		if err != nil {
			return nil, err
		}
		started[c.Shard] = &StartedShard{Shard: c.Shard, Locked: held, FractionDone: c.fractionDone(w.sub), Subs: c.Todo.Len(),
			SubsDone: c.Done.Len(), Seconds: c.Seconds, Written: c.Written, Checkpoint: f}
	}
	for _, f := range locks {
		var i, kk int
		if _, err := fmt.Sscanf(filepath.Base(f), "shard-%d-of-%d.lock", &i, &kk); err != nil || kk != k || i < 0 || i >= k {
			continue
		}
		if r.byShard[i] != nil || started[i] != nil {
			continue
		}
		held, err := lockHeld(f)
		if err != nil {
			return nil, err
		}
		if held { // started, its checkpoint not written yet
			started[i] = &StartedShard{Shard: i, Locked: true}
		}
	}
	return started, nil
}

// fractionDone is the part of the cost of c's sub-problems that is done, each weighing
// subCost (nil: 1).
func (c *checkpoint) fractionDone(subCost func(id int) float64) float64 {
	subs := c.Todo.Len()
	if subCost == nil {
		if subs > 0 {
			return float64(c.Done.Len()) / float64(subs)
		}
		return 1
	}
	var done, all float64
	for _, x := range c.Todo {
		for id := x[0]; id <= x[1]; id++ {
			all += subCost(id)
			if c.Done.Contains(id) {
				done += subCost(id)
			}
		}
	}
	if all > 0 {
		return done / all
	}
	return 1
}

// addStarted adds the started shards to st, by shard, with their CPU time (on as many
// workers as most result files say) and the shards neither done nor started; it returns
// the cost of the started shards done.
func (r *runFiles) addStarted(st *RunStatus, started map[int]*StartedShard, w weights, workers int) (cost float64) {
	for _, s := range started {
		st.Started = append(st.Started, *s)
		st.CPUSeconds += s.Seconds * float64(workers)
		cost += s.FractionDone * w.shard(s.Shard)
		if s.Locked {
			st.ShardsRunning++
		} else {
			st.ShardsInterrupted++
		}
	}
	slices.SortFunc(st.Started, func(a, b StartedShard) int { return a.Shard - b.Shard })
	var missing []int
	for i := range st.Shards {
		if r.byShard[i] == nil && started[i] == nil {
			missing = append(missing, i)
		}
	}
	st.ShardsMissing, st.Missing = len(missing), rangesOf(missing).String()
	return cost
}

// addEstimates sets the part of the cost done (costDone of costAll), the CPU time left,
// and the rate of finished shards over the window before now (shorter when the run
// started less than window ago: then since the start) and the ETA at that rate.
func (st *RunStatus) addEstimates(costAll, costDone float64, d doneShards, now time.Time, window time.Duration) {
	st.CPUSecondsLeft = -1
	if costAll > 0 {
		st.FractionDone = min(costDone/costAll, 1)
	}
	if costDone > 0 && st.CPUSeconds > 0 {
		st.CPUSecondsLeft = st.CPUSeconds * math.Max(costAll-costDone, 0) / costDone
	}
	st.Window = min(window, now.Sub(d.start))
	if st.Window > 0 {
		recent := 0
		for _, t := range d.finished {
			if now.Sub(t) <= st.Window {
				recent++
			}
		}
		st.ShardsPerHour = float64(recent) / st.Window.Hours()
	}
	if left := st.Shards - st.ShardsDone; st.ShardsPerHour > 0 && left > 0 {
		st.ETA = now.Add(time.Duration(float64(left) / st.ShardsPerHour * float64(time.Hour)))
	}
}

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
