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
)

// maxBoardDrawing is the largest n drawn as a board: beyond it the n² characters are
// more than anyone reads.
const maxBoardDrawing = 1000

type solveOutput struct {
	N         int     `json:"n"`
	Algorithm string  `json:"algorithm"`
	Seed      uint64  `json:"seed"`
	Verified  bool    `json:"verified"`
	Seconds   float64 `json:"seconds"`
	Out       string  `json:"out,omitempty"`
	Nodes     uint64  `json:"nodes,omitempty"`
	// Local search only (docs/algorithms.md §3.6).
	Attempts   uint64 `json:"attempts,omitempty"`    // initial-search attempts
	K          uint64 `json:"k,omitempty"`           // queens left in conflict by the initial search
	FinalSwaps uint64 `json:"final_swaps,omitempty"` // final-search swaps
	Restarts   uint64 `json:"restarts,omitempty"`
	// The columns follow, streamed by writeSolveJSON, unless the placement went to --out.
}

// writeSolveJSON writes the summary o and the placement as one JSON object, the columns
// (1-based) last and streamed: at n = 10^7 the output is 80 MB, never held in memory.
func writeSolveJSON(w io.Writer, o solveOutput, cols iter.Seq[int]) error {
	head, err := json.Marshal(o)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(head[:len(head)-1]) // without its closing brace
	bw.WriteString(`,"columns":[`)
	var buf [24]byte
	first := true
	for c := range cols {
		if !first {
			bw.WriteByte(',')
		}
		first = false
		if _, err := bw.Write(strconv.AppendInt(buf[:0], int64(c)+1, 10)); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
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
			// The output file is opened before the search, so that a path that cannot be
			// written fails now and not after minutes of work.
			var of *nqueens.OutputFile
			if out != "" {
				if of, err = createOutput(out, false); err != nil {
					return err
				}
				defer of.Abort()
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
			if of != nil {
				// The placement goes to the file, the summary alone to stdout.
				err := writePlacement(e, of.OS(), f, n, cols, res.Placement)
				if err == nil {
					err = e.ctx.Err() // an interrupted stream must not land as a file
				}
				if err != nil {
					return of.Rename(err)
				}
				if err := of.Commit(); err != nil {
					return err
				}
				o.Seconds = time.Since(start).Seconds()
				if asJSON {
					return printJSON(e.stdout, o)
				}
				_, err = fmt.Fprintf(e.stdout, "n=%d algorithm=%s seed=%d verified=true seconds=%.3f out=%s\n", n, o.Algorithm, seed, o.Seconds, out)
				return err
			}
			if asJSON || f == nqueens.JSON {
				if err := writeSolveJSON(e.stdout, o, cancellable(e, cols)); err != nil {
					return err
				}
				return e.ctx.Err()
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

// createOutput opens the output file path (see nqueens.CreateOutput); a directory, or a
// device where a regular file is needed, is a usage error.
func createOutput(path string, regularOnly bool) (*nqueens.OutputFile, error) {
	f, err := nqueens.CreateOutput(path, regularOnly)
	return f, fileError(err)
}

func printJSON(w io.Writer, v any) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return bw.Flush()
}
