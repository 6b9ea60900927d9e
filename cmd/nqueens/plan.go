package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
)

// planShard is one shard of a split: "I/K", as count --shard takes it.
type planShard struct {
	Shard     string  `json:"shard"`
	Subs      int     `json:"subs"`
	Cost      uint64  `json:"cost"`
	CoreHours float64 `json:"core_hours"`
}

// planOutput is what plan prints, in the names of docs/vocabulary.md.
type planOutput struct {
	N       int    `json:"n"`
	Engine  string `json:"engine"`
	Plan    string `json:"plan"`
	Subs    int    `json:"subs"`
	Cost    uint64 `json:"cost"`
	Workers int    `json:"workers"`
	Memory  uint64 `json:"memory"`
	// The estimate: CPU time of the whole count, the wall time on --cores C and the
	// price at --price P per core-hour (0: not asked), and where the figures come from.
	CoreHours float64 `json:"core_hours"`
	// The range of core_hours, where the stored calibration is scaled to another
	// kernel than the one it was measured with (else both equal core_hours).
	CoreHoursLow  float64     `json:"core_hours_low"`
	CoreHoursHigh float64     `json:"core_hours_high"`
	Cores         int         `json:"cores,omitempty"`
	WallHours     float64     `json:"wall_hours,omitempty"`
	Price         float64     `json:"price,omitempty"`
	Kernel        string      `json:"kernel,omitempty"`
	Sampled       int         `json:"sampled"`
	Calibration   string      `json:"calibration"`
	Shards        int         `json:"shards,omitempty"` // K, with --shards K
	Split         []planShard `json:"split,omitempty"`  // the K shards (cluster.Plan.Split)
}

// planCmd is "nqueens plan".
type planCmd struct {
	e       *env
	asJSON  bool
	k       int
	only    []int
	workers int

	calibrate time.Duration // count a sample here for about this CPU time (0: stored)
	cores     int
	price     float64
}

func newPlanCmd(e *env) *cobra.Command {
	c := &planCmd{e: e}
	cmd := &cobra.Command{
		Use:   "plan N",
		Short: "Print the work plan of a count: sub-problems, estimated cost, plan hash",
		Long: `Print the work plan that "nqueens count N" runs: the number of independent
sub-problems, their estimated cost (in arbitrary units), the plan hash that
every shard result and checkpoint records, and the memory a count (whole or
one shard) takes at most with --workers W (default one per core). With
--shards K, also the sub-problems and cost of each of the K shards of
"count N --shard I/K" (with --only, of the shards listed: a split into
millions of shards is long to print).

It also estimates the CPU time of the count, in core-hours (core_hours; per shard
with --shards), comparable across n: the plan's modelled time times a calibration
it names. By default the one stored for this kind of CPU (whole counts and sampled
shards measured on 2-core cloud VMs with the AVX-512 kernel: Intel Sapphire Rapids,
AMD Zen 5); with --calibrate, a sample of the plan's sub-problems counted here
(drawn by the plan hash, so the same on every run) for about the CPU time given
(at least one sub-problem: from n = 27 one takes minutes; the sample runs on
--workers). Those figures are of the AVX-512 kernel: on a CPU that runs avx2 or go they are
scaled by the ratios measured between the kernels, and given with their range
(core_hours_low, core_hours_high): avx2 1.29 (on a Zen 5) to 3 times (an
AVX2-only Zen 3), go 2.9 to 4.74 times; the calibration says so. --calibrate
measures this machine instead.
--cores C adds the wall time of the count on C cores
(wall_hours: the core-hours over C, and with --shards at least the largest shard
on its workers), --price P the cost at P per core-hour (any currency).`,
		Example: "  nqueens plan 23\n  nqueens plan 18 --shards 8 --json\n  nqueens plan 28 --shards 16777216 --only 5,1000,70000\n" +
			"  nqueens plan 27 --shards 1000000 --only 0 --cores 1000 --price 0.02\n  nqueens plan 22 --calibrate 2m --cores 64",
		Args: exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("shards") && c.k == 0 { // not "no split": it would be ignored
				return usagef("--shards must be from 1 to %d, got 0", cluster.MaxShards)
			}
			if cmd.Flags().Changed("only") && c.k == 0 {
				return usagef("--only needs --shards K")
			}
			if cmd.Flags().Changed("cores") && c.cores < 1 {
				return usagef("--cores must be at least 1, got %d", c.cores)
			}
			if cmd.Flags().Changed("price") && !(c.price > 0) {
				return usagef("--price must be a positive price per core-hour, got %v", c.price)
			}
			if cmd.Flags().Changed("calibrate") && c.calibrate <= 0 {
				return usagef("--calibrate must be a positive duration such as 30s or 5m, got %v", c.calibrate)
			}
			return c.run(args[0])
		},
	}
	cmd.Flags().BoolVar(&c.asJSON, "json", false, "print one JSON object")
	cmd.Flags().IntVarP(&c.k, "shards", "k", 0, "also show the split into `K` shards")
	cmd.Flags().IntSliceVar(&c.only, "only", nil, "with --shards K, show only the shards `I,J,...` of the split")
	cmd.Flags().IntVarP(&c.workers, "workers", "w", 0, "estimate the memory of a count on `W` goroutines (0: one per core)")
	cmd.Flags().DurationVar(&c.calibrate, "calibrate", 0, "calibrate the estimate by counting a sample of the plan here for about `T` of CPU (30s, 5m)")
	cmd.Flags().IntVar(&c.cores, "cores", 0, "also give the wall time of the count on `C` cores")
	cmd.Flags().Float64Var(&c.price, "price", 0, "also give the cost of the count at `P` per core-hour")
	return cmd
}

