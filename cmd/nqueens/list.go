package main

import (
	"bufio"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/enumerate"
)

// listBuffer is the size of the output buffer of list: big writes, few system calls.
const listBuffer = 1 << 20

func newListCmd(e *env) *cobra.Command {
	var format string
	var asJSON, unique bool
	var limit uint64
	var workers int
	cmd := &cobra.Command{
		Use:   "list N",
		Short: "Print every solution of an N×N board, in lexicographic order",
		Long: `Print every solution of an N×N board (N ≤ 32) in lexicographic order, streamed
in constant memory: n=16 prints all 14,772,512 solutions without growing.
Every solution printed has passed an independent O(n) verification.

--unique prints one solution per class of the 8 symmetries of the square: the
class's canonical form (its lexicographically smallest image) and the class
size, "class=8" at the end of a text line, a "# class=8" comment line above a
board, "class_size" in JSON.

Formats: text (1-based columns, one solution per line), board (drawings
separated by blank lines), json (one object per line). A summary goes to
stderr. Exit status 1 when the board has no solution (n = 2, 3).`,
		Example: "  nqueens list 8\n  nqueens list 8 --unique --format board\n  nqueens list 16 --limit 10 --json",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseSize(args[0])
			if err != nil {
				return err
			}
			f, err := textFormat(format, asJSON, "list")
			if err != nil {
				return err
			}
			if n > nqueens.MaxEnumerateN {
				return usagef("list handles n ≤ %d (n = %d has too many solutions to print); use count", nqueens.MaxEnumerateN, n)
			}
			if workers, err = parseWorkers(workers); err != nil {
				return err
			}
			start := time.Now()
			list := listGeneral
			if !unique {
				list = listFast
			}
			res, err := list(e, n, f, nqueens.EnumerateOptions{Unique: unique, Limit: limit, Workers: workers})
			if err != nil {
				return err
			}
			if res.Status == nqueens.NoSolution {
				return fmt.Errorf("n = %d: %w", n, nqueens.ErrNoSolution)
			}
			what := fmt.Sprintf("solutions=%d", res.Listed)
			if unique {
				what = fmt.Sprintf("unique=%d total=%d", res.Listed, res.Total)
			}
			if res.Stopped {
				what += fmt.Sprintf(" limit=%d", limit)
			}
			fmt.Fprintf(e.stderr, "n=%d %s verified=true seconds=%.3f\n", n, what, time.Since(start).Seconds())
			return nil
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&unique, "unique", "u", false, "one canonical solution per symmetry class, with the class size")
	fl.Uint64VarP(&limit, "limit", "l", 0, "stop after `K` solutions (0: no limit)")
	fl.StringVarP(&format, "format", "f", "text", "output format: text, board or json")
	fl.BoolVar(&asJSON, "json", false, "same as --format json")
	fl.IntVarP(&workers, "workers", "w", 0, "goroutines searching ahead of the output (0: one per core)")
	return cmd
}

// listGeneral lists through nqueens.Enumerate, one call per solution: the path of
// --unique, and the reference the fast path is tested against.
func listGeneral(e *env, n int, f nqueens.Format, opt nqueens.EnumerateOptions) (nqueens.EnumerateResult, error) {
	w := newListWriter(e, f, n, opt.Unique)
	var verr error
	res, err := nqueens.Enumerate(e.ctx, n, opt, func(p nqueens.Placement, size int) bool {
		if !w.check.valid(p) {
			verr = invalidPlacement(p)
			return false
		}
		return w.write(p, size)
	})
	if ferr := w.bw.Flush(); ferr != nil && w.err == nil {
		w.err = ferr
	}
	switch {
	case verr != nil:
		return res, verr
	case w.err != nil:
		return res, w.err
	}
	return res, err
}

// listFast lists every solution (not --unique) with enumerate.WriteLines, which searches
// and formats into large buffers on every worker, with the same bytes as listGeneral. Each
// solution still passes smallChecker before it is printed.
func listFast(e *env, n int, f nqueens.Format, opt nqueens.EnumerateOptions) (nqueens.EnumerateResult, error) {
	check := newSmallChecker(n)
	st, err := enumerate.WriteLines(e.ctx, e.stdout, n, lineFormat(f, n), enumerate.LinesOptions{
		Workers: opt.Workers,
		Limit:   opt.Limit,
		Check:   func(q []int32) bool { return check.valid(nqueens.Placement(q)) },
	})
	res := nqueens.EnumerateResult{N: n, Listed: st.Solutions, Total: st.Total, Status: nqueens.Complete,
		Stopped: opt.Limit > 0 && st.Solutions >= opt.Limit, Stats: nqueens.Stats{Nodes: st.Nodes}}
	var ce *enumerate.CheckError
	switch {
	case errors.As(err, &ce):
		res.Status = nqueens.Failed
		return res, invalidPlacement(nqueens.Placement(ce.Q))
	case err != nil:
		res.Status = nqueens.Interrupted
		return res, err
	case st.Solutions == 0:
		res.Status = nqueens.NoSolution
	}
	return res, nil
}

