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
	ms := opt.Ms
	if ms == nil {
		for m := 0; m <= n; m++ {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return e, nil
	}
	pl := newPilots(ctx, n, opt, pilotStall)
	if err := pl.setCap(ms[len(ms)/2]); err != nil {
		return e, err
	}
	// The sampled indices into ms, and each one's estimated row cost in checks.
	k := min(pilotSamples, len(ms))
	idx := make([]int, k)
	cost, low := make([]float64, k), make([]float64, k)
	begin := time.Now()
	for s := range k {
		i := 0
		if k > 1 {
			i = s * (len(ms) - 1) / (k - 1)
		}
		idx[s] = i
		var budgeted, capped bool
		var err error
		cost[s], low[s], budgeted, capped, err = pl.row(ms[i], time.Since(begin) > estimateTime)
		if err != nil {
			return e, err
		}
		if budgeted {
			e.Budgeted++
		}
		if capped {
			e.Capped++
		}
	}
	e.Sampled = k
	e.Checks, e.LowChecks = nearestSums(len(ms), idx, cost, low)
	e.Rate, e.MaxRate = pl.rates()
	e.Seconds = e.Checks / max(e.Rate, 1)
	e.MinSeconds = e.LowChecks / max(e.MaxRate, 1)
	return e, nil
}

// pilots runs the pilot runs of an estimate and keeps what they measured of the speed.
type pilots struct {
	ctx   context.Context
	n     int
	opt   SweepOptions
	stall func() // see estimateSweep's pilotStall
	// trials, maxChecks and maxCensored are the sweep's, its defaults filled in as Sweep
	// fills them.
	trials, maxCensored int
	maxChecks           int64
	// capChecks is the pilots' cap in checks, and over what a run past it is taken to
	// cost (see setCap).
	capChecks int64
	over      float64
	// measured holds the checks a second of the pilots long enough to time one by one, and
	// allChecks and allTime the checks and CPU seconds of all of them.
	measured           []float64
	allChecks, allTime float64
}

// newPilots returns the pilots of a sweep of n with opt.
func newPilots(ctx context.Context, n int, opt SweepOptions, stall func()) *pilots {
	pl := &pilots{ctx: ctx, n: n, opt: opt, stall: stall, trials: opt.Trials, maxChecks: opt.MaxChecks, maxCensored: opt.MaxCensored}
	if pl.trials <= 0 {
		pl.trials = DefaultTrials
	}
	if pl.maxChecks == 0 {
		pl.maxChecks = DefaultMaxChecks
	}
	if pl.maxCensored <= 0 {
		pl.maxCensored = max(3, pl.trials/20)
	}
	return pl
}

// setCap sets the pilots' cap from the speed of runs of m (see pilotCPU), or to the
// sweep's budget when that is smaller, and what a run past the cap is taken to cost. It
// returns ctx.Err() when cancelled.
func (pl *pilots) setCap(m int) error {
	pl.capChecks = min(int64(pilotChecks), max(10_000, int64(speed(pl.ctx, pl.n, pl.opt, m)*pilotCPU.Seconds())))
	if pl.ctx.Err() != nil {
		return pl.ctx.Err()
	}
	if pl.maxChecks > 0 && pl.maxChecks <= pl.capChecks {
		pl.capChecks = pl.maxChecks // a pilot at the cap is then a censored run of the sweep
	}
	// A run known to take more than the cap is taken, for the estimate, to run to the
	// budget, where it is censored (the tail of these runs is long); without a budget, to
	// ten times the cap. The optimistic bound takes it at the cap.
	pl.over = 10 * float64(pl.capChecks)
	if pl.maxChecks > 0 {
		pl.over = float64(pl.maxChecks)
	}
	return nil
}

