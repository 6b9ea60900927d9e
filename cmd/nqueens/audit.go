package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/cluster"
)

// auditShard is one shard an audit counted again, in the names of docs/vocabulary.md
// (cluster.AuditedShard's), its shard written "I/K".
type auditShard struct {
	Shard                string `json:"shard"` // "I/K"; it hides the embedded index
	cluster.AuditedShard        // the rest, in order
}

// auditOutput is what audit prints.
type auditOutput struct {
	N          int          `json:"n"`
	Plan       string       `json:"plan"`
	Engine     string       `json:"engine"`
	Shards     int          `json:"shards"`
	Found      int          `json:"shards_found"`
	Fraction   float64      `json:"fraction,omitempty"`
	Seed       uint64       `json:"seed"`
	Checked    []auditShard `json:"checked"`
	Failed     int          `json:"failed"`
	RecordFile string       `json:"record_file"`
}

// auditCmd is "nqueens audit".
type auditCmd struct {
	e        *env
	asJSON   bool
	fraction float64
	only     []int
	host     string
	seed     uint64
	workers  int
	progress progressFlags
}

func newAuditCmd(e *env) *cobra.Command {
	c := &auditCmd{e: e}
	cmd := &cobra.Command{
		Use:   "audit DIR|FILE...",
		Short: `Count a sample of the shards of "count --shard" again, with another kernel`,
		Long: `A checksum proves a shard's result file, not its sums: a node with a bad core or
a bad build writes a well-formed file with a wrong sum. audit counts a sample
of the finished shards in DIR again, each with another matcher kernel than the
one that counted it (its file says which: kernel): the pure-Go kernel for a
shard counted by an assembly one (avx2, avx512), the widest assembly kernel of
this CPU for one counted by go (else go again, with a warning), and compares
the total and the Burnside numerator. NQUEENS_KERNEL=go, avx2 or avx512 makes
every recount use that kernel (a shard it counted is named in a warning); a
value that is no kernel of this CPU is refused (exit 2), as count refuses it. Every shard that disagrees gets a line
(its file, what it says, what the recount gives), and the exit status is 1.

The sample is --fraction F of the finished shards (at least one), chosen by
--seed (by default one derived from the plan hash, so that two audits of a run
check the same shards; the seed is printed), or the shards listed with --only,
and with --host H only among the shards counted on host H.

audit writes its record, sealed with a checksum as the result files are, into
the first DIR: audit-PLAN-TIME.json (format nqueens-audit/2: the plan, the
shards checked with their files' checksums, the kernels and the verdicts, the
seed). "merge --require-audit" wants a passing one, and holds each shard it
checked to it. On Ctrl-C it stops (exit 130) and writes
no record.`,
		Example: "  nqueens audit results/\n  nqueens audit results/ --fraction 0.05 --workers 8\n" +
			"  nqueens audit results/ --only 17,4242 --json\n  nqueens audit results/ --host node042 --fraction 1",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("want one or more directories or result files")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			why := "--only lists the shards to check, --fraction and --seed choose them"
			if err := exclusive(fl, "only", []string{"fraction", "seed"}, why); err != nil {
				return err
			}
			return c.run(args, fl.Changed("seed"))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&c.asJSON, "json", false, "print one JSON object")
	f.Float64Var(&c.fraction, "fraction", cluster.DefaultAuditFraction, "check the fraction `F` of the finished shards (at least one)")
	f.IntSliceVar(&c.only, "only", nil, "check the shards `I,J,...`")
	f.StringVar(&c.host, "host", "", "check only the shards counted on host `H`")
	f.Uint64Var(&c.seed, "seed", 0, "choose the shards with seed `S` (default: from the plan hash)")
	f.IntVarP(&c.workers, "workers", "w", 0, "goroutines counting in parallel (0: one per core)")
	c.progress.register(f)
	return cmd
}