func (c *planCmd) run(size string) error {
	n, over, err := parseSizeMax(size, nqueens.MaxCountN)
	if err != nil {
		return err
	}
	if over {
		return tooLarge(size, nqueens.MaxCountN, "the counter")
	}
	if c.k < 0 || c.k > cluster.MaxShards {
		return usagef("--shards must be from 1 to %d, got %d", cluster.MaxShards, c.k)
	}
	for _, i := range c.only {
		if i < 0 || i >= c.k {
			return usagef("--only: shard %d is not one of 0 to %d", i, c.k-1)
		}
	}
	if err = checkWorkers(c.workers); err != nil {
		return err
	}
	p, err := newPlan(c.e, n)
	if err != nil {
		return err
	}
	est, calErr := c.estimate(p)
	if calErr != nil && !errors.As(calErr, new(interrupted)) {
		return calErr
	}
	out := planOutput{N: n, Engine: p.Engine(), Plan: p.Hash(), Subs: p.Subs(), Cost: p.Cost(),
		Workers: est.Workers, Memory: p.Memory(c.workers), CoreHours: est.CoreHours, Cores: c.cores,
		CoreHoursLow: est.CoreHoursLow, CoreHoursHigh: est.CoreHoursHigh,
		Kernel: est.Kernel, Sampled: est.Sampled, Calibration: est.Calibration}
	var largest float64 // the core-hours of the largest shard
	if c.k > 0 {
		warnShards(c.e, p, c.k, "")
		sizes, err := p.Split(c.k)
		if err != nil {
			return usageError{err}
		}
		out.Shards = c.k
		most := 0 // the sub-problems of the largest shard
		for _, sz := range sizes {
			largest = max(largest, float64(sz.Cost)*est.HoursPerCost)
			most = max(most, sz.Subs)
		}
		out.Memory = cluster.ShardMemory(n, c.workers, most, c.k)
		if w := largestShard(p.Cost(), p.Subs(), sizes, est.HoursPerCost); w != "" {
			fmt.Fprintln(c.e.stderr, "nqueens: "+w)
		}
		show := func(i int) {
			out.Split = append(out.Split, planShard{Shard: fmt.Sprintf("%d/%d", i, c.k), Subs: sizes[i].Subs, Cost: sizes[i].Cost,
				CoreHours: float64(sizes[i].Cost) * est.HoursPerCost})
		}
		if c.only == nil {
			for i := range sizes {
				show(i)
			}
		}
		for _, i := range c.only {
			show(i)
		}
	}
	if c.cores > 0 {
		// A shard runs on its workers' cores, no faster than its share.
		out.WallHours = max(out.CoreHours/float64(c.cores), largest/float64(min(est.Workers, c.cores)))
	}
	out.Price = out.CoreHours * c.price
	if err := c.render(out); err != nil {
		return err
	}
	return calErr // the plan was printed with the stored calibration
}

