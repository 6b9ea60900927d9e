package nqueens

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/enumerate"
)

// listBuffer is the size of the output buffer of WriteSolutions: big writes, few system
// calls.
const listBuffer = 1 << 20

// WriteSolutions writes every solution of the n×n board (1 ≤ n ≤ MaxEnumerateN) to w in
// lexicographic order, in format f: Text (1-based columns, one solution per line), Board
// (drawings separated by blank lines) or JSON (one object per line). With opt.Unique it
// writes one solution per class of the 8 symmetries, the class's canonical form and size:
// "class_size=8" at the end of a text line, a "# class_size=8" comment line above a
// board, "class_size" in JSON. Memory is constant; every solution passes an independent check
// before it is written (a rejected one is an internal error naming the attacking pair).
// Without Unique the search and the formatting run on opt.Workers goroutines, the bytes
// the same for any number. On cancellation it returns the result so far with Status
// Interrupted and ctx.Err(); a write error stops it and is returned. opt.Progress hears
// how many solutions were written, as for Enumerate.
func WriteSolutions(ctx context.Context, w io.Writer, f Format, n int, opt EnumerateOptions) (res EnumerateResult, err error) {
	defer func() { res.Status = settle(res.Status, err) }()
	if n < 1 || n > enumerate.MaxN {
		return EnumerateResult{N: n}, &SizeError{N: n, Min: 1, Max: enumerate.MaxN, What: "enumeration"}
	}
	switch f {
	case Text, Board, JSON:
	default:
		return EnumerateResult{N: n}, fmt.Errorf("WriteSolutions writes text, board or json, not %q", f)
	}
	if opt.Unique {
		return writeGeneral(ctx, w, n, f, opt)
	}
	return writeFast(ctx, w, n, f, opt)
}

// writeGeneral lists through Enumerate, one call per solution: the path of Unique, and
// the reference the fast path is tested against.
func writeGeneral(ctx context.Context, out io.Writer, n int, f Format, opt EnumerateOptions) (EnumerateResult, error) {
	w := newListWriter(out, f, n, opt.Unique)
	var verr error
	res, err := Enumerate(ctx, n, opt, func(p Placement, size int) bool {
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

// writeFast lists every solution (not Unique) with enumerate.WriteLines, which searches
// and formats into large buffers on every worker, with the same bytes as writeGeneral.
// Each solution still passes smallChecker before it is written.
func writeFast(ctx context.Context, out io.Writer, n int, f Format, opt EnumerateOptions) (EnumerateResult, error) {
	check := newSmallChecker(n)
	rep := newReporter(opt.Progress)
	defer rep.Close()
	total := listTotal(n, opt)
	var written func(uint64)
	if rep != nil {
		written = func(k uint64) { rep.Report("list", k, total) }
	}
	st, err := enumerate.WriteLines(ctx, out, n, lineFormat(f, n), enumerate.LinesOptions{
		Workers: opt.Workers,
		Limit:   opt.Limit,
		Check:   func(q []int32) bool { return check.valid(Placement(q)) },
		Written: written,
	})
	rep.Report("list", st.Solutions, total)
	res := EnumerateResult{N: n, Listed: st.Solutions, Total: st.Total, Status: Complete,
		Stopped: opt.Limit > 0 && st.Solutions >= opt.Limit, Stats: Stats{Nodes: st.Nodes}}
	// On an error WriteSolutions settles the status from it.
	var ce *enumerate.CheckError
	switch {
	case errors.As(err, &ce):
		return res, invalidPlacement(Placement(ce.Q))
	case err != nil:
		return res, err
	case st.Solutions == 0:
		res.Status = NoSolution
	}
	return res, nil
}

// invalidPlacement is the error of a placement that the enumeration produced and the check
// rejected: a bug, named by Verify's attacking pair.
func invalidPlacement(p Placement) error {
	verr := Verify(p)
	if verr == nil {
		verr = fmt.Errorf("%v: the checks disagree", p)
	}
	return fmt.Errorf("internal error: the enumeration produced an invalid placement: %w", verr)
}

// lineFormat gives the bytes of listWriter without Unique as tokens for WriteLines.
func lineFormat(f Format, n int) enumerate.LineFormat {
	var lf enumerate.LineFormat
	if f == JSON {
		lf.Prefix = []byte(`{"n":` + strconv.Itoa(n) + `,"columns":[`)
	}
	for c := range n {
		col := strconv.Itoa(c + 1)
		switch f {
		case Board:
			row := []byte(strings.Repeat(". ", n))
			row[2*c], row[2*n-1] = 'Q', '\n'
			lf.Tok = append(lf.Tok, row)
			lf.Last = append(lf.Last, append(slices.Clone(row), '\n'))
		case JSON:
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
	f      Format
	unique bool
	n      int
	tok    [][]byte // tok[c]: 1-based column c+1 and a separator
	rows   [][]byte // board: rows[c] is the drawing of a row with its queen in column c
	prefix []byte   // json: {"n":N,"columns":[
	line   []byte
	check  smallChecker
	err    error
}

func newListWriter(out io.Writer, f Format, n int, unique bool) *listWriter {
	w := &listWriter{bw: bufio.NewWriterSize(out, listBuffer), f: f, unique: unique, n: n,
		check: newSmallChecker(n)}
	sep := byte(' ')
	if f == JSON {
		sep = ','
		w.prefix = []byte(`{"n":` + strconv.Itoa(n) + `,"columns":[`)
	}
	for c := range n {
		w.tok = append(w.tok, append(strconv.AppendInt(nil, int64(c)+1, 10), sep))
		if f == Board {
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
func (w *listWriter) write(p Placement, size int) bool {
	b := w.line[:0]
	switch w.f {
	case Board:
		if w.unique {
			b = append(b, "# class_size="...)
			b = strconv.AppendInt(b, int64(size), 10)
			b = append(b, '\n')
		}
		for _, c := range p {
			b = append(b, w.rows[c]...)
		}
		b = append(b, '\n')
	case JSON:
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
			b = append(b, "class_size="...)
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
func (s smallChecker) valid(p Placement) bool {
	n := s.n
	if len(p) != n {
		return false
	}
	if n > 32 {
		return Verify(p) == nil
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
