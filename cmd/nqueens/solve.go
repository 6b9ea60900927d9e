package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/atomicfile"
)

// maxBoardDrawing is the largest n drawn as a board: beyond it the n² characters are
// more than anyone reads.
const maxBoardDrawing = 1000

// solveOutput is the summary of a solve, in the names of docs/vocabulary.md.
type solveOutput struct {
	N         int     `json:"n"`
	Algorithm string  `json:"algorithm"`
	Seed      uint64  `json:"seed"`
	Verified  bool    `json:"verified"`
	Seconds   float64 `json:"seconds"`
	Out       string  `json:"out,omitempty"`
	Nodes     uint64  `json:"nodes,omitempty"`
	// Local search only (docs/algorithms.md §3.6): absent for the other algorithms,
	// always there, 0 included, for the local search.
	Attempts  *uint64 `json:"attempts,omitempty"`  // initial-search attempts
	Conflicts *uint64 `json:"conflicts,omitempty"` // queens left in conflict by the initial search (k)
	Swaps     *uint64 `json:"swaps,omitempty"`     // final-search swaps
	Restarts  *uint64 `json:"restarts,omitempty"`
	// The columns follow, streamed by writeSolveJSON, unless the placement went to --out.
}

// newSolveOutput is the summary of a solve of algorithm a with counters st.
func newSolveOutput(n int, a nqueens.Algorithm, seed uint64, st nqueens.Stats) solveOutput {
	o := solveOutput{N: n, Algorithm: string(a), Seed: seed, Verified: true, Nodes: st.Nodes}
	if a == nqueens.LocalSearch {
		o.Attempts, o.Conflicts, o.Swaps, o.Restarts = &st.Attempts, &st.Conflicts, &st.Swaps, &st.Restarts
	}
	return o
}

// line is the summary as one line of text: the local search's counters come last, on
// the same line.
func (o solveOutput) line() string {
	s := fmt.Sprintf("n=%d algorithm=%s seed=%d verified=true seconds=%.3f", o.N, o.Algorithm, o.Seed, o.Seconds)
	if o.Attempts != nil {
		s += fmt.Sprintf(" attempts=%d conflicts=%d swaps=%d restarts=%d", *o.Attempts, *o.Conflicts, *o.Swaps, *o.Restarts)
	}
	if o.Out != "" {
		s += " out=" + o.Out
	}
	return s
}

