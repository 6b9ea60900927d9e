package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/pool"
)

// A Plan is the deterministic list of independent sub-problems that a count of the n×n
// board runs. Every checkpoint and shard result records its Hash, so that work is never
// mixed across plans (nor across versions of the counting engine, which the hash covers).
type Plan struct{ p *fastcount.Plan }

// NewPlan makes the plan of n (1 ≤ n ≤ nqueens.MaxCountN). Planning the quadrant join
// takes up to a second or two at n = 21; ctx can stop it.
func NewPlan(ctx context.Context, n int) (*Plan, error) {
	if n < 1 || n > nqueens.MaxCountN {
		return nil, &nqueens.SizeError{N: n, Min: 1, Max: nqueens.MaxCountN, What: "the counter"}
	}
	p, err := fastcount.NewPlanContext(ctx, n, fastcount.EngineAuto)
	if err != nil {
		return nil, err
	}
	return &Plan{p}, nil
}

// N is the board size.
func (p *Plan) N() int { return p.p.N }

// Subs is the number of sub-problems.
func (p *Plan) Subs() int { return p.p.Len() }

// Cost is the estimated work of the whole plan, in the engine's units.
func (p *Plan) Cost() uint64 { return p.p.TotalCost }

// Hash is the plan's identity, a hex SHA-256 of the engine version, n and the
// sub-problems.
func (p *Plan) Hash() string { return p.p.Hash() }

// Engine names the counting engine and its version, as files record it.
func (p *Plan) Engine() string { return p.p.Version() }

// Memory is nqueens.CountMemory of the plan's board: what its whole count on workers
// goroutines takes at most.
func (p *Plan) Memory(workers int) uint64 { return nqueens.CountMemory(p.p.N, workers) }

// ShardMemory is an upper bound, in bytes, of the memory one shard of the plan of n
// split into k shards takes, its planning included, when it holds subs sub-problems
// (ShardSize.Subs; at most 1 while its plan is made) and runs on workers goroutines: from
// n = 22 on, the plan, the split and the row sets the shard counts, not every
// sub-problem's id; below, nqueens.CountMemory.
func ShardMemory(n, workers, subs, k int) uint64 {
	return fastcount.EstimateShardMemory(n, workers, subs, k)
}

// ShardSize is the size of shard i of the plan split into k shards (Split's entry i),
// found without a list of every shard.
func (p *Plan) ShardSize(i, k int) (ShardSize, error) {
	return sizeOf(p.p, k, i)
}

// Estimate is the CPU time a count of a plan takes (Plan.Estimate).
type Estimate struct {
	CoreHours    float64 // the whole count, in core-hours (CPU time summed over the cores)
	HoursPerCost float64 // core-hours of one unit of Cost: a shard's are its Cost times this
	// CoreHoursLow and CoreHoursHigh bound CoreHours where the stored calibration was
	// measured with another kernel than the one a count here runs (the AVX-512 kernel's
	// figures scaled to avx2 or go by the ratios measured between kernels); else they
	// equal it.
	CoreHoursLow, CoreHoursHigh float64
	Calibration                 string // where the figures come from, in words
	Kernel                      string // the matcher kernel a count here runs ("" for n ≤ 9)
	Sampled                     int    // sub-problems counted here to calibrate (0: a stored calibration)
	Workers                     int    // the goroutines it is for: the workers argument, 0 resolved to one per CPU
}

// Estimate estimates the CPU time of the plan's count: its modelled time (the costs, in
// nanoseconds of the machines the cost model was fitted on) times the ratio of measured
// to modelled time of a calibration. With sample 0 the calibration is the one stored for
// this kind of CPU (whole counts and sampled shards measured on 2-core cloud VMs with
// the AVX-512 kernel: Intel Sapphire Rapids, AMD Zen 5), scaled, when a count here runs
// the avx2 or the go kernel, by the ratio measured between that kernel and AVX-512,
// with a range (CoreHoursLow, CoreHoursHigh). With sample > 0 it counts
// sub-problems of the plan here, drawn at random by a generator seeded with the plan
// hash, on workers goroutines, until about sample of CPU time is spent (at least one:
// from n = 27 one takes minutes), calling progress, if not nil, with the CPU time so far.
// kernel names the matcher kernel of the count, as nqueens.CountOptions.Kernel ("": the
// one a count here picks); a bad one is an error wrapping nqueens.ErrKernel.
func (p *Plan) Estimate(ctx context.Context, kernel string, sample time.Duration, workers int, progress func(cpu time.Duration)) (Estimate, error) {
	m, err := resolveKernel(p.p, kernel)
	if err != nil {
		return Estimate{}, err
	}
	e, err := p.p.Estimate(ctx, m.kernel, sample, workers, progress)
	if err != nil {
		return Estimate{}, err
	}
	return Estimate{CoreHours: e.Seconds / 3600, CoreHoursLow: e.Low / 3600, CoreHoursHigh: e.High / 3600, HoursPerCost: e.PerCost / 3600,
		Calibration: e.Calibration, Kernel: e.Kernel, Sampled: e.Sampled, Workers: pool.Default(workers)}, nil
}

// ShardSize is the share of one shard of a split.
type ShardSize struct {
	Subs int    // sub-problems
	Cost uint64 // their estimated work
}

// Split returns the sizes of the k shards (1 ≤ k ≤ MaxShards) that CountShard counts:
// balanced by estimated cost, the same split on every machine.
func (p *Plan) Split(k int) ([]ShardSize, error) {
	return split(p.p, k)
}

// ParseShard reads a shard given as "I/K" (0 ≤ I < K ≤ MaxShards) or "auto/K", where I
// comes from the job array index of Slurm (SLURM_ARRAY_TASK_ID), a Kubernetes Indexed
// Job (JOB_COMPLETION_INDEX) or AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX), read with getenv.
func ParseShard(s string, getenv func(string) string) (i, k int, err error) {
	is, ks, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("shard %q: want I/K, such as 0/8, or auto/K", s)
	}
	k, err = strconv.Atoi(ks)
	if err != nil || k < 1 || k > MaxShards {
		return 0, 0, fmt.Errorf("shard %q: K must be a whole number from 1 to %d", s, MaxShards)
	}
	if is == "auto" {
		i, _, err := indexFromEnv(getenv, k)
		if err != nil {
			return 0, 0, fmt.Errorf("shard auto/%d: %w", k, err)
		}
		return i, k, nil
	}
	i, err = strconv.Atoi(is)
	if err != nil || i < 0 || i >= k {
		return 0, 0, fmt.Errorf("shard %q: I must be a whole number from 0 to %d", s, k-1)
	}
	return i, k, nil
}
