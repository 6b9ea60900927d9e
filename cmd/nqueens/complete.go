package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
)

// completeOutput is what complete prints, in the names of docs/vocabulary.md: fix is the
// fixed queens (as --fix takes them), fixed their number (as --fixed takes it).
type completeOutput struct {
	N         int      `json:"n"`
	Fix       [][2]int `json:"fix"`
	Fixed     int      `json:"fixed"`
	Total     *uint64  `json:"total,omitempty"`     // --count: the completions
	Complete  *bool    `json:"complete,omitempty"`  // --count: false when interrupted (total is then partial)
	Columns   []int    `json:"columns,omitempty"`   // 1-based
	Algorithm string   `json:"algorithm,omitempty"` // the search that answered, as solve's

	Seed     *uint64  `json:"seed,omitempty"`
	Mode     string   `json:"mode,omitempty"`
	Verified bool     `json:"verified,omitempty"`
	Seconds  *float64 `json:"seconds,omitempty"`
	Nodes    uint64   `json:"nodes,omitempty"`
	Swaps    uint64   `json:"swaps,omitempty"`
}

// fixedPairs lists the fixed queens as 1-based [row, column] pairs.
func fixedPairs(p nqueens.Partial) [][2]int {
	out := [][2]int{}
	for r, c := range p {
		if c >= 0 {
			out = append(out, [2]int{r + 1, int(c) + 1})
		}
	}
	return out
}

// completeCmd is "nqueens complete": find or count the completions of a partial board,
// or generate an instance.
type completeCmd struct {
	e                                    *env
	fix, fixFile, format, generate, mode string
	count, asJSON                        bool
	seed                                 uint64
	seedGiven, fixedGiven                bool
	fixedK                               int
	progress                             progressFlags
}

// maxFixInput bounds the bytes of --fix-file read: a line for the largest board is
// about 8 MB.
const maxFixInput = 64 << 20

