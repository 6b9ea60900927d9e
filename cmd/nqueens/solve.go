package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/atomicfile"
)

// maxBoardDrawing is the largest n drawn as a board: beyond it the n² characters are
// more than anyone reads.
const maxBoardDrawing = 1000

type solveOutput struct {
	N         int      `json:"n"`
	Algorithm string   `json:"algorithm"`
	Seed      uint64   `json:"seed"`
	Columns   *columns `json:"columns,omitempty"`
	Verified  bool     `json:"verified"`
	Seconds   float64  `json:"seconds"`
	Out       string   `json:"out,omitempty"`
	Nodes     uint64   `json:"nodes,omitempty"`
	// Local search only (docs/algorithms.md §3.6).
	Attempts   uint64 `json:"attempts,omitempty"`    // initial-search attempts
	K          uint64 `json:"k,omitempty"`           // queens left in conflict by the initial search
	FinalSwaps uint64 `json:"final_swaps,omitempty"` // final-search swaps
	Restarts   uint64 `json:"restarts,omitempty"`
}

// columns marshals a stream of 0-based columns as a JSON array of 1-based ones without
// building the array in memory first.
type columns struct{ seq iter.Seq[int] }

func (c *columns) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for col := range c.seq {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(col)+1, 10)
	}
	return append(b, ']'), nil
}

func newSolveCmd(e *env) *cobra.Command {
	var algo, format, out, maxMemory string
	var seed uint64
	var asJSON, progress, noProgress bool
	cmd := &cobra.Command{
		Use:   "solve N",
		Short: "Find one solution of an N×N board",
		Long: `Find one solution of an N×N board and print it; every placement printed has
passed an independent O(n) verification first.

Algorithms: localsearch (Sosic–Gu linear-time local search, a different
solution per seed, n up to 2^31−1 in 4.5 bytes per queen), construct (explicit
O(n) construction, always the same solution, streamed), backtrack (first
solution in lexicographic order, n ≤ 32), auto (backtrack for n ≤ 20,
localsearch beyond). The seed is printed so a run can be repeated; the same
seed gives the same placement. Algorithms that draw no random numbers ignore it.

Formats: text (1-based columns on one line), board (a drawing, n ≤ 1000),
json, binary (little-endian uint32 per row, 0-based; needs --out or a pipe).
With --out the placement goes to FILE (written atomically) and a summary to
stdout; --json makes that summary, or the whole output, one JSON object.`,
		Example: "  nqueens solve 8\n  nqueens solve 1e6 --algo construct --format binary --out q.bin\n  nqueens solve 12 --format board",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseSize(args[0])
			if err != nil {
				return err
			}
			a, err := nqueens.ParseAlgorithm(algo)
			if err != nil {
				return usageError{err}
			}
			f, err := nqueens.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			if f == nqueens.Board && n > maxBoardDrawing {
				return usagef("the board format draws n ≤ %d; use text or binary for n = %d", maxBoardDrawing, n)
			}
			if f == nqueens.Binary && out == "" && isTerminal(e.stdout) {
				return usagef("not writing binary to a terminal: use --out FILE or a pipe")
			}
			if !cmd.Flags().Changed("seed") {
				seed = rand.Uint64() // printed below, so the run can be repeated
			}
			var memLimit int64
			if maxMemory != "" {
				if memLimit, err = parseBytes(maxMemory); err != nil {
					return err
				}
			}
			if err := a.CheckSize(n); err != nil {
				if errors.Is(err, nqueens.ErrNoSolution) {
					return fmt.Errorf("n = %d: %w", n, err)
				}
				return usageError{err}
			}
			if progress && noProgress {
				return usagef("--progress and --no-progress exclude each other")
			}
			line := newLazyLine(e.stderr, progress || (!noProgress && isTerminal(e.stderr)))
			start := time.Now()
			n, cols, res, err := find(e, n, a, seed, memLimit, line.update)
			line.finish()
			if err != nil {
				return err
			}
			st := res.Stats
			o := solveOutput{N: n, Algorithm: string(res.Algorithm), Seed: seed, Verified: true,
				Seconds: time.Since(start).Seconds(), Out: out, Nodes: st.Nodes,
				Attempts: st.Attempts, K: st.Conflicts, FinalSwaps: st.Swaps, Restarts: st.Restarts}
			if !asJSON && res.Algorithm == nqueens.LocalSearch {
				fmt.Fprintf(e.stderr, "localsearch: attempts=%d k=%d final_swaps=%d restarts=%d\n", st.Attempts, st.Conflicts, st.Swaps, st.Restarts)
			}
			if out != "" {
				err := atomicfile.Write(out, func(w io.Writer) error {
					if err := writePlacement(e, w, f, n, cols, res.Placement); err != nil {
						return err
					}
					return e.ctx.Err() // an interrupted stream must not land as a file
				})
				if err != nil {
					return err
				}
				o.Seconds = time.Since(start).Seconds()
				if f != nqueens.Binary {
					o.Columns = &columns{cols}
				}
				if asJSON {
					return printJSON(e.stdout, o)
				}
				fmt.Fprintf(e.stdout, "n=%d algorithm=%s seed=%d verified=true seconds=%.3f out=%s\n", n, o.Algorithm, seed, o.Seconds, out)
				return nil
			}
			if asJSON || f == nqueens.JSON {
				o.Columns = &columns{cols}
				return printJSON(e.stdout, o)
			}
			if err := writePlacement(e, e.stdout, f, n, cols, res.Placement); err != nil {
				return err
			}
			if err := e.ctx.Err(); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "n=%d algorithm=%s seed=%d verified=true seconds=%.3f\n", n, o.Algorithm, seed, time.Since(start).Seconds())
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&algo, "algo", "a", "auto", "algorithm: auto, localsearch, construct or backtrack")
	fl.Uint64VarP(&seed, "seed", "s", 0, "seed of the random source (default: random, printed)")
	fl.StringVarP(&format, "format", "f", "text", "output format: text, board, json or binary")
	fl.StringVarP(&out, "out", "o", "", "write the placement to `FILE` instead of stdout")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object")
	fl.StringVar(&maxMemory, "max-memory", "", "refuse boards needing more memory than `SIZE` (e.g. 4G; default: the machine's or the cgroup's limit)")
	fl.BoolVar(&progress, "progress", false, "always show progress on stderr")
	fl.BoolVar(&noProgress, "no-progress", false, "never show progress")
	return cmd
}

