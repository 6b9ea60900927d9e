package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cluster"
)

// mergeOutput is what merge prints, in the names of docs/vocabulary.md.
type mergeOutput struct {
	N        int             `json:"n"`
	Total    nqueens.Uint128 `json:"total"`
	Unique   nqueens.Uint128 `json:"unique"`
	Shards   int             `json:"shards"`
	Subs     int             `json:"subs"`
	Seconds  float64         `json:"seconds"` // counting time summed over the shards
	Plan     string          `json:"plan"`
	Engine   string          `json:"engine"`
	Files    []string        `json:"files"`
	Versions []string        `json:"versions"`
	Kernels  []string        `json:"kernels"`           // the matcher kernels that counted the shards
	Audited  int             `json:"audited,omitempty"` // with --require-audit: the shards the passing audits checked
}

// mergeCmd is "nqueens merge".
type mergeCmd struct {
	e            *env
	asJSON       bool
	requireAudit bool
}

func newMergeCmd(e *env) *cobra.Command {
	c := &mergeCmd{e: e}
	cmd := &cobra.Command{
		Use:   "merge DIR|FILE...",
		Short: `Sum the shard results of "count --shard", with checks`,
		Long: `Sum the result files of "nqueens count N --shard I/K --out-dir DIR". A directory
stands for its shard-*.json files. The merge refuses, naming the files, when
a shard is missing or appears twice, when a file comes from another plan or
shard count than most files (the odd ones out are named), is truncated or
fails its checksum, when a sum overflows, and when the Burnside numerators do
not add up to a multiple of 8. A missing shard whose checkpoint is beside the
files is named as interrupted, with what its checkpoint holds. Result files of
the previous formats (nqueens-shard/2 and /3) are read as well.
seconds is the counting time summed over the shards.

With --require-audit the merge also refuses unless the directories of the
files hold a passing audit record of the plan ("nqueens audit") and no failing
one: a failing record stays in the way until its shards are counted again and
the record removed. It also holds the result file of every shard a passing
record checked to the newest such record: a file whose total, Burnside
numerator, kernel or checksum is not the one audited (rewritten or counted
again since) is refused, naming the shard, until it is audited again. audited
is then the number of shards the passing records checked.`,
		Example: "  nqueens merge results/\n  nqueens merge site-a/ site-b/ --json\n  nqueens merge results/ --require-audit",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("want one or more directories or result files")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error { return c.run(args) },
	}
	cmd.Flags().BoolVar(&c.asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&c.requireAudit, "require-audit", false, `refuse unless the directories hold a passing audit record ("nqueens audit")`)
	return cmd
}

func (c *mergeCmd) run(args []string) error {
	if err := givenOnce(args); err != nil {
		return err
	}
	paths, err := cluster.ResultPaths(args)
	if err != nil {
		return usageError{err}
	}
	m, err := cluster.MergeShards(paths)
	if err != nil {
		return failure{err: err}
	}
	audited := 0
	if c.requireAudit {
		if audited, err = cluster.RequireAudit(auditDirs(args), m); err != nil {
			if errors.Is(err, cluster.ErrNoAudit) {
				err = fmt.Errorf("%w: run nqueens audit first", err)
			}
			return failure{err: fmt.Errorf("merge refused: %w", err)}
		}
	}
	return c.render(mergeOutput{N: m.N, Total: m.Total, Unique: m.Unique, Shards: m.Shards, Subs: m.Subs,
		Seconds: m.Seconds, Plan: m.PlanHash, Engine: m.Engine, Files: m.Files, Versions: m.Versions, Kernels: m.Kernels, Audited: audited})
}

// givenOnce refuses a directory or file named twice among args (merge, status and audit
// would read its files twice and name each shard as appearing twice), however spelled:
// "q17 is given twice".
func givenOnce(args []string) error {
	var seen []os.FileInfo
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			continue // the command says what is wrong with it
		}
		for j, s := range seen {
			if s != nil && os.SameFile(s, fi) {
				if filepath.Clean(args[j]) == filepath.Clean(a) {
					return usagef("%s is given twice", a)
				}
				return usagef("%s is given twice (as %s and %s)", args[j], args[j], a)
			}
		}
		seen = append(seen, fi)
	}
	return nil
}

func (c *mergeCmd) render(out mergeOutput) error {
	if c.asJSON {
		return printJSON(c.e.stdout, out)
	}
	audited := ""
	if out.Audited > 0 {
		audited = fmt.Sprintf(" audited=%d", out.Audited)
	}
	_, err := fmt.Fprintf(c.e.stdout, "n=%d total=%v unique=%v shards=%d subs=%d seconds=%.3f plan=%.12s versions=%s kernels=%s%s\n",
		out.N, out.Total, out.Unique, out.Shards, out.Subs, out.Seconds, out.Plan, strings.Join(out.Versions, ","), strings.Join(out.Kernels, ","), audited)
	return err
}