// writeSolveJSON writes the summary o and the placement as one JSON object, the columns
// (1-based) last and streamed: at n = 10^7 the output is 80 MB, never held in memory.
// When ctx is done it closes the object after the rows written (within 2^20).
func writeSolveJSON(ctx context.Context, w io.Writer, o solveOutput, cols iter.Seq[int]) error {
	head, err := json.Marshal(o)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(head[:len(head)-1]) // without its closing brace
	bw.WriteString(`,"columns":[`)
	var buf [24]byte
	first, rows := true, 0
	for c := range cols {
		if rows++; rows&(1<<20-1) == 0 && ctx.Err() != nil {
			break // a prefix, closed; the caller returns ctx.Err()
		}
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

// solveCmd is "nqueens solve": the flags, then parse, run (the search) and render.
type solveCmd struct {
	e                            *env
	algo, format, out, maxMemory string
	seed                         uint64
	seedGiven, formatGiven       bool
	asJSON                       bool
	progress                     progressFlags
}

// solveJob is a parsed command line of solve.
type solveJob struct {
	n        int
	algo     nqueens.Algorithm
	format   nqueens.Format
	memLimit int64
}

// algorithmMax is the largest n algorithm a takes, as its size error says.
func algorithmMax(a nqueens.Algorithm) int {
	var se *nqueens.SizeError
	if errors.As(a.CheckSize(math.MaxInt), &se) {
		return se.Max
	}
	return nqueens.MaxN
}

// autoBacktrackMax is the largest n for which auto picks backtracking.
func autoBacktrackMax() int {
	n := 1
	for n < nqueens.MaxN && nqueens.Auto.Pick(n+1) == nqueens.Backtrack {
		n++
	}
	return n
}

func newSolveCmd(e *env) *cobra.Command {
	c := &solveCmd{e: e}
	cmd := &cobra.Command{
		Use:   "solve N",
		Short: "Find one solution of an N×N board",
		Long: fmt.Sprintf(`Find one solution of an N×N board and print it; every placement printed has
passed an independent O(n) verification first.

Algorithms: localsearch (Sosic–Gu linear-time local search, a different
solution per seed, n up to %s in 4.5 bytes per queen), construct (explicit
O(n) construction, always the same solution, streamed), backtrack (first
solution in lexicographic order, n ≤ %d), auto (backtrack for n ≤ %d,
localsearch beyond). The seed is printed so a run can be repeated; the same
seed gives the same placement. Algorithms that draw no random numbers ignore it.

Formats: text (1-based columns on one line), board (a drawing, n ≤ %d),
json, binary (little-endian uint32 per row, 0-based; needs --out or a pipe).
With --out the placement goes to FILE (written atomically) and a summary to
stdout; --json makes that summary, or the whole output, one JSON object.
Without --format, a FILE ending in .json is written as json and one ending in
.bin as binary (else text).
--out - , or a FILE that is stdout itself (/dev/stdout, /dev/fd/1, the file
stdout is redirected to), writes the placement to stdout and the summary to
stderr, as without --out.
Without --out, --json is --format json, and a --format other than json with
it is refused (exit 2). The summary is one line (on stderr without --out): n,
algorithm, seed, time, and for the local search its counters (attempts,
conflicts: the k queens left in conflict by the initial search, swaps,
restarts), as in the JSON.

Boards of 2 and 3 have no solution: solve says so and exits 1, as it cannot
give the placement asked for (count and list answer 0 there, exit 0).`,
			powerOfTwo(int64(algorithmMax(nqueens.LocalSearch))), algorithmMax(nqueens.Backtrack), autoBacktrackMax(), maxBoardDrawing),
		Example: "  nqueens solve 8\n  nqueens solve 1e6 --algorithm construct --format binary --out q.bin\n  nqueens solve 12 --format board",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c.seedGiven, c.formatGiven = cmd.Flags().Changed("seed"), cmd.Flags().Changed("format")
			if c.out == "" || c.out == "-" { // with --out FILE, --json is the summary's
				if err := jsonAndFormat(cmd.Flags(), "; with --out FILE, --format is the file's"); err != nil {
					return err
				}
			}
			job, err := c.parse(args[0])
			if err != nil {
				return err
			}
			return c.run(job)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&c.algo, "algorithm", "a", string(nqueens.Auto), "auto, localsearch, construct or backtrack")
	fl.Uint64VarP(&c.seed, "seed", "s", 0, "seed of the random source (default: random, printed)")
	fl.StringVarP(&c.format, "format", "f", "text", "output format: text, board, json or binary")
	fl.StringVarP(&c.out, "out", "o", "", "write the placement to `FILE` instead of stdout (- is stdout)")
	fl.BoolVar(&c.asJSON, "json", false, "print one JSON object")
	fl.StringVar(&c.maxMemory, "max-memory", "", "refuse boards needing more memory than `SIZE` (e.g. 4G; default: the machine's or the cgroup's limit)")
	c.progress.register(fl)
	return cmd
}

// formatOfName is the format a file named name is written in when no --format is
// given: json for .json, binary for .bin, else def.
func formatOfName(name, def string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return string(nqueens.JSON)
	case ".bin":
		return string(nqueens.Binary)
	}
	return def
}

// parse checks the command line; every usage error comes from here, before any work.
func (c *solveCmd) parse(size string) (solveJob, error) {
	var j solveJob
	var err error
	var over bool
	if j.n, over, err = parseSizeMax(size, nqueens.MaxN); err != nil {
		return j, err
	}
	if over {
		j.n = nqueens.MaxN + 1 // refused below with the algorithm's limit, quoting size
	}
	if j.algo, err = nqueens.ParseAlgorithm(c.algo); err != nil {
		return j, usageError{err}
	}
	if !c.formatGiven && c.out != "" && c.out != "-" {
		c.format = formatOfName(c.out, c.format)
	}
	if j.format, err = nqueens.ParseFormat(c.format); err != nil {
		return j, usageError{err}
	}
	if j.format == nqueens.Board && j.n > maxBoardDrawing {
		return j, usagef("the board format draws n ≤ %d; use text or binary for n = %s", maxBoardDrawing, size)
	}
	if c.out == "-" || isStdout(c.e, c.out) {
		// As for verify and --fix-file: stdout, the summary on stderr. A path that is
		// stdout (/dev/stdout, /dev/fd/1, the file stdout is redirected to) is the
		// same: written as a file, it would get the summary line after the data.
		c.out = ""
	}
	if j.format == nqueens.Binary && c.out == "" && isTerminal(c.e.stdout) {
		return j, usagef("not writing binary to a terminal: use --out FILE or a pipe")
	}
	if !c.seedGiven {
		c.seed = rand.Uint64() // printed with the result, so the run can be repeated
	}
	if c.maxMemory != "" {
		if j.memLimit, err = parseBytes(c.maxMemory); err != nil {
			return j, err
		}
	}
	if err := j.algo.CheckSize(j.n); err != nil {
		if errors.Is(err, nqueens.ErrNoSolution) {
			return j, fmt.Errorf("n = %d: %w", j.n, err)
		}
		if se := (*nqueens.SizeError)(nil); errors.As(err, &se) && j.n > se.Max {
			return j, tooLarge(size, se.Max, se.What) // the size as given: 1e10, not 2147483648
		}
		return j, usageError{err}
	}
	if err := c.progress.check(); err != nil {
		return j, err
	}
	return j, nil
}

// run searches and writes the placement: to --out (then a summary to stdout), or to
// stdout.
func (c *solveCmd) run(j solveJob) error {
	e := c.e
	// The output file is opened before the search, so that a path that cannot be
	// written fails now and not after minutes of work.
	var of *atomicfile.File
	if c.out != "" {
		var err error
		if of, err = createOutput(c.out, false); err != nil {
			return err
		}
		defer of.Abort()
	}
	line := newLazyLine(e.stderr, c.progress.shown(e.stderr), e.progressDelay)
	start := time.Now()
	cols, res, err := find(e, j.n, j.algo, c.seed, j.memLimit, line.record)
	line.finish()
	if err != nil {
		return err
	}
	o := newSolveOutput(j.n, res.Algorithm, c.seed, res.Stats)
	o.Seconds, o.Out = time.Since(start).Seconds(), c.out
	if of != nil {
		// The placement goes to the file, the summary alone to stdout.
		err := writePlacement(e, of.OS(), j.format, j.n, cols, res.Placement)
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
		return c.renderSummary(o)
	}
	if c.asJSON || j.format == nqueens.JSON {
		if err := writeSolveJSON(e.ctx, e.stdout, o, cols); err != nil {
			return err
		}
		return e.ctx.Err()
	}
	if err := writePlacement(e, e.stdout, j.format, j.n, cols, res.Placement); err != nil {
		return err
	}
	if err := e.ctx.Err(); err != nil {
		return err
	}
	o.Seconds = time.Since(start).Seconds()
	fmt.Fprintln(e.stderr, o.line())
	return nil
}

// renderSummary prints the line (or JSON object) of a placement written to --out.
func (c *solveCmd) renderSummary(o solveOutput) error {
	if c.asJSON {
		return printJSON(c.e.stdout, o)
	}
	_, err := fmt.Fprintln(c.e.stdout, o.line())
	return err
}

// writePlacement writes the solution in format f: a binary placement held in memory (p)
// as it is, without encoding, and straight to the disk when w is a file (WriteBinary);
// anything else from the stream cols.
func writePlacement(e *env, w io.Writer, f nqueens.Format, n int, cols iter.Seq[int], p nqueens.Placement) error {
	if f == nqueens.Binary && p != nil {
		if file, ok := osFile(w); ok {
			w = file // straight to the disk; the error is returned, not lost
		}
		return nqueens.WriteBinary(e.ctx, w, p)
	}
	return nqueens.Write(e.ctx, w, f, n, cols)
}

// find runs algorithm a and returns the verified placement as a re-iterable stream. The
// construction is streamed twice (verify, then write) instead of being held in memory.
func find(e *env, n int, a nqueens.Algorithm, seed uint64, memLimit int64, progress func(nqueens.Progress)) (iter.Seq[int], nqueens.FindResult, error) {
	if a.Pick(n) == nqueens.Construct {
		cols, err := nqueens.Construction(e.ctx, n)
		if err != nil {
			return nil, nqueens.FindResult{}, err
		}
		return cols, nqueens.FindResult{N: n, Algorithm: nqueens.Construct, Status: nqueens.Complete}, nil
	}
	res, err := nqueens.Solve(e.ctx, n, nqueens.SolveOptions{Algorithm: a, Seed: seed, Progress: progress, MaxMemory: memLimit})
	if err != nil {
		return nil, res, err
	}
	return res.Placement.Columns(), res, nil
}

// isStdout says whether path is the command's standard output: a name of descriptor 1
// (/dev/stdout, /dev/fd/1, /proc/self/fd/1), or the file, device or pipe that stdout
// is open on (the same device and inode).
func isStdout(e *env, path string) bool {
	if path == "" {
		return false
	}
	if fd, ok := atomicfile.Descriptor(path); ok {
		return fd == 1
	}
	f, ok := osFile(e.stdout)
	if !ok {
		return false
	}
	a, err1 := os.Stat(path)
	b, err2 := f.Stat()
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// createOutput opens the output file path, checking that it can be written before any
// data are computed. A regular file (or a new one) is written whole or not at all, a
// link followed, a device or a FIFO written in place (unless regularOnly), a directory
// refused: see internal/atomicfile. A directory, or a device where a regular file is
// needed, is a usage error.
func createOutput(path string, regularOnly bool) (*atomicfile.File, error) {
	f, err := atomicfile.Create(path, regularOnly)
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
