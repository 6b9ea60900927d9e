package lasvegas

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/nqueens/nqueens/internal/cputime"
)

// SweepEstimate is the estimated cost of a Sweep, from EstimateSweep.
type SweepEstimate struct {
	// Checks estimates the checks of all the runs of the sweep, and LowChecks is its
	// optimistic bound: pilots stopped at the pilot's cap counted at the cap (their runs
	// take at least that), where Checks counts them at the sweep's budget.
	Checks, LowChecks float64
	// Rate is the median checks per second (of CPU time) of the pilot runs, MaxRate the
	// fastest.
	Rate, MaxRate float64
	// Seconds = Checks/Rate, the estimate; MinSeconds = LowChecks/MaxRate, the optimistic
	// bound: a sweep is refused only when even that is too long.
	Seconds, MinSeconds float64
	// Sampled is the number of values of m run as pilots; Budgeted of them had a pilot
	// that reached the sweep's own budget of checks (their rows are counted at
	// MaxCensored times MaxChecks: their runs are censored and the row abandoned), Capped
	// one that reached the pilot's cap.
	Sampled, Budgeted, Capped int
}

// EstimateSweep samples up to pilotSamples values of m spread over opt.Ms, and runs
// pilotRuns pilots for each (fewer when two of them reach the cap, or the estimate has
// taken estimateTime).
//
// A pilot stops at a cap in checks (or the sweep's budget, when smaller): the checks the
// search makes in pilotCPU of CPU time, at the speed measured first (4·10^6 at 2·10^8
// checks a second; at most pilotChecks), so that what a pilot says about the cost of a
// run does not depend on the machine's load; pilotTime, far more, only bounds the
// estimate's own cost on a machine that leaves it little CPU (a pilot stopped by it
// counts with the checks it made, a lower bound). The rate is the median of the pilots'
// rates, in CPU time, not their total over their wall time: one pilot descheduled for a
// while does not slow it.
const (
	pilotSamples = 17
	pilotRuns    = 4
	pilotChecks  = 4_000_000
	pilotCPU     = 20 * time.Millisecond
	pilotTime    = 60 * time.Millisecond
	// estimateTime bounds the estimate: past it, each m left gets one pilot.
	estimateTime = time.Second
	// minRateChecks is the checks a pilot makes at least for its rate to count.
	minRateChecks = 100_000
)

// EstimateSweep estimates what Sweep(ctx, n, opt) would cost, from pilot runs (see
// pilotSamples): a row costs Trials times the mean checks of its pilots or, when one
// reached the sweep's budget, MaxCensored times MaxChecks (its runs reach the budget and
// it is abandoned); a row not sampled costs what its nearest sampled row does. The pilots
// draw from PCG(opt.Seed ^ a constant, m), not from the sweep's streams, and take about
// 1.4 s at most at 2·10^8 checks a second. Against whole sweeps (cell variant, n = 30 and
// 50; row, n = 16 and 20) the checks came within a factor 2 and the time within 3: an
// order of magnitude, which is what a warning needs.
func EstimateSweep(ctx context.Context, n int, opt SweepOptions) (SweepEstimate, error) {
	return estimateSweep(ctx, n, opt, nil)
}