func newCompleteCmd(e *env) *cobra.Command {
	c := &completeCmd{e: e}
	cmd := &cobra.Command{
		Use:   "complete [N] --fix PAIRS | --fix-file FILE | --generate N --fixed K",
		Short: "Complete a board on which some queens are already placed",
		Long: fmt.Sprintf(`Find a solution of an N×N board that keeps the queens already placed (the
n-Queens Completion problem), count all such solutions with --count, or say
that none exists (exit 1). Every completion printed has passed an independent
O(n) verification and keeps every fixed queen.

The fixed queens come from --fix or from --fix-file (- for stdin), either as
1-based row:col pairs ("1:1, 2:5") or as a line with one entry per row, a
column or 0 or '.' for an empty row ("1 5 0 0 . 0 0 0"; N may then be
omitted). Queens off the board, two queens on one row, or fixed queens that
attack each other are rejected, naming them (exit 2). So is an empty
--fix-file, as --fix "" is (a line of 0s or .s is the empty board), and,
without N, a line that does not end with a newline or names a column past
its length: a file cut short must not pass for a smaller board.

The complete search propagates constraints on bitsets and branches on the
most constrained row or column, alternating from n = 40 with a local search
that never moves the fixed queens; it holds up to about 24·n² bytes (2.4 GB at
n = 10^4). From n = 1000 on, a local search in the manner of Sosic and Gu, in
O(n) time and about 13 bytes per queen, runs first (N up to %s): a board
with few fixed queens is completed as fast as solve finds a solution. When it
gives up (16 runs), the complete search decides if the memory holds it; if
not, the answer is unknown (exit 3): no completion found, none ruled out. The
seed of the local searches is printed. --count always needs the complete
search (n ≤ %s), and a board the memory cannot hold is refused before the
search (exit 2).

--generate N --fixed K prints a random instance: K queens taken from a random
full solution (--mode solution, always completable) or placed one by one on
random unattacked squares (--mode random). --fixed is required with
--generate (--fixed 0 is the empty board).

On a terminal, a search or count that lasts shows its progress on stderr
(--progress and --no-progress force it either way).

Exit status: 0 a completion (or the count) printed, 1 none exists, 2 usage
or input errors, 3 unknown, 130 interrupted.`,
			powerOfTwo(nqueens.MaxCompletionN), powerOfTwo(nqueens.MaxCountCompletionsN)),
		Example: "  nqueens complete 8 --fix 1:1,2:5\n  nqueens complete 8 --fix 1:1 --count --json\n  nqueens complete --generate 200 --fixed 60 --seed 7 > inst.txt\n  nqueens complete 200 --fix-file inst.txt --format board",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one board size N, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c.seedGiven = cmd.Flags().Changed("seed")
			c.fixedGiven = cmd.Flags().Changed("fixed")
			if err := c.conflicts(cmd.Flags()); err != nil {
				return err
			}
			return c.run(args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&c.fix, "fix", "", "fixed queens: 1-based row:col `PAIRS` (\"1:1,2:5\") or a line with 0 or . for empty rows")
	fl.StringVar(&c.fixFile, "fix-file", "", "read the fixed queens from `FILE` (- for stdin)")
	fl.BoolVarP(&c.count, "count", "c", false, "count every completion instead of finding one")
	fl.StringVarP(&c.format, "format", "f", "text", "output format: text, board or json")
	fl.BoolVar(&c.asJSON, "json", false, "print one JSON object")
	fl.Uint64VarP(&c.seed, "seed", "s", 0, "seed of the local search or of --generate (default: random, printed)")
	fl.StringVar(&c.generate, "generate", "", "print a random instance of an `N`×N board instead")
	fl.IntVar(&c.fixedK, "fixed", 0, "--generate: number of fixed queens `K`")
	fl.StringVar(&c.mode, "mode", "solution", "--generate: take the queens from a random solution, or place them at random")
	c.progress.register(fl)
	return cmd
}

// conflicts refuses flags of which one would be ignored.
func (c *completeCmd) conflicts(fl *pflag.FlagSet) error {
	if err := jsonAndFormat(fl, ""); err != nil {
		return err
	}
	if err := exclusive(fl, "generate", []string{"format"}, "--generate prints the instance as a line of text, or JSON with --json"); err != nil {
		return err
	}
	if f, err := nqueens.ParseFormat(c.format); err == nil && f == nqueens.Board && c.count {
		return usagef("--count and --format board exclude each other: --count prints a count, not a board")
	}
	if err := exclusive(fl, "count", []string{"seed"}, "counting draws no random numbers (the seed is that of a search for one completion, or of --generate)"); err != nil {
		return err
	}
	for _, name := range []string{"fixed", "mode"} {
		if fl.Changed(name) && c.generate == "" {
			return usagef("--%s applies to --generate only", name)
		}
	}
	return nil
}

func (c *completeCmd) run(args []string) error {
	if err := c.progress.check(); err != nil {
		return err
	}
	if !c.seedGiven {
		c.seed = rand.Uint64() // printed, so the run can be repeated
	}
	if c.generate != "" {
		if len(args) > 0 || c.fix != "" || c.fixFile != "" || c.count {
			return usagef("--generate takes no N, --fix, --fix-file or --count")
		}
		if !c.fixedGiven {
			return usagef("--generate needs --fixed K, the number of queens to place (--fixed 0: an empty board)")
		}
		return c.generateInstance()
	}
	p, f, err := c.parse(args)
	if err != nil {
		return err
	}
	if c.count {
		return c.countCompletions(p, f)
	}
	return c.findCompletion(p, f)
}

// generateInstance prints a random instance.
func (c *completeCmd) generateInstance() error {
	e := c.e
	n, over, err := parseSizeMax(c.generate, nqueens.MaxCompletionN)
	if err != nil {
		return err
	}
	if over {
		return tooLarge(c.generate, nqueens.MaxCompletionN, "the generator")
	}
	if c.fixedK < 0 || c.fixedK > n {
		return usagef("--fixed must be between 0 and %d, got %d", n, c.fixedK)
	}
	if c.mode != "solution" && c.mode != "random" {
		return usagef("unknown --mode %q (want solution or random)", c.mode)
	}
	p, err := nqueens.GenerateInstance(e.ctx, n, c.fixedK, nqueens.GenerateMode(c.mode), c.seed)
	if err != nil {
		if e.ctx.Err() != nil {
			return e.ctx.Err()
		}
		return usageError{err}
	}
	if c.asJSON {
		fix := fixedPairs(p)
		return printJSON(e.stdout, completeOutput{N: n, Fix: fix, Fixed: len(fix), Seed: &c.seed, Mode: c.mode})
	}
	if _, err := fmt.Fprintln(e.stdout, p.String()); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "n=%d fixed=%d mode=%s seed=%d\n", n, c.fixedK, c.mode, c.seed)
	return nil
}