// estimate is the plan's estimate, from the stored calibration or from a sample counted
// here (said on stderr first: it takes --calibrate's time, at least one sub-problem's,
// which the stored calibration gives). Interrupted while calibrating, it returns the
// stored estimate with an error of type interrupted.
func (c *planCmd) estimate(p *cluster.Plan) (cluster.Estimate, error) {
	stored, err := p.Estimate(c.e.ctx, kernelSetting(), 0, c.workers, nil)
	if err != nil || c.calibrate <= 0 {
		return stored, err
	}
	workers := fmt.Sprintf("%d workers", stored.Workers)
	if stored.Workers == 1 {
		workers = "1 worker"
	}
	fmt.Fprintf(c.e.stderr, "nqueens: calibrating: counting sub-problems of n=%d here for about %v of CPU on %s (Ctrl-C prints the plan with the stored calibration)\n",
		p.N(), c.calibrate, workers)
	if p.Subs() > 0 {
		// The mean sub-problem by the stored calibration; the first one drawn at n ≤ 27
		// also builds the quarter tables, which is not timed.
		one := time.Duration(stored.CoreHours / float64(p.Subs()) * float64(time.Hour))
		if one > c.calibrate && one > time.Second {
			fmt.Fprintf(c.e.stderr, "nqueens: one sub-problem of n=%d takes about %v of CPU (by the stored calibration), more than --calibrate %v: the sample counts at least one\n",
				p.N(), one.Round(time.Second), c.calibrate)
		}
	}
	est, err := p.Estimate(c.e.ctx, kernelSetting(), c.calibrate, c.workers, nil)
	if err != nil && c.e.ctx.Err() != nil {
		return stored, interrupted{"interrupted while calibrating: the plan printed uses the stored calibration"}
	}
	return est, err
}

// largestShard is the warning to give when a shard of the split sizes costs more than
// 1.5 times a mean shard: it sets the time limit of the run ("" for none). When it is
// one sub-problem (the Burnside search S180 alone in shard 0 at n = 27 with K = 10^6), a
// smaller K lets the split fill every shard up to it. Shards of less than 3 minutes (by
// hoursPerCost) are not worth the warning, nor splits into more shards than subs (which
// warnShards names).
func largestShard(total uint64, subs int, sizes []cluster.ShardSize, hoursPerCost float64) string {
	if len(sizes) == 0 || len(sizes) > subs {
		return ""
	}
	mean := float64(total) / float64(len(sizes))
	big := 0
	for i, s := range sizes {
		if s.Cost > sizes[big].Cost {
			big = i
		}
	}
	s := sizes[big]
	if float64(s.Cost) <= 1.5*mean || float64(s.Cost)*hoursPerCost < 0.05 {
		return ""
	}
	why := ""
	if s.Subs == 1 {
		why = fmt.Sprintf(" (it is one sub-problem: with K ≤ %d the split fills the other shards up to it)", total/s.Cost)
	}
	return fmt.Sprintf("warning: shard %d of %d costs %.1f times a mean shard%s: give it a longer time limit", big, len(sizes), float64(s.Cost)/mean, why)
}

// warnShards warns on stderr when k shards are more than the sub-problems of p: some
// shards would count nothing (then this, if not empty, says which one the run is).
func warnShards(e *env, p *cluster.Plan, k int, this string) {
	if k <= p.Subs() {
		return
	}
	fmt.Fprintf(e.stderr, "nqueens: warning: %d shards for the %d sub-problems of n=%d: %d shards count nothing%s; take K ≤ %d (see nqueens plan %d)\n",
		k, p.Subs(), p.N(), k-p.Subs(), this, p.Subs(), p.N())
}

func (c *planCmd) render(out planOutput) error {
	if c.asJSON {
		return printJSON(c.e.stdout, out)
	}
	fmt.Fprintf(c.e.stdout, "n=%d subs=%d cost=%d engine=%s plan=%s workers=%d memory=%s\n",
		out.N, out.Subs, out.Cost, out.Engine, out.Plan, out.Workers, memoryText(out.Memory))
	line := "core_hours=" + hours(out.CoreHours)
	if out.CoreHoursLow != out.CoreHoursHigh {
		line += fmt.Sprintf(" core_hours_low=%s core_hours_high=%s", hours(out.CoreHoursLow), hours(out.CoreHoursHigh))
	}
	if out.Cores > 0 {
		line += fmt.Sprintf(" cores=%d wall_hours=%s", out.Cores, hours(out.WallHours))
	}
	if out.Price > 0 {
		line += " price=" + hours(out.Price)
	}
	if out.Kernel != "" {
		line += " kernel=" + out.Kernel
	}
	fmt.Fprintf(c.e.stdout, "%s sampled=%d calibration=%q\n", line, out.Sampled, out.Calibration)
	for _, s := range out.Split {
		fmt.Fprintf(c.e.stdout, "shard=%s subs=%d cost=%d core_hours=%s\n", s.Shard, s.Subs, s.Cost, hours(s.CoreHours))
	}
	return nil
}

// memoryText writes a byte count for people, without a space so that the text line
// stays key=value pairs: 216MB, 1.6GB.
func memoryText(b uint64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.1fGB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.0fMB", float64(b)/1e6)
	}
	return fmt.Sprintf("%.0fkB", float64(b)/1e3)
}
