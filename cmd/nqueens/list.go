package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
)

// listCmd is "nqueens list".
type listCmd struct {
	e              *env
	format         string
	asJSON, unique bool
	limit          uint64
	workers        int
	progress       progressFlags
}

func newListCmd(e *env) *cobra.Command {
	c := &listCmd{e: e}
	cmd := &cobra.Command{
		Use:   "list N",
		Short: "Print every solution of an N×N board, in lexicographic order",
		Long: fmt.Sprintf(`Print every solution of an N×N board (N ≤ %d) in lexicographic order, streamed
in constant memory: n=16 prints all 14,772,512 solutions without growing.
Every solution printed has passed an independent O(n) verification.

--unique prints one solution per class of the 8 symmetries of the square: the
class's canonical form (its lexicographically smallest image) and the class
size, "class_size=8" at the end of a text line, a "# class_size=8" comment line
above a board, "class_size" in JSON.

Formats: text (1-based columns, one solution per line), board (drawings
separated by blank lines), json (one object per line). A summary goes to
stderr (listed=, the solutions printed, and total=, the solutions they stand
for; complete=false when Ctrl-C stopped the listing, exit 130), and on a
terminal a progress bar (solutions out of the published count, n ≤ %d) for
a listing that lasts.

A board without solution (n = 2, 3) lists nothing and says listed=0, exit
0: the list of its solutions is empty, as count says total=0. (solve and
complete exit 1 there: they were asked for a placement, and none exists.)`,
			nqueens.MaxEnumerateN, maxKnownN()),
		Example: "  nqueens list 8\n  nqueens list 8 --unique --format board\n  nqueens list 16 --limit 10 --json",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := jsonAndFormat(cmd.Flags(), ""); err != nil {
				return err
			}
			return c.run(args[0])
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&c.unique, "unique", "u", false, "one canonical solution per symmetry class, with the class size")
	fl.Uint64VarP(&c.limit, "limit", "l", 0, "stop after `K` solutions (0: no limit)")
	fl.StringVarP(&c.format, "format", "f", "text", "output format: text, board or json")
	fl.BoolVar(&c.asJSON, "json", false, "same as --format json")
	fl.IntVarP(&c.workers, "workers", "w", 0, "goroutines searching ahead of the output (0: one per core)")
	c.progress.register(fl)
	return cmd
}

func (c *listCmd) run(size string) error {
	n, over, err := parseSizeMax(size, nqueens.MaxEnumerateN)
	if err != nil {
		return err
	}
	f, err := textFormat(c.format, c.asJSON, "list")
	if err != nil {
		return err
	}
	if over {
		return usagef("list handles n ≤ %d (n = %s has too many solutions to print); use count", nqueens.MaxEnumerateN, size)
	}
	if err = checkWorkers(c.workers); err != nil {
		return err
	}
	if err := c.progress.check(); err != nil {
		return err
	}
	start := time.Now()
	// The bar counts the solutions written (the library's hook) against the published
	// count, or the limit when smaller; boards past the table (n > 27) get no bar.
	bar := newLazyBar(c.e.stderr, c.progress.shown(c.e.stderr), "listing", c.e.progressDelay)
	res, err := nqueens.WriteSolutions(c.e.ctx, c.e.stdout, f, n, nqueens.EnumerateOptions{Unique: c.unique, Limit: c.limit,
		Workers: c.workers, Progress: func(p nqueens.Progress) {
			if p.Total > 0 {
				bar.record(p)
			}
		}})
	bar.finish()
	if err != nil && res.Status == nqueens.Interrupted {
		// What was listed is printed and verified: say how much, as count and lab do.
		c.summary(res, time.Since(start))
		return interrupted{fmt.Sprintf("interrupted after %d solutions: the list above is partial", res.Listed)}
	}
	if err != nil {
		return err
	}
	// A board without solution (n = 2, 3) is listed in full too: nothing, then
	// listed=0 total=0, exit 0, as count says total=0.
	return c.summary(res, time.Since(start))
}

// summary prints what was listed on stderr; an interrupted listing ends in
// complete=false.
func (c *listCmd) summary(res nqueens.EnumerateResult, took time.Duration) error {
	what := fmt.Sprintf("listed=%d total=%d", res.Listed, res.Total)
	if res.Stopped {
		what += fmt.Sprintf(" limit=%d", c.limit)
	}
	line := fmt.Sprintf("n=%d %s verified=true seconds=%.3f", res.N, what, took.Seconds())
	if res.Status == nqueens.Interrupted {
		line += " complete=false"
	}
	fmt.Fprintln(c.e.stderr, line)
	return nil
}

// maxKnownN is the largest n whose published counts nqueens.KnownCounts gives.
func maxKnownN() int {
	n := 1
	for {
		if _, _, ok := nqueens.KnownCounts(n + 1); !ok {
			return n
		}
		n++
	}
}