// writePlacement writes the solution in format f: a binary placement held in memory (p)
// as it is, without encoding, and straight to the disk when w is a file (WriteBinary);
// anything else from the stream cols.
func writePlacement(e *env, w io.Writer, f nqueens.Format, n int, cols iter.Seq[int], p nqueens.Placement) error {
	if f == nqueens.Binary && p != nil {
		return nqueens.WriteBinary(e.ctx, w, p)
	}
	return nqueens.Write(w, f, n, cancellable(e, cols))
}

// find runs algorithm a and returns the verified placement as a re-iterable stream. The
// construction is streamed twice (verify, then write) instead of being held in memory.
func find(e *env, n int, a nqueens.Algorithm, seed uint64, memLimit int64, progress func(string, float64)) (int, iter.Seq[int], nqueens.FindResult, error) {
	if a.Pick(n) == nqueens.Construct {
		cols, err := nqueens.Construction(e.ctx, n)
		if err != nil {
			return n, nil, nqueens.FindResult{}, err
		}
		return n, cols, nqueens.FindResult{N: n, Algorithm: nqueens.Construct, Status: nqueens.Complete}, nil
	}
	res, err := nqueens.Solve(e.ctx, n, nqueens.SolveOptions{Algorithm: a, Seed: seed, Progress: progress, MemoryLimit: memLimit})
	var me *nqueens.MemoryError
	if errors.As(err, &me) {
		return n, nil, res, usageError{err}
	}
	if err != nil {
		return n, nil, res, err
	}
	return n, res.Placement.Columns(), res, nil
}

// cancellable stops a stream when the context is cancelled (checked every 2^20 rows).
func cancellable(e *env, cols iter.Seq[int]) iter.Seq[int] {
	return func(yield func(int) bool) {
		i := 0
		for c := range cols {
			i++
			if i&(1<<20-1) == 0 && e.ctx.Err() != nil {
				return
			}
			if !yield(c) {
				return
			}
		}
	}
}

func printJSON(w io.Writer, v any) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return bw.Flush()
}