// row runs the pilots of m (pilotRuns of them, one when late, fewer when one reaches the
// sweep's budget or two the cap) and returns the estimated cost in checks of its row of
// the sweep and the optimistic bound, and whether a pilot reached the budget (budgeted)
// or, short of it, the cap.
func (pl *pilots) row(m int, late bool) (cost, low float64, budgeted, capped bool, err error) {
	rng := rand.New(rand.NewPCG(pl.opt.Seed^0x5eed_e571_3a7e, uint64(m)))
	var sum, sumLow float64 // checks of the pilots of this m
	censored, nCapped, runs, ran := false, 0, pilotRuns, 0
	if late {
		runs = 1
	}
	for range runs {
		ran++
		c, err := pl.run(m, rng)
		switch {
		case err != nil && pl.ctx.Err() != nil:
			return 0, 0, false, false, pl.ctx.Err()
		case errors.Is(err, ErrBudget) && pl.capChecks == pl.maxChecks:
			censored = true // the sweep's own budget: this run is censored
			sum, sumLow = sum+c, sumLow+c
		case errors.Is(err, ErrBudget):
			nCapped++ // longer than the pilot: at least c
			sum, sumLow = sum+max(c, pl.over), sumLow+c
		case errors.Is(err, context.DeadlineExceeded):
			// The cap takes some 20 ms: a pilot out of time was held up, not long.
			// It counts with what it did, a lower bound.
			sum, sumLow = sum+c, sumLow+c
		case err != nil:
			return 0, 0, false, false, err
		default:
			sum, sumLow = sum+c, sumLow+c
		}
		if censored || nCapped == 2 { // two long runs of four: enough said, and they are slow
			break
		}
	}
	trials, censoredRow := float64(pl.trials), float64(min(pl.trials, pl.maxCensored))*float64(pl.maxChecks)
	switch {
	case censored:
		return censoredRow, censoredRow, true, false, nil
	case nCapped > 0 && pl.maxChecks < 0: // no budget: the runs may not end
		return math.Inf(1), trials * sumLow / float64(ran), false, true, nil
	default:
		cost, low = trials*sum/float64(ran), trials*sumLow/float64(ran)
		if nCapped > 0 {
			// Runs past the cap may reach the budget, and the row be abandoned early:
			// the optimistic bound is the cheaper of the two.
			low = min(low, censoredRow)
		}
		return cost, low, false, nCapped > 0, nil
	}
}

// run runs one pilot of m, stopped at the cap or pilotTime, and returns its checks and
// Solve's error; it keeps its rate, in CPU time, when it is long enough to time.
func (pl *pilots) run(m int, rng *rand.Rand) (float64, error) {
	pctx, cancel := context.WithTimeout(pl.ctx, pilotTime)
	start := cputime.Now() // the CPU time: the machine's load is not the pilot's speed
	if pl.stall != nil {
		pl.stall()
	}
	r, err := Solve(pctx, pl.n, Options{Variant: pl.opt.Variant, M: m, MaxDraws: pl.opt.MaxDraws, MaxChecks: pl.capChecks}, rng)
	took := cputime.Since(start).Seconds()
	cancel()
	c := float64(r.Stats.Checks)
	pl.allChecks, pl.allTime = pl.allChecks+c, pl.allTime+took
	if c >= minRateChecks {
		pl.measured = append(pl.measured, c/max(took, 1e-9))
	}
	return c, err
}

// rates returns the median and the fastest rate of the pilots, or when none was long
// enough to time, their checks over their time.
func (pl *pilots) rates() (median, fastest float64) {
	if len(pl.measured) == 0 { // pilots too short to time one by one
		pl.measured = append(pl.measured, pl.allChecks/max(pl.allTime, 1e-9))
	}
	slices.Sort(pl.measured)
	return pl.measured[len(pl.measured)/2], pl.measured[len(pl.measured)-1]
}

// nearestSums sums, over the rows 0..rows−1 of a sweep, the cost and low of the nearest
// sampled row (idx holds the rows sampled, cost and low their estimates).
func nearestSums(rows int, idx []int, cost, low []float64) (checks, lowChecks float64) {
	for i := range rows {
		best := 0 // the nearest sampled index
		for s := range idx {
			if abs(idx[s]-i) < abs(idx[best]-i) {
				best = s
			}
		}
		checks += cost[best]
		lowChecks += low[best]
	}
	return checks, lowChecks
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
