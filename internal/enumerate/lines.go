package enumerate

// This file is the fast path of listing: WriteLines searches and prints every solution in
// lexicographic order straight into byte buffers, with no call per solution to the
// caller. See the package comment (Lines) for the design; bench/list.sh measures it.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/nqueens/nqueens/internal/pool"
)

// LineFormat says how WriteLines prints a solution q (0-based columns): Prefix, then
// Tok[q[r]] for every row r < n−1, then Last[q[n−1]]. Tok and Last have n entries each,
// and the number of newlines in a printed solution must not depend on q (it is how
// WriteLines finds where to cut the output at a limit).
type LineFormat struct {
	Prefix []byte
	Tok    [][]byte // Tok[c]: column c in a row other than the last, with its separator
	Last   [][]byte // Last[c]: column c in the last row, with the end of the solution
}

// LinesOptions configures WriteLines. The zero value writes every solution with one
// goroutine and the default mirror memory.
type LinesOptions struct {
	Workers int    // goroutines searching (0: one per CPU); the output does not depend on it
	Limit   uint64 // stop after this many solutions; 0 means no limit
	// Check, when set, is called with every solution before it is printed; false stops
	// WriteLines with a *CheckError. It may be called from several goroutines at once.
	Check func(q []int32) bool
	// Written, when set, is called with the number of solutions written so far after each
	// chunk of output is handed to the writer, always from the caller's goroutine.
	Written func(solutions uint64)
	// MirrorBytes bounds the memory that keeps solutions of the left half of the board
	// for their mirror images (see the package comment), for n ≤ 16: 0 means
	// DefaultMirrorBytes, a negative value turns the mirror off.
	MirrorBytes int
}

// DefaultMirrorBytes is the default of LinesOptions.MirrorBytes: enough for the whole
// left half up to n = 14 (1.1 MB) and most of it at n = 15 (6.8 MB), a sixth at n = 16.
const DefaultMirrorBytes = 8 << 20

// CheckError is the error of WriteLines when LinesOptions.Check rejects a solution.
type CheckError struct{ Q []int32 }

func (e *CheckError) Error() string {
	return fmt.Sprintf("the enumeration produced %v, which the check rejects", e.Q)
}

const (
	lineChunk    = 64 << 10 // bytes of output per chunk handed to the writer
	lineChanSize = 8        // chunks buffered per task: a task of n ≤ 14 fits whole
	storeBlock   = 64 << 10 // bytes of the biggest blocks of a mirror store (the first is 1 KiB)
	mirrorMaxN   = 16       // the mirror stores a column in 4 bits
)

// lineFmt is a LineFormat compiled for the inner loop: when every token fits in 8 bytes,
// a token is one unaligned 8-byte store and an add (packed).
type lineFmt struct {
	prefix          []byte
	tok, last       [][]byte
	packed          bool
	tok8, last8     [MaxN]uint64
	tokLen, lastLen [MaxN]uint8
	maxSol          int // bytes of the longest solution
	nl              int // newlines per solution
}

func compileFormat(n int, f LineFormat) (*lineFmt, error) {
	if len(f.Tok) != n || len(f.Last) != n {
		return nil, fmt.Errorf("line format: %d and %d tokens for n = %d", len(f.Tok), len(f.Last), n)
	}
	lf := &lineFmt{prefix: f.Prefix, tok: f.Tok, last: f.Last, packed: true}
	nlTok, nlLast := bytes.Count(f.Tok[0], []byte{'\n'}), bytes.Count(f.Last[0], []byte{'\n'})
	maxTok, maxLast := 0, 0
	for c := range n {
		t, l := f.Tok[c], f.Last[c]
		if bytes.Count(t, []byte{'\n'}) != nlTok || bytes.Count(l, []byte{'\n'}) != nlLast {
			return nil, fmt.Errorf("line format: the tokens of columns 0 and %d have different numbers of newlines", c)
		}
		maxTok, maxLast = max(maxTok, len(t)), max(maxLast, len(l))
		if len(t) > 8 || len(l) > 8 {
			lf.packed = false
			continue
		}
		var w [8]byte
		copy(w[:], t)
		lf.tok8[c], lf.tokLen[c] = binary.LittleEndian.Uint64(w[:]), uint8(len(t))
		w = [8]byte{}
		copy(w[:], l)
		lf.last8[c], lf.lastLen[c] = binary.LittleEndian.Uint64(w[:]), uint8(len(l))
	}
	lf.nl = bytes.Count(f.Prefix, []byte{'\n'}) + (n-1)*nlTok + nlLast
	if lf.nl == 0 {
		return nil, fmt.Errorf("line format: a solution must end with a newline")
	}
	lf.maxSol = len(f.Prefix) + (n-1)*maxTok + maxLast
	return lf, nil
}

// WriteLines writes every solution of the n×n board to w in lexicographic order, each as
// format says, the same bytes for any number of workers. It stops after opt.Limit
// solutions, at the first write error, or when ctx is cancelled (returning ctx.Err()).
// Stats.Nodes counts the squares tried by the searches, which the mirror images skip.
func WriteLines(ctx context.Context, w io.Writer, n int, format LineFormat, opt LinesOptions) (Stats, error) {
	if n < 1 || n > MaxN {
		return Stats{}, fmt.Errorf("enumeration handles n from 1 to %d, not %d", MaxN, n)
	}
	lf, err := compileFormat(n, format)
	if err != nil {
		return Stats{}, err
	}
	opt.Workers = pool.Default(opt.Workers)
	bw := bufio.NewWriterSize(w, lineChunk)
	pool := &sync.Pool{New: func() any {
		b := make([]byte, lineChunk+lf.maxSol+8) // 8: room for the last 8-byte store
		return &b
	}}
	out := &lineWriter{w: bw, limit: opt.Limit, nl: lf.nl, pool: pool, written: opt.Written}
	st, err := writeLines(ctx, n, lf, opt, out, pool)
	if ferr := bw.Flush(); ferr != nil && out.err == nil {
		out.err = ferr
	}
	st.Solutions, st.Total = out.sols, out.sols
	if err == nil {
		err = out.err
	}
	return st, err
}

