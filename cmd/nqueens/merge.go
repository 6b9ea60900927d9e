package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/internal/shard"
)

type mergeOutput struct {
	N       int      `json:"n"`
	Total   uint64   `json:"total"`
	Unique  uint64   `json:"unique"`
	Shards  int      `json:"shards"`
	Subs    int      `json:"subs"`
	Nodes   uint64   `json:"nodes"`
	Seconds float64  `json:"seconds"` // counting time summed over the shards
	Plan    string   `json:"plan"`
	Engine  string   `json:"engine"`
	Files   []string `json:"files"`
	Version []string `json:"versions"`
}

func newMergeCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge DIR|FILE...",
		Short: `Sum the shard results of "count --shard", with checks`,
		Long: `Sum the result files of "nqueens count N --shard I/K --out DIR". A directory
stands for its shard-*.json files. The merge refuses, naming the files, when
a shard is missing or appears twice, when a file comes from another plan or
shard count, is truncated or fails its checksum, and when a sum overflows.
seconds is the counting time summed over the shards.`,
		Example: "  nqueens merge results/\n  nqueens merge site-a/ site-b/ --json",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("want one or more directories or result files")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			paths, err := shard.ResultPaths(args)
			if err != nil {
				return usageError{err}
			}
			m, err := shard.Merge(paths)
			if err != nil {
				return failure{err: err}
			}
			out := mergeOutput{N: m.N, Total: m.Total, Unique: m.Unique, Shards: m.Shards, Subs: m.Subs,
				Nodes: m.Nodes, Seconds: m.Seconds, Plan: m.Plan, Engine: m.Engine, Files: m.Files, Version: m.Versions}
			if asJSON {
				return printJSON(e.stdout, out)
			}
			fmt.Fprintf(e.stdout, "n=%d total=%d unique=%d shards=%d subs=%d seconds=%.3f plan=%.12s versions=%s\n",
				m.N, m.Total, m.Unique, m.Shards, m.Subs, m.Seconds, m.Plan, strings.Join(m.Versions, ","))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}
