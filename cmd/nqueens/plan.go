package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/internal/shard"
)

type planShard struct {
	Shard int    `json:"shard"`
	Subs  int    `json:"subs"`
	Cost  uint64 `json:"cost"`
}

type planOutput struct {
	N      int         `json:"n"`
	Engine string      `json:"engine"`
	Plan   string      `json:"plan"`
	Subs   int         `json:"subs"`
	Cost   uint64      `json:"cost"`
	Shards []planShard `json:"shards,omitempty"`
}

func newPlanCmd(e *env) *cobra.Command {
	var asJSON bool
	var k int
	cmd := &cobra.Command{
		Use:   "plan N",
		Short: "Print the work plan of a count: sub-problems, estimated cost, plan hash",
		Long: `Print the work plan that "nqueens count N" runs: the number of independent
sub-problems, their estimated cost (in arbitrary units), and the plan hash
that every shard result and checkpoint records. With --shards K, also the
sub-problems and cost of each of the K shards of "count N --shard I/K".`,
		Example: "  nqueens plan 23\n  nqueens plan 18 --shards 8 --json",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(_ *cobra.Command, args []string) error {
			n, err := parseSize(args[0])
			if err != nil {
				return err
			}
			if k < 0 || k > shard.MaxShards {
				return usagef("--shards must be from 1 to %d, got %d", shard.MaxShards, k)
			}
			p, err := newPlan(e, n)
			if err != nil {
				return err
			}
			out := planOutput{N: n, Engine: p.Version(), Plan: p.Hash(), Subs: len(p.Subs), Cost: p.TotalCost}
			if k > 0 {
				assign, err := shard.Assign(p, k)
				if err != nil {
					return usageError{err}
				}
				for i, ids := range assign {
					out.Shards = append(out.Shards, planShard{Shard: i, Subs: len(ids), Cost: shard.Cost(p, ids)})
				}
			}
			if asJSON {
				return printJSON(e.stdout, out)
			}
			fmt.Fprintf(e.stdout, "n=%d subs=%d cost=%d engine=%s plan=%s\n", n, out.Subs, out.Cost, out.Engine, out.Plan)
			for _, s := range out.Shards {
				fmt.Fprintf(e.stdout, "shard %d/%d subs=%d cost=%d\n", s.Shard, k, s.Subs, s.Cost)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().IntVarP(&k, "shards", "k", 0, "also show the split into `K` shards")
	return cmd
}
