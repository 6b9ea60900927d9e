package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
)

// planShard is one shard of a split: "I/K", as count --shard takes it.
type planShard struct {
	Shard string `json:"shard"`
	Subs  int    `json:"subs"`
	Cost  uint64 `json:"cost"`
}

// planOutput is what plan prints, in the names of docs/vocabulary.md.
type planOutput struct {
	N       int         `json:"n"`
	Engine  string      `json:"engine"`
	Plan    string      `json:"plan"`
	Subs    int         `json:"subs"`
	Cost    uint64      `json:"cost"`
	Workers int         `json:"workers"`
	Memory  uint64      `json:"memory"`
	Shards  int         `json:"shards,omitempty"` // K, with --shards K
	Split   []planShard `json:"split,omitempty"`  // the K shards (nqueens.Plan.Split)
}

// planCmd is "nqueens plan".
type planCmd struct {
	e       *env
	asJSON  bool
	k       int
	only    []int
	workers int
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
millions of shards is long to print).`,
		Example: "  nqueens plan 23\n  nqueens plan 18 --shards 8 --json\n  nqueens plan 28 --shards 16777216 --only 5,1000,70000",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("shards") && c.k == 0 { // not "no split": it would be ignored
				return usagef("--shards must be from 1 to %d, got 0", nqueens.MaxShards)
			}
			if cmd.Flags().Changed("only") && c.k == 0 {
				return usagef("--only needs --shards K")
			}
			return c.run(args[0])
		},
	}
	cmd.Flags().BoolVar(&c.asJSON, "json", false, "print one JSON object")
	cmd.Flags().IntVarP(&c.k, "shards", "k", 0, "also show the split into `K` shards")
	cmd.Flags().IntSliceVar(&c.only, "only", nil, "with --shards K, show only the shards `I,J,...` of the split")
	cmd.Flags().IntVarP(&c.workers, "workers", "w", 0, "estimate the memory of a count on `W` goroutines (0: one per core)")
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
	if c.k < 0 || c.k > nqueens.MaxShards {
		return usagef("--shards must be from 1 to %d, got %d", nqueens.MaxShards, c.k)
	}
	for _, i := range c.only {
		if i < 0 || i >= c.k {
			return usagef("--only: shard %d is not one of 0 to %d", i, c.k-1)
		}
	}
	if c.workers, err = parseWorkers(c.workers); err != nil {
		return err
	}
	p, err := newPlan(c.e, n)
	if err != nil {
		return err
	}
	out := planOutput{N: n, Engine: p.Engine(), Plan: p.Hash(), Subs: p.Subs(), Cost: p.Cost(),
		Workers: c.workers, Memory: p.Memory(c.workers)}
	if c.k > 0 {
		warnShards(c.e, p, c.k, "")
		sizes, err := p.Split(c.k)
		if err != nil {
			return usageError{err}
		}
		out.Shards = c.k
		show := func(i int) {
			out.Split = append(out.Split, planShard{Shard: fmt.Sprintf("%d/%d", i, c.k), Subs: sizes[i].Subs, Cost: sizes[i].Cost})
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
	return c.render(out)
}

// warnShards warns on stderr when k shards are more than the sub-problems of p: some
// shards would count nothing (then this, if not empty, says which one the run is).
func warnShards(e *env, p *nqueens.Plan, k int, this string) {
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
	for _, s := range out.Split {
		fmt.Fprintf(c.e.stdout, "shard=%s subs=%d cost=%d\n", s.Shard, s.Subs, s.Cost)
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
