package main

import (
	"bytes"
	"fmt"
	"io"
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
		Long: `Print every solution of an N×N board (N ≤ 32) in lexicographic order, streamed
in constant memory: n=16 prints all 14,772,512 solutions without growing.
Every solution printed has passed an independent O(n) verification.

--unique prints one solution per class of the 8 symmetries of the square: the
class's canonical form (its lexicographically smallest image) and the class
size, "class_size=8" at the end of a text line, a "# class_size=8" comment line
above a board, "class_size" in JSON.

Formats: text (1-based columns, one solution per line), board (drawings
separated by blank lines), json (one object per line). A summary goes to
stderr (listed=, the solutions printed, and total=, the solutions they stand
for), and on a terminal a progress bar (solutions out of the published count,
n ≤ 27) for a listing that lasts.

A board without solution (n = 2, 3) lists nothing and says listed=0, exit
0: the list of its solutions is empty, as count says total=0. (solve and
complete exit 1 there: they were asked for a placement, and none exists.)`,
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
	n, err := parseSize(size)
	if err != nil {
		return err
	}
	f, err := textFormat(c.format, c.asJSON, "list")
	if err != nil {
		return err
	}
	if n > nqueens.MaxEnumerateN {
		return usagef("list handles n ≤ %d (n = %d has too many solutions to print); use count", nqueens.MaxEnumerateN, n)
	}
	if c.workers, err = parseWorkers(c.workers); err != nil {
		return err
	}
	if err := c.progress.check(); err != nil {
		return err
	}
	start := time.Now()
	out := c.progressWriter(n, f)
	res, err := nqueens.WriteSolutions(c.e.ctx, out, n, f, nqueens.EnumerateOptions{Unique: c.unique, Limit: c.limit, Workers: c.workers})
	out.bar.finish()
	if err != nil {
		return err
	}
	// A board without solution (n = 2, 3) is listed in full too: nothing, then
	// listed=0 total=0, exit 0, as count says total=0.
	return c.summary(res, time.Since(start))
}

// summary prints what was listed on stderr.
func (c *listCmd) summary(res nqueens.EnumerateResult, took time.Duration) error {
	what := fmt.Sprintf("listed=%d total=%d", res.Listed, res.Total)
	if res.Stopped {
		what += fmt.Sprintf(" limit=%d", c.limit)
	}
	fmt.Fprintf(c.e.stderr, "n=%d %s verified=true seconds=%.3f\n", res.N, what, took.Seconds())
	return nil
}

// progressWriter passes the listing to stdout and shows how much of it is out: the
// solutions written (counted by their newlines) against the published count, or the
// limit when smaller. Boards past the table (n > 27) get no bar.
func (c *listCmd) progressWriter(n int, f nqueens.Format) *listProgress {
	total, unique, known := nqueens.KnownCounts(n)
	if c.unique {
		total = unique
	}
	if c.limit > 0 && c.limit < total {
		total = c.limit
	}
	show := known && total > 0 && c.progress.shown(c.e.stderr)
	lines := uint64(1) // text and JSON: a line per solution
	if f == nqueens.Board {
		lines = uint64(n) + 1 // the rows and a blank line
		if c.unique {
			lines++ // the "# class_size=K" line
		}
	}
	return &listProgress{w: c.e.stdout, lines: lines, total: total, bar: newLazyBar(c.e.stderr, show, "listing")}
}

// listProgress counts the lines written through it and updates the bar.
type listProgress struct {
	w            io.Writer
	lines, total uint64 // lines per solution, solutions in all
	seen         uint64 // lines written
	bar          *lazyBar
}

func (p *listProgress) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if p.bar.show {
		p.seen += uint64(bytes.Count(b[:n], []byte{'\n'}))
		p.bar.update(min(p.seen/p.lines, p.total), p.total)
	}
	return n, err
}
