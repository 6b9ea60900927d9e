package lasvegas

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// DefaultTrials is the number of runs per m when SweepOptions.Trials is 0.
const DefaultTrials = 100

// DefaultMaxChecks is the per-run budget of checks when
// SweepOptions.MaxChecks is 0 (a few tens of milliseconds): both arms of
// the U-shaped cost curve grow steeply (plain backtracking stalls near
// n = 30), so a sweep needs a bound to pass over the values of m far from
// the optimum.
const DefaultMaxChecks = 20_000_000

// SweepOptions configures [Sweep]. The zero value sweeps m = 0..n of the
// cell variant with DefaultTrials runs per m and seed 0.
type SweepOptions struct {
	// Variant selects cell or row random placement.
	Variant Variant
	// Ms lists the values of m to run, in the order to run them; nil
	// means 0..n. Rows come back in the same order.
	Ms []int
	// Trials is the number of runs per m; 0 means DefaultTrials.
	Trials int
	// Seed seeds the random source. Each m gets its own stream,
	// PCG(Seed, m), so a row does not depend on the other values of m.
	Seed uint64
	// MaxDraws bounds the draws of one attempt (cell variant); 0 means n².
	MaxDraws int
	// MaxChecks bounds the checks of one run; 0 means DefaultMaxChecks,
	// negative means no bound. A run that reaches it is censored: it
	// counts in the means with the counters it reached.
	MaxChecks int64
	// MaxCensored is the number of censored runs after which a row is
	// abandoned; 0 means max(3, Trials/20).
	MaxCensored int
	// Progress, if not nil, is called after every run.
	Progress func(Progress)
}

// Progress reports how far a sweep is.
type Progress struct {
	// M is the value of m being run; Row and Rows locate it in the sweep.
	M, Row, Rows int
	// Run and Trials count the runs of this row.
	Run, Trials int
}

// Estimate is a sample mean with its standard error.
type Estimate struct {
	Mean float64 `json:"mean"`
	SE   float64 `json:"se"`
}

// SweepRow summarises the runs of one value of m. Per-run means are over
// all the runs done, censored ones included with the counters they reached
// (so the means are lower bounds when Censored > 0).
type SweepRow struct {
	// M is the number of random queens.
	M int `json:"m"`
	// Runs is the number of runs done, censored ones included.
	Runs int `json:"runs"`
	// Censored is the number of runs stopped by the budget of checks.
	Censored int `json:"censored"`
	// Abandoned reports that the row was stopped after MaxCensored
	// censored runs, before Trials runs.
	Abandoned bool `json:"abandoned"`
	// Attempts is the total number of attempts of all the runs.
	Attempts int64 `json:"attempts"`
	// P is the success probability of one attempt, (Runs − Censored) /
	// Attempts, with its binomial standard error.
	P Estimate `json:"p"`
	// MeanAttempts, Nodes, Explored, Checks and Draws are per-run means
	// of the counters of [Stats].
	MeanAttempts Estimate `json:"mean_attempts"`
	Nodes        Estimate `json:"nodes"`
	Explored     Estimate `json:"explored"`
	Checks       Estimate `json:"checks"`
	Draws        Estimate `json:"draws"`
	// Seconds is the mean wall-clock time of a run, in seconds.
	Seconds Estimate `json:"seconds"`
	// Median is the median wall-clock time of a run (in JSON: nanoseconds).
	Median time.Duration `json:"median_ns"`
}

// SweepResult is the outcome of [Sweep].
type SweepResult struct {
	// N is the board size; Variant, Trials, Seed, MaxDraws, MaxChecks and
	// MaxCensored are the effective settings.
	N           int     `json:"n"`
	Variant     Variant `json:"variant"`
	Trials      int     `json:"trials"`
	Seed        uint64  `json:"seed"`
	MaxDraws    int     `json:"max_draws"`
	MaxChecks   int64   `json:"max_checks"`
	MaxCensored int     `json:"max_censored"`
	// Rows holds one row per value of m, in the order of SweepOptions.Ms.
	Rows []SweepRow `json:"rows"`
}

