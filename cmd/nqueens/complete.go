package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
)

type completeOutput struct {
	N        int      `json:"n"`
	Fixed    [][2]int `json:"fixed"`
	Count    *uint64  `json:"count,omitempty"`
	Complete *bool    `json:"complete,omitempty"` // --count: false when interrupted (count is then partial)
	Columns  []int    `json:"columns,omitempty"`  // 1-based
	Engine   string   `json:"engine,omitempty"`
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

func newCompleteCmd(e *env) *cobra.Command {
	var fix, fixFile, format, generate, mode string
	var count, asJSON bool
	var seed uint64
	var fixedK int
	cmd := &cobra.Command{
		Use:   "complete [N] --fix PAIRS | --fix-file FILE | --generate N --fixed K",
		Short: "Complete a board on which some queens are already placed",
		Long: `Find a solution of an N×N board that keeps the queens already placed (the
n-Queens Completion problem), count all such solutions with --count, or say
that none exists (exit 1). Every completion printed has passed an independent
O(n) verification and keeps every fixed queen.

The fixed queens come from --fix or from --fix-file (- for stdin), either as
1-based row:col pairs ("1:1, 2:5") or as a line with one entry per row, a
column or 0 or '.' for an empty row ("1 5 0 0 . 0 0 0"; N may then be
omitted). Queens off the board, two queens on one row, or fixed queens that
attack each other are rejected, naming them (exit 2).

The search propagates constraints on bitsets and branches on the most
constrained row or column; on large boards it alternates with a local search
that never moves the fixed queens. The seed of that local search is printed.

--generate N --fixed K prints a random instance: K queens taken from a random
full solution (--mode solution, always completable) or placed one by one on
random unattacked squares (--mode random).`,
		Example: "  nqueens complete 8 --fix 1:1,2:5\n  nqueens complete 8 --fix 1:1 --count --json\n  nqueens complete --generate 200 --fixed 60 --seed 7 > inst.txt\n  nqueens complete 200 --fix-file inst.txt --format board",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one board size N, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("seed") {
				seed = rand.Uint64() // printed, so the run can be repeated
			}
			if generate != "" {
				if len(args) > 0 || fix != "" || fixFile != "" || count {
					return usagef("--generate takes no N, --fix, --fix-file or --count")
				}
				n, err := parseSize(generate)
				if err != nil {
					return err
				}
				if fixedK < 0 || fixedK > n {
					return usagef("--fixed must be between 0 and %d, got %d", n, fixedK)
				}
				if mode != "solution" && mode != "random" {
					return usagef("unknown --mode %q (want solution or random)", mode)
				}
				p, err := nqueens.GenerateInstance(e.ctx, n, fixedK, nqueens.GenerateMode(mode), seed)
				if err != nil {
					if e.ctx.Err() != nil {
						return e.ctx.Err()
					}
					return usageError{err}
				}
				if asJSON {
					return printJSON(e.stdout, completeOutput{N: n, Fixed: fixedPairs(p), Seed: &seed, Mode: mode})
				}
				fmt.Fprintln(e.stdout, p.String())
				fmt.Fprintf(e.stderr, "n=%d fixed=%d mode=%s seed=%d\n", n, fixedK, mode, seed)
				return nil
			}
			n := 0
			if len(args) == 1 {
				var err error
				if n, err = parseSize(args[0]); err != nil {
					return err
				}
			}
			src := fix
			switch {
			case fix != "" && fixFile != "":
				return usagef("give --fix or --fix-file, not both")
			case fixFile == "-":
				b, err := io.ReadAll(e.stdin)
				if err != nil {
					return err
				}
				src = string(b)
			case fixFile != "":
				b, err := os.ReadFile(fixFile)
				if err != nil {
					return usageError{err}
				}
				src = string(b)
			case fix == "":
				return usagef("give the fixed queens with --fix or --fix-file (or --generate an instance)")
			}
			f, err := textFormat(format, asJSON, "complete")
			if err != nil {
				return err
			}
			p, err := nqueens.ParsePartial(src, n)
			if err != nil {
				return usageError{fmt.Errorf("--fix: %w", err)}
			}
			n = len(p)
			if f == nqueens.Board && n > maxBoardDrawing {
				return usagef("the board format draws n ≤ %d; use text for n = %d", maxBoardDrawing, n)
			}
			if n > nqueens.MaxCompletionN {
				return usagef("complete handles n ≤ %d, got %d", nqueens.MaxCompletionN, n)
			}
			if err := p.Check(); err != nil {
				return usageError{fmt.Errorf("fixed %w", err)}
			}
			fixed := fixedPairs(p)
			start := time.Now()
			if count {
				c, st, err := nqueens.CountCompletions(e.ctx, p)
				stopped := err != nil && e.ctx.Err() != nil
				if err != nil && !stopped {
					return err
				}
				secs := time.Since(start).Seconds()
				complete := !stopped
				if asJSON || f == nqueens.JSON {
					if err := printJSON(e.stdout, completeOutput{N: n, Fixed: fixed, Count: &c, Complete: &complete,
						Seconds: &secs, Nodes: st.Nodes}); err != nil {
						return err
					}
				} else {
					fmt.Fprintf(e.stdout, "n=%d fixed=%d count=%d seconds=%.3f", n, len(fixed), c, secs)
					if stopped {
						fmt.Fprint(e.stdout, " partial=true")
					}
					fmt.Fprintln(e.stdout)
				}
				if stopped {
					return interrupted{fmt.Sprintf("interrupted after %.1f s: the count above is partial, a lower bound", secs)}
				}
				return nil
			}
			res, err := nqueens.FindCompletion(e.ctx, p, nqueens.CompletionOptions{Seed: seed})
			if errors.Is(err, nqueens.ErrNoCompletion) {
				return failure{err: fmt.Errorf("no completion exists (n=%d, %d queens fixed)", n, len(fixed))}
			}
			if err != nil {
				return err
			}
			secs := time.Since(start).Seconds()
			if f == nqueens.JSON {
				return printJSON(e.stdout, completeOutput{N: n, Fixed: fixed, Columns: oneBased(res.Placement),
					Engine: res.Engine, Seed: &seed, Verified: true, Seconds: &secs, Nodes: res.Stats.Nodes, Swaps: res.Stats.Swaps})
			}
			if err := nqueens.WritePlacement(e.stdout, f, res.Placement); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "n=%d fixed=%d engine=%s seed=%d verified=true seconds=%.3f\n", n, len(fixed), res.Engine, seed, secs)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&fix, "fix", "", "fixed queens: 1-based row:col `PAIRS` (\"1:1,2:5\") or a line with 0 or . for empty rows")
	fl.StringVar(&fixFile, "fix-file", "", "read the fixed queens from `FILE` (- for stdin)")
	fl.BoolVarP(&count, "count", "c", false, "count every completion instead of finding one")
	fl.StringVarP(&format, "format", "f", "text", "output format: text, board or json")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object")
	fl.Uint64VarP(&seed, "seed", "s", 0, "seed of the local search or of --generate (default: random, printed)")
	fl.StringVar(&generate, "generate", "", "print a random instance of an `N`×N board instead")
	fl.IntVar(&fixedK, "fixed", 0, "--generate: number of fixed queens `K`")
	fl.StringVar(&mode, "mode", "solution", "--generate: take the queens from a random solution, or place them at random")
	return cmd
}

// oneBased is p's columns counted from 1, as the JSON output prints them.
func oneBased(p nqueens.Placement) []int {
	c := make([]int, len(p))
	for r, col := range p {
		c[r] = int(col) + 1
	}
	return c
}