// estimateSweep is EstimateSweep with pilotStall, which a test sets: when not nil, it runs
// at the start of each pilot, within its time, a machine that stalls.
func estimateSweep(ctx context.Context, n int, opt SweepOptions, pilotStall func()) (SweepEstimate, error) {
	var e SweepEstimate
	trials := opt.Trials
	if trials <= 0 {
		trials = DefaultTrials
	}
	maxChecks := opt.MaxChecks
	if maxChecks == 0 {
		maxChecks = DefaultMaxChecks
	}
	maxCensored := opt.MaxCensored
	if maxCensored <= 0 {
		maxCensored = max(3, trials/20)
	}
	ms := opt.Ms
	if ms == nil {
		for m := 0; m <= n; m++ {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return e, nil
	}
	capChecks := min(int64(pilotChecks), max(10_000, int64(speed(ctx, n, opt, ms[len(ms)/2])*pilotCPU.Seconds())))
	if ctx.Err() != nil {
		return e, ctx.Err()
	}
	if maxChecks > 0 && maxChecks <= capChecks {
		capChecks = maxChecks // a pilot at the cap is then a censored run of the sweep
	}
	// A run known to take more than the cap is taken, for the estimate, to run to the
	// budget, where it is censored (the tail of these runs is long); without a budget, to
	// ten times the cap. The optimistic bound takes it at the cap.
	over := 10 * float64(capChecks)
	if maxChecks > 0 {
		over = float64(maxChecks)
	}
	// The sampled indices into ms, and each one's estimated row cost in checks.
	k := min(pilotSamples, len(ms))
	idx := make([]int, k)
	cost, low := make([]float64, k), make([]float64, k)
	var rates []float64
	var allChecks, allTime float64
	begin := time.Now()
	for s := range k {
		i := 0
		if k > 1 {
			i = s * (len(ms) - 1) / (k - 1)
		}
		idx[s] = i
		m := ms[i]
		rng := rand.New(rand.NewPCG(opt.Seed^0x5eed_e571_3a7e, uint64(m)))
		var sum, sumLow float64 // checks of the pilots of this m
		censored, capped, runs, ran := false, 0, pilotRuns, 0
		if time.Since(begin) > estimateTime {
			runs = 1
		}
		for range runs {
			ran++
			pctx, cancel := context.WithTimeout(ctx, pilotTime)
			start := cputime.Now() // the CPU time: the machine's load is not the pilot's speed
			if pilotStall != nil {
				pilotStall()
			}
			r, err := Solve(pctx, n, Options{Variant: opt.Variant, M: m, MaxDraws: opt.MaxDraws, MaxChecks: capChecks}, rng)
			took := cputime.Since(start).Seconds()
			cancel()
			c := float64(r.Stats.Checks)
			allChecks, allTime = allChecks+c, allTime+took
			if c >= minRateChecks {
				rates = append(rates, c/max(took, 1e-9))
			}
			switch {
			case err != nil && ctx.Err() != nil:
				return e, ctx.Err()
			case errors.Is(err, ErrBudget) && capChecks == maxChecks:
				censored = true // the sweep's own budget: this run is censored
				sum, sumLow = sum+c, sumLow+c
			case errors.Is(err, ErrBudget):
				capped++ // longer than the pilot: at least c
				sum, sumLow = sum+max(c, over), sumLow+c
			case errors.Is(err, context.DeadlineExceeded):
				// The cap takes some 20 ms: a pilot out of time was held up, not long.
				// It counts with what it did, a lower bound.
				sum, sumLow = sum+c, sumLow+c
			case err != nil:
				return e, err
			default:
				sum, sumLow = sum+c, sumLow+c
			}
			if censored || capped == 2 { // two long runs of four: enough said, and they are slow
				break
			}
		}
		switch {
		case censored:
			e.Budgeted++
			cost[s] = float64(min(trials, maxCensored)) * float64(maxChecks)
			low[s] = cost[s]
		case capped > 0 && maxChecks < 0: // no budget: the runs may not end
			e.Capped++
			cost[s], low[s] = math.Inf(1), float64(trials)*sumLow/float64(ran)
		default:
			cost[s], low[s] = float64(trials)*sum/float64(ran), float64(trials)*sumLow/float64(ran)
			if capped > 0 {
				// Runs past the cap may reach the budget, and the row be abandoned early:
				// the optimistic bound is the cheaper of the two.
				e.Capped++
				low[s] = min(low[s], float64(min(trials, maxCensored))*float64(maxChecks))
			}
		}
	}
	e.Sampled = k
	for i := range ms {
		best := 0 // the nearest sampled index
		for s := range k {
			if abs(idx[s]-i) < abs(idx[best]-i) {
				best = s
			}
		}
		e.Checks += cost[best]
		e.LowChecks += low[best]
	}
	if len(rates) == 0 { // pilots too short to time one by one
		rates = append(rates, allChecks/max(allTime, 1e-9))
	}
	slices.Sort(rates)
	e.Rate, e.MaxRate = rates[len(rates)/2], rates[len(rates)-1]
	e.Seconds = e.Checks / max(e.Rate, 1)
	e.MinSeconds = e.LowChecks / max(e.MaxRate, 1)
	return e, nil
}

// speed measures the checks a second (of CPU time) of runs of m random queens: the
// median of a few short runs, each stopped after 200,000 checks or 10 ms (the budget is
// looked at between attempts, and one attempt of a large board is long).
func speed(ctx context.Context, n int, opt SweepOptions, m int) float64 {
	rng := rand.New(rand.NewPCG(opt.Seed^0x5eed_5bee_d000, uint64(m)))
	var rates []float64
	for start := time.Now(); len(rates) < 5 && time.Since(start) < 100*time.Millisecond && ctx.Err() == nil; {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
		begin := cputime.Now()
		r, _ := Solve(rctx, n, Options{Variant: opt.Variant, M: m, MaxDraws: opt.MaxDraws, MaxChecks: 200_000}, rng)
		used := cputime.Since(begin).Seconds()
		cancel()
		if used > 0 && r.Stats.Checks >= 50_000 {
			rates = append(rates, float64(r.Stats.Checks)/used)
		}
	}
	if len(rates) == 0 {
		return 2e8 // runs too short to time: they end before any cap matters
	}
	slices.Sort(rates)
	return rates[len(rates)/2]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