// Sweep runs the Las Vegas algorithm opt.Trials times for each m of opt.Ms
// and summarises each m in a SweepRow. On cancellation it returns the rows
// completed so far and ctx.Err(). (Which m is best is the lab's to say:
// its one rule of the optimum is in package lab.)
func Sweep(ctx context.Context, n int, opt SweepOptions) (SweepResult, error) {
	res := SweepResult{
		N: n, Variant: opt.Variant, Trials: opt.Trials, Seed: opt.Seed,
		MaxDraws: opt.MaxDraws, MaxChecks: opt.MaxChecks,
	}
	if res.Trials <= 0 {
		res.Trials = DefaultTrials
	}
	if res.MaxChecks == 0 {
		res.MaxChecks = DefaultMaxChecks
	}
	res.MaxCensored = opt.MaxCensored
	if res.MaxCensored <= 0 {
		res.MaxCensored = max(3, res.Trials/20)
	}
	if res.MaxDraws == 0 {
		res.MaxDraws = n * n
	}
	ms := opt.Ms
	if ms == nil {
		for m := 0; m <= n; m++ {
			ms = append(ms, m)
		}
	}
	for _, m := range ms {
		if err := checkArgs(n, Options{Variant: opt.Variant, M: m, MaxDraws: opt.MaxDraws}); err != nil {
			return res, err
		}
	}
	run := Options{Variant: opt.Variant, MaxDraws: res.MaxDraws, MaxChecks: max(res.MaxChecks, 0)}
	for i, m := range ms {
		run.M = m
		row, err := sweepRow(ctx, n, run, res.Trials, res.MaxCensored, rand.New(rand.NewPCG(opt.Seed, uint64(m))), func(k int) {
			if opt.Progress != nil {
				opt.Progress(Progress{M: m, Row: i, Rows: len(ms), Run: k, Trials: res.Trials})
			}
		})
		if err != nil {
			return res, err
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// sweepRow runs the trials of one m.
func sweepRow(ctx context.Context, n int, opt Options, trials, maxCensored int, rng Rand, progress func(int)) (SweepRow, error) {
	row := SweepRow{M: opt.M}
	var att, nodes, expl, checks, draws, secs moments
	times := make([]time.Duration, 0, trials)
	for k := 1; k <= trials; k++ {
		if err := ctx.Err(); err != nil {
			return row, err
		}
		start := time.Now()
		r, err := Solve(ctx, n, opt, rng)
		el := time.Since(start)
		if errors.Is(err, ErrBudget) {
			row.Censored++
		} else if err != nil {
			return row, err
		}
		st := r.Stats
		row.Runs++
		row.Attempts += st.Attempts
		att.add(float64(st.Attempts))
		nodes.add(float64(st.Nodes))
		expl.add(float64(st.Explored))
		checks.add(float64(st.Checks))
		draws.add(float64(st.Draws))
		secs.add(el.Seconds())
		times = append(times, el)
		progress(k)
		if row.Censored >= maxCensored && k < trials {
			row.Abandoned = true
			break
		}
	}
	if row.Runs > 0 {
		p := float64(row.Runs-row.Censored) / float64(row.Attempts)
		row.P = Estimate{p, math.Sqrt(p * (1 - p) / float64(row.Attempts))}
		row.MeanAttempts, row.Nodes, row.Explored = att.estimate(), nodes.estimate(), expl.estimate()
		row.Checks, row.Draws, row.Seconds = checks.estimate(), draws.estimate(), secs.estimate()
		row.Median = median(times)
	}
	return row, nil
}

// moments accumulates a sample mean and variance (Welford).
type moments struct {
	k       int
	mean, q float64
}

func (m *moments) add(x float64) {
	m.k++
	d := x - m.mean
	m.mean += d / float64(m.k)
	m.q += d * (x - m.mean)
}

// estimate returns the mean and its standard error (0 for one sample).
func (m *moments) estimate() Estimate {
	if m.k < 2 {
		return Estimate{Mean: m.mean}
	}
	return Estimate{m.mean, math.Sqrt(m.q / float64(m.k-1) / float64(m.k))}
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