func writeLines(ctx context.Context, n int, lf *lineFmt, opt LinesOptions, out *lineWriter, pool *sync.Pool) (Stats, error) {
	if n < 4 { // one solution (n = 1) or none: no row-prefix tasks
		l := newLister(n, lf, opt.Check, opt.Limit, pool, ctx.Done(), nil)
		l.out = out.put
		if n > 1 {
			return Stats{}, nil
		}
		if l.put(l.q[:1]) {
			l.flush()
		}
		return Stats{Nodes: 1}, l.err()
	}
	tasks := prefixes(n, taskRows(n))
	budget := int64(opt.MirrorBytes)
	if budget == 0 {
		budget = DefaultMirrorBytes
	}
	var stores []mirrorStore
	if budget > 0 && n <= mirrorMaxN {
		stores = make([]mirrorStore, len(tasks)/2)
		for i := range stores {
			stores[i].done = make(chan struct{})
		}
	}
	mir := &mirror{stores: stores, tasks: len(tasks)}
	mir.budget.Store(budget)
	tl := newTail()
	if opt.Workers <= 1 {
		l := newLister(n, lf, opt.Check, opt.Limit, pool, ctx.Done(), tl)
		l.out = out.put
		complete := true
		for i := range tasks {
			if !l.runTask(tasks[i], i, mir) {
				complete = false
				break
			}
		}
		l.flush()
		st := Stats{Nodes: l.nodes}
		if err := l.err(); err != nil {
			return st, err
		}
		if complete || out.stopped() {
			return st, nil
		}
		return st, ctx.Err()
	}
	return writeParallel(ctx, n, lf, opt, out, tasks, mir, pool, tl)
}

// writeParallel runs the tasks on opt.Workers goroutines (runOrdered): the caller's
// goroutine writes their chunks in task order, so the bytes are the sequential ones, and
// each task channel holds lineChanSize chunks: memory stays bounded whatever n.
func writeParallel(ctx context.Context, n int, lf *lineFmt, opt LinesOptions, out *lineWriter,
	tasks [][]int32, mir *mirror, pool *sync.Pool, tl *tail) (Stats, error) {
	var (
		nodes   atomic.Uint64
		errOnce sync.Once
		werr    error // the first worker error (a rejected solution)
	)
	newRun := func(ictx context.Context) func(int, func([]byte) bool) bool {
		l := newLister(n, lf, opt.Check, opt.Limit, pool, ictx.Done(), tl)
		return func(i int, send func([]byte) bool) bool {
			before := l.nodes
			defer func() { nodes.Add(l.nodes - before) }()
			l.out = send
			if !l.runTask(tasks[i], i, mir) || !l.flush() {
				if err := l.err(); err != nil {
					errOnce.Do(func() { werr = err })
				}
				return false
			}
			return true
		}
	}
	complete := runOrdered(ctx, opt.Workers, len(tasks), lineChanSize, newRun, out.put)
	st := Stats{Nodes: nodes.Load()}
	switch {
	case werr != nil:
		return st, werr
	case complete || out.stopped():
		return st, nil
	}
	return st, ctx.Err()
}

// lineWriter is the single writer of WriteLines: it writes chunks in order and cuts the
// output at the limit.
type lineWriter struct {
	w     *bufio.Writer
	limit uint64
	nl    int // newlines per solution
	sols  uint64
	full  bool // the limit is reached
	err   error
	pool  *sync.Pool
	// written, if set, hears the solutions written after each chunk.
	written func(uint64)
}

// stopped reports whether the writer ended the listing: limit reached or write error.
func (o *lineWriter) stopped() bool { return o.full || o.err != nil }

var nlByte = []byte{'\n'}

// cutAfter returns the length of the prefix of b holding its first k newlines.
func cutAfter(b []byte, k int) int {
	p := 0
	for range k {
		p += bytes.IndexByte(b[p:], '\n') + 1
	}
	return p
}

// taskRows is the number of rows fixed by a task: about 150 tasks at n = 14 (80 KB of
// text each), 1,300 at n = 16 (450 KB each).
func taskRows(n int) int {
	if n < 15 {
		return 2
	}
	return 3
}

// prefixes lists the valid placements of the first k rows (k ≤ n−2) in lexicographic
// order. The mirror image of prefix i is prefix len−1−i: the mirror q → n−1−q maps valid
// prefixes to valid prefixes and reverses the lexicographic order.
func prefixes(n, k int) [][]int32 {
	var out [][]int32
	full := uint64(1)<<uint(n) - 1
	p := make([]int32, k)
	var rec func(r int, cols, dl, dr uint64)
	rec = func(r int, cols, dl, dr uint64) {
		if r == k {
			out = append(out, slices.Clone(p))
			return
		}
		for f := full &^ (cols | dl | dr); f != 0; f &= f - 1 {
			bit := f & -f
			p[r] = int32(bits.TrailingZeros64(bit))
			rec(r+1, cols|bit, (dl|bit)<<1, (dr|bit)>>1)
		}
	}
	rec(0, 0, 0, 0)
	return out
}