// parse reads the fixed queens and the output format, and checks them.
func (c *completeCmd) parse(args []string) (nqueens.Partial, nqueens.Format, error) {
	n := 0
	if len(args) == 1 {
		var err error
		var over bool
		if n, over, err = parseSizeMax(args[0], nqueens.MaxCompletionN); err != nil {
			return nil, "", err
		}
		if c.count && (over || n > nqueens.MaxCountCompletionsN) {
			return nil, "", usagef("--count needs the complete search, which handles n ≤ %d (about 24·n² bytes), got %s", nqueens.MaxCountCompletionsN, args[0])
		}
		if over {
			return nil, "", tooLarge(args[0], nqueens.MaxCompletionN, "complete")
		}
	}
	src := c.fix
	switch {
	case c.fix != "" && c.fixFile != "":
		return nil, "", usagef("give --fix or --fix-file, not both")
	case c.fixFile != "":
		in := c.e.stdin
		if c.fixFile != "-" {
			file, err := os.Open(c.fixFile)
			if err != nil {
				return nil, "", usageError{err}
			}
			defer file.Close()
			in = file
		}
		b, err := io.ReadAll(io.LimitReader(in, maxFixInput+1))
		if err != nil {
			return nil, "", usageError{fmt.Errorf("--fix-file: %w", err)}
		}
		if len(b) > maxFixInput {
			return nil, "", usagef("--fix-file: more than %d MiB; give the fixed queens of a large board as row:col pairs", maxFixInput>>20)
		}
		src = string(b)
		if err := cutShort(src, n, c.fixFile); err != nil {
			return nil, "", err
		}
	}
	if strings.TrimSpace(src) == "" { // no queens given: the empty board is a line of 0s or .s
		if c.fixFile != "" {
			return nil, "", usagef("--fix-file %s is empty: give the fixed queens with --fix or --fix-file (or --generate an instance)", c.fixFile)
		}
		return nil, "", usagef("give the fixed queens with --fix or --fix-file (or --generate an instance)")
	}
	f, err := textFormat(c.format, c.asJSON, "complete")
	if err != nil {
		return nil, "", err
	}
	p, err := nqueens.ParsePartial(src, n)
	if err != nil {
		if c.fixFile != "" {
			return nil, "", usageError{fmt.Errorf("--fix-file %s: %w", c.fixFile, err)}
		}
		return nil, "", usageError{fmt.Errorf("--fix: %w", err)}
	}
	n = len(p)
	if f == nqueens.Board && n > maxBoardDrawing {
		return nil, "", usagef("the board format draws n ≤ %d; use text for n = %d", maxBoardDrawing, n)
	}
	if n > nqueens.MaxCompletionN {
		return nil, "", usagef("complete handles n ≤ %d, got %d", nqueens.MaxCompletionN, n)
	}
	if c.count && n > nqueens.MaxCountCompletionsN {
		return nil, "", usagef("--count needs the complete search, which handles n ≤ %d (about 24·n² bytes), got %d", nqueens.MaxCountCompletionsN, n)
	}
	if err := p.Check(); err != nil {
		return nil, "", usageError{fmt.Errorf("fixed %w", err)}
	}
	return p, f, nil
}

