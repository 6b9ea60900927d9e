package lasvegas

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

// SweepEstimate is the estimated cost of a Sweep, from EstimateSweep.
type SweepEstimate struct {
	// Checks estimates the checks of all the runs of the sweep; Rate is the checks per
	// second of the pilot runs, and Seconds = Checks/Rate.
	Checks, Rate, Seconds float64
	// Sampled is the number of values of m run as pilots; Budgeted of them reached the
	// pilot budget, and their rows are counted at MaxChecks per run (the cost of a row
	// whose runs are censored, so an upper bound for rows whose runs succeed later).
	Sampled, Budgeted int
}

// pilotSamples is the number of values of m EstimateSweep runs pilots for, pilotRuns
// pilots each (the cost of a run is skewed: the mean of one sample is mostly too low), and
// pilotTime1 the time after which a pilot is stopped and counted as a run that reaches
// the budget (at about 2·10^8 checks per second, 4·10^6 checks).
const (
	pilotSamples = 17
	pilotRuns    = 4
	pilotTime1   = 20 * time.Millisecond
)

// EstimateSweep estimates what Sweep(ctx, n, opt) would cost, from pilot runs for up to
// 17 values of m spread over opt.Ms, 4 each, with the sweep's budget of checks and 20 ms
// at most: a row costs Trials times the mean checks of its pilots or, when one reached the
// budget or the 20 ms, MaxCensored times MaxChecks (its runs reach the budget and it is
// abandoned); a row not sampled costs what its nearest sampled row does. The pilots draw
// from PCG(opt.Seed ^ a constant, m), not from the sweep's streams, and take 1.4 s at
// most. Against whole sweeps (cell variant, n = 30 and 50; row, n = 16 and 20) the
// checks came within a factor 2 (mostly below) and the time within 3: an order of
// magnitude, which is what a warning needs.
func EstimateSweep(ctx context.Context, n int, opt SweepOptions) (SweepEstimate, error) {
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
	// The sampled indices into ms, and each one's estimated row cost in checks.
	k := min(pilotSamples, len(ms))
	idx := make([]int, k)
	cost := make([]float64, k)
	var pilotChecksDone float64
	var pilotTime time.Duration
	for s := range k {
		i := 0
		if k > 1 {
			i = s * (len(ms) - 1) / (k - 1)
		}
		idx[s] = i
		m := ms[i]
		rng := rand.New(rand.NewPCG(opt.Seed^0x5eed_e571_3a7e, uint64(m)))
		var sum float64 // checks of the pilots of this m
		long, censored := false, false
		for range pilotRuns {
			pctx, cancel := context.WithTimeout(ctx, pilotTime1)
			start := time.Now()
			r, err := Solve(pctx, n, Options{Variant: opt.Variant, M: m, MaxDraws: opt.MaxDraws, MaxChecks: max(maxChecks, 0)}, rng)
			pilotTime += time.Since(start)
			cancel()
			pilotChecksDone += float64(r.Stats.Checks)
			sum += float64(r.Stats.Checks)
			switch {
			case err != nil && ctx.Err() != nil:
				return e, ctx.Err()
			case errors.Is(err, context.DeadlineExceeded):
				long = true // longer than the pilot: counted as reaching the budget
			case errors.Is(err, ErrBudget):
				censored = true // the sweep's own budget, reached within the pilot's time
			case err != nil:
				return e, err
			}
			if long || censored {
				break
			}
		}
		switch {
		case long && maxChecks < 0: // no budget: the runs may not end
			e.Budgeted++
			cost[s] = math.Inf(1)
		case long:
			e.Budgeted++
			cost[s] = float64(min(trials, maxCensored)) * float64(maxChecks)
		case censored:
			cost[s] = float64(min(trials, maxCensored)) * float64(maxChecks)
		default:
			cost[s] = float64(trials) * sum / pilotRuns
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
	}
	e.Rate = pilotChecksDone / max(pilotTime.Seconds(), 1e-9)
	e.Seconds = e.Checks / max(e.Rate, 1)
	return e, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
