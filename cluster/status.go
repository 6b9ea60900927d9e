package cluster

import (
	"context"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/shard"
)

// ErrNoShardFiles is wrapped by the error of ReadRunStatus when a directory holds no shard
// result file or checkpoint.
var ErrNoShardFiles = shard.ErrNoShardFiles

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

// ReadRunStatus reads the files of a sharded count in the directories dirs: the plan and
// shard count are those most files share, as for MergeShards, and the other files are
// named in OddFiles. It fails when a directory cannot be read or holds no shard files
// (ErrNoShardFiles), when no file can be read, when two plans tie for the most files, and
// when this program plans n otherwise than the files say (another version counted them:
// NoPlan reports without the plan).
func ReadRunStatus(ctx context.Context, dirs []string, opt RunStatusOptions) (RunStatus, error) {
	sopt := shard.StatusOptions{Now: opt.Now, Window: opt.Window}
	if !opt.NoPlan {
		sopt.Plan = func(n int) (*fastcount.Plan, error) { return fastcount.NewPlanContext(ctx, n, fastcount.EngineAuto) }
	}
	st, err := shard.ReadStatus(dirs, sopt)
	if err != nil {
		return RunStatus{}, err
	}
	out := RunStatus{PlanHash: st.Plan, Engine: st.Engine, N: st.N, Shards: st.Shards, Subs: st.Subs,
		ShardsDone: st.Done, ShardsMissing: st.Missing.Len(), Missing: st.Missing.String(),
		Total: st.Total, Burnside: st.Burnside, Complete: st.Complete, FractionDone: st.Fraction, EstimatedBy: "shards",
		CPUSeconds: st.CPUSeconds, CPUSecondsLeft: st.CPUSecondsLeft, ShardsPerHour: st.Rate, Window: st.Window,
		ETA: st.ETA, OddFiles: st.Odd}
	if st.Complete {
		out.Unique = st.Unique
	}
	if st.ByPlan {
		out.EstimatedBy = "plan"
	}
	for _, r := range st.Running {
		if r.Locked {
			out.ShardsRunning++
		} else {
			out.ShardsInterrupted++
		}
		out.Started = append(out.Started, StartedShard{Shard: r.Shard, Locked: r.Locked, FractionDone: r.Fraction,
			Subs: r.Subs, SubsDone: r.SubsDone, Seconds: r.Seconds, Written: r.Written, Checkpoint: r.Checkpoint})
	}
	return out, nil
}