// countCompletions counts every completion of p; on Ctrl-C it prints the count so far,
// marked partial.
func (c *completeCmd) countCompletions(p nqueens.Partial, f nqueens.Format) error {
	e := c.e
	n, fixed := len(p), fixedPairs(p)
	start := time.Now()
	bar := newLazyBar(e.stderr, c.progress.shown(e.stderr), "counting", e.progressDelay)
	res, err := nqueens.CountCompletions(e.ctx, p, nqueens.CompletionOptions{Progress: bar.record})
	bar.finish()
	count, st := res.Total, res.Stats
	stopped := res.Status == nqueens.Interrupted
	if err != nil && !stopped {
		return err
	}
	secs := time.Since(start).Seconds()
	complete := !stopped
	if c.asJSON || f == nqueens.JSON {
		if err := printJSON(e.stdout, completeOutput{N: n, Fix: fixed, Fixed: len(fixed), Total: &count, Complete: &complete,
			Seconds: &secs, Nodes: st.Nodes}); err != nil {
			return err
		}
	} else {
		partial := ""
		if stopped {
			partial = " complete=false"
		}
		if _, err := fmt.Fprintf(e.stdout, "n=%d fixed=%d total=%d seconds=%.3f%s\n", n, len(fixed), count, secs, partial); err != nil {
			return err
		}
	}
	if stopped {
		return interrupted{fmt.Sprintf("interrupted after %.1f s: the count above is partial, a lower bound", secs)}
	}
	return nil
}

// findCompletion prints one completion of p, or fails when there is none.
func (c *completeCmd) findCompletion(p nqueens.Partial, f nqueens.Format) error {
	e := c.e
	n, fixed := len(p), fixedPairs(p)
	start := time.Now()
	line := newLazyLine(e.stderr, c.progress.shown(e.stderr), e.progressDelay)
	res, err := nqueens.FindCompletion(e.ctx, p, nqueens.CompletionOptions{Seed: c.seed, MaxMemory: e.completeMemoryLimit, Progress: line.record})
	line.finish()
	if errors.Is(err, nqueens.ErrNoCompletion) {
		return failure{err: fmt.Errorf("no completion exists (n=%d, %s fixed)", n, queens(len(fixed)))}
	}
	if errors.Is(err, nqueens.ErrCompletionUnknown) {
		return undecided{fmt.Errorf("%w (n=%d, %s fixed, seed=%d)", err, n, queens(len(fixed)), c.seed)}
	}
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	if f == nqueens.JSON {
		return printJSON(e.stdout, completeOutput{N: n, Fix: fixed, Fixed: len(fixed), Columns: oneBased(res.Placement),
			Algorithm: string(res.Algorithm), Seed: &c.seed, Verified: true, Seconds: &secs, Nodes: res.Stats.Nodes, Swaps: res.Stats.Swaps})
	}
	if err := nqueens.WritePlacement(e.ctx, e.stdout, f, res.Placement); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "n=%d fixed=%d algorithm=%s seed=%d verified=true seconds=%.3f\n", n, len(fixed), res.Algorithm, c.seed, secs)
	return nil
}

// cutShort refuses the line of a --fix-file in the row form (one entry per row) that
// does not end with a newline when no N is given to check its length: a file cut short
// would otherwise be taken for a smaller board.
func cutShort(src string, n int, file string) error {
	line := strings.TrimRight(src, " \t")
	if n > 0 || line == "" || strings.HasSuffix(line, "\n") || strings.Contains(src, ":") {
		return nil
	}
	k := len(strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\n' || r == '\r' }))
	return usagef("--fix-file %s: its line of %d entries does not end with a newline: cut short? Give N to take it as it is (complete %d --fix-file %s for a %d×%d board)",
		file, k, k, file, k, k)
}

// oneBased is p's columns counted from 1, as the JSON output prints them.
func oneBased(p nqueens.Placement) []int {
	c := make([]int, len(p))
	for r, col := range p {
		c[r] = int(col) + 1
	}
	return c
}

// queens is k queens, in words: "1 queen", "2 queens".
func queens(k int) string {
	if k == 1 {
		return "1 queen"
	}
	return fmt.Sprintf("%d queens", k)
}