// invalidPlacement is the error of a placement that the enumeration produced and the check
// rejected: a bug, named by Verify's attacking pair.
func invalidPlacement(p nqueens.Placement) error {
	verr := nqueens.Verify(p)
	if verr == nil {
		verr = fmt.Errorf("%v: the checks disagree", p)
	}
	return fmt.Errorf("internal error: the enumeration produced an invalid placement: %w", verr)
}

// lineFormat gives the bytes of listWriter without --unique as tokens for WriteLines.
func lineFormat(f nqueens.Format, n int) enumerate.LineFormat {
	var lf enumerate.LineFormat
	if f == nqueens.JSON {
		lf.Prefix = []byte(`{"n":` + strconv.Itoa(n) + `,"columns":[`)
	}
	for c := range n {
		col := strconv.Itoa(c + 1)
		switch f {
		case nqueens.Board:
			row := []byte(strings.Repeat(". ", n))
			row[2*c], row[2*n-1] = 'Q', '\n'
			lf.Tok = append(lf.Tok, row)
			lf.Last = append(lf.Last, append(slices.Clone(row), '\n'))
		case nqueens.JSON:
			lf.Tok = append(lf.Tok, []byte(col+","))
			lf.Last = append(lf.Last, []byte(col+"]}\n"))
		default:
			lf.Tok = append(lf.Tok, []byte(col+" "))
			lf.Last = append(lf.Last, []byte(col+"\n"))
		}
	}
	return lf
}

// listWriter formats solutions into a reused line with precomputed column tokens: the
// output, not the formatting, should be the cost of list.
type listWriter struct {
	bw     *bufio.Writer
	f      nqueens.Format
	unique bool
	n      int
	tok    [][]byte // tok[c]: 1-based column c+1 and a separator
	rows   [][]byte // board: rows[c] is the drawing of a row with its queen in column c
	prefix []byte   // json: {"n":N,"columns":[
	line   []byte
	check  smallChecker
	err    error
}

func newListWriter(e *env, f nqueens.Format, n int, unique bool) *listWriter {
	w := &listWriter{bw: bufio.NewWriterSize(e.stdout, listBuffer), f: f, unique: unique, n: n,
		check: newSmallChecker(n)}
	sep := byte(' ')
	if f == nqueens.JSON {
		sep = ','
		w.prefix = []byte(`{"n":` + strconv.Itoa(n) + `,"columns":[`)
	}
	for c := range n {
		w.tok = append(w.tok, append(strconv.AppendInt(nil, int64(c)+1, 10), sep))
		if f == nqueens.Board {
			row := make([]byte, 2*n)
			for i := range n {
				row[2*i], row[2*i+1] = '.', ' '
			}
			row[2*c], row[2*n-1] = 'Q', '\n'
			w.rows = append(w.rows, row)
		}
	}
	return w
}

// write prints one solution; it returns false after a write error (kept in w.err).
func (w *listWriter) write(p nqueens.Placement, size int) bool {
	b := w.line[:0]
	switch w.f {
	case nqueens.Board:
		if w.unique {
			b = append(b, "# class="...)
			b = strconv.AppendInt(b, int64(size), 10)
			b = append(b, '\n')
		}
		for _, c := range p {
			b = append(b, w.rows[c]...)
		}
		b = append(b, '\n')
	case nqueens.JSON:
		b = append(b, w.prefix...)
		for _, c := range p {
			b = append(b, w.tok[c]...)
		}
		b[len(b)-1] = ']'
		if w.unique {
			b = append(b, `,"class_size":`...)
			b = strconv.AppendInt(b, int64(size), 10)
		}
		b = append(b, "}\n"...)
	default:
		for _, c := range p {
			b = append(b, w.tok[c]...)
		}
		if w.unique {
			b = append(b, "class="...)
			b = strconv.AppendInt(b, int64(size), 10)
			b = append(b, ' ')
		}
		b[len(b)-1] = '\n'
	}
	w.line = b
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return false
	}
	return true
}

// smallChecker is Verify without allocations for boards of at most 32 rows, so that list
// can check every solution it prints at a fraction of the cost of formatting it. Like
// Verify it marks lines by index (column c, diagonal r−c+n−1, anti-diagonal r+c) rather
// than by the enumerator's shifted masks; when it rejects a placement, list calls Verify
// to name the attacking pair.
type smallChecker struct{ n int }

func newSmallChecker(n int) smallChecker { return smallChecker{n: n} }

// valid reports whether p is a solution of the n×n board: n columns on the board, and n
// distinct columns, diagonals and anti-diagonals, counted at the end rather than tested
// row by row (the indexes are below 64, so the shifts need no range checks).
func (s smallChecker) valid(p nqueens.Placement) bool {
	n := s.n
	if len(p) != n {
		return false
	}
	if n > 32 {
		return nqueens.Verify(p) == nil
	}
	var cols, dia, anti uint64
	for r, c := range p {
		if uint32(c) >= uint32(n) {
			return false
		}
		cols |= 1 << (uint(c) & 63)
		dia |= 1 << (uint(r-int(c)+n-1) & 63)
		anti |= 1 << (uint(r+int(c)) & 63)
	}
	return bits.OnesCount64(cols) == n && bits.OnesCount64(dia) == n && bits.OnesCount64(anti) == n
}