func (c *auditCmd) run(args []string, seedSet bool) error {
	if !(c.fraction > 0 && c.fraction <= 1) {
		return usagef("--fraction must be above 0 and at most 1, got %v", c.fraction)
	}
	var err error
	if err = checkWorkers(c.workers); err != nil {
		return err
	}
	if err := c.progress.check(); err != nil {
		return err
	}
	if err := givenOnce(args); err != nil {
		return err
	}
	paths, err := cluster.ResultPaths(args)
	if err != nil {
		return usageError{err}
	}
	dir := args[0]
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	bar := newLazyBar(c.e.stderr, c.progress.shown(c.e.stderr), "auditing", c.e.progressDelay)
	res, err := cluster.AuditShards(c.e.ctx, paths, cluster.AuditOptions{Fraction: c.fraction, Only: c.only, Host: c.host,
		Seed: c.seed, SeedSet: seedSet, Workers: c.workers, Version: version, Kernel: kernelSetting(), RecordDir: dir, Progress: bar.record,
		Warn: func(msg string) { fmt.Fprintf(c.e.stderr, "nqueens: audit: %s\n", msg) }})
	bar.finish()
	switch {
	case err != nil && c.e.ctx.Err() != nil:
		return interrupted{"audit interrupted: no record written"}
	case errors.Is(err, cluster.ErrNoSuchShard):
		return usagef("--only: %v", err)
	case err != nil && res.PlanHash == "":
		return err
	}
	recErr := err // the audit ran, its record could not be written
	out := auditOutput{N: res.N, Plan: res.PlanHash, Engine: res.Engine, Shards: res.Shards, Found: res.ShardsFound,
		Fraction: res.Fraction, Seed: res.Seed, Failed: res.Failed, RecordFile: res.RecordFile, Checked: []auditShard{}}
	var bad []string
	for _, a := range res.Checked {
		out.Checked = append(out.Checked, auditShard{Shard: fmt.Sprintf("%d/%d", a.Shard, res.Shards), AuditedShard: a})
		if !a.OK {
			bad = append(bad, a.ResultFile)
		}
	}
	if err := c.render(out); err != nil {
		return err
	}
	switch {
	case len(bad) > 0 && recErr != nil:
		return fmt.Errorf("audit failed: %d of %d shards disagree with their recount: %s; and its record was NOT written: %v",
			len(bad), len(res.Checked), strings.Join(bad, ", "), recErr)
	case len(bad) > 0:
		return failure{err: fmt.Errorf("audit failed: %d of %d shards disagree with their recount: %s", len(bad), len(res.Checked), strings.Join(bad, ", "))}
	case recErr != nil:
		return fmt.Errorf("the audit passed, but its record was NOT written: %w", recErr)
	}
	return nil
}

// render prints a line for each shard that disagrees and one for the audit, or the JSON
// object.
func (c *auditCmd) render(out auditOutput) error {
	w := c.e.stdout
	if c.asJSON {
		return printJSON(w, out)
	}
	for _, a := range out.Checked {
		if a.OK {
			continue
		}
		host := ""
		if a.Host != "" {
			host = " host=" + a.Host
		}
		if _, err := fmt.Fprintf(w, "FAILED shard=%s result_file=%s%s kernel=%s total=%v burnside=%v audit_kernel=%s recount_total=%v recount_burnside=%v\n",
			a.Shard, a.ResultFile, host, a.Kernel, a.Total, a.Burnside, a.AuditKernel, a.RecountTotal, a.RecountBurnside); err != nil {
			return err
		}
	}
	sel := fmt.Sprintf(" fraction=%v", out.Fraction)
	if out.Fraction == 0 {
		sel = ""
	}
	_, err := fmt.Fprintf(w, "n=%d plan=%.12s shards=%d shards_found=%d checked=%d failed=%d%s seed=%d record_file=%s\n",
		out.N, out.Plan, out.Shards, out.Found, len(out.Checked), out.Failed, sel, out.Seed, out.RecordFile)
	return err
}

// auditDirs are the directories of the files that args name (a directory for itself),
// where merge looks for audit records.
func auditDirs(args []string) []string {
	var dirs []string
	for _, a := range args {
		d := a
		if fi, err := os.Stat(a); err != nil || !fi.IsDir() {
			d = filepath.Dir(a)
		}
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
