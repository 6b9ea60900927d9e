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
	out := &lineWriter{w: bw, limit: opt.Limit, nl: lf.nl, pool: pool}
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
		l := newLister(n, lf, opt.Check, pool, ctx.Done(), nil)
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
		l := newLister(n, lf, opt.Check, pool, ctx.Done(), tl)
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
		l := newLister(n, lf, opt.Check, pool, ictx.Done(), tl)
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
}

// put writes one chunk (whole solutions); it reports whether more are wanted.
func (o *lineWriter) put(b []byte) bool {
	if o.full || o.err != nil {
		return false
	}
	k := uint64(bytes.Count(b, nlByte)) / uint64(o.nl)
	if o.limit > 0 && o.sols+k >= o.limit {
		k = o.limit - o.sols
		b = b[:cutAfter(b, int(k)*o.nl)]
		o.full = true
	}
	_, err := o.w.Write(b)
	recycle(o.pool, b)
	if err != nil {
		o.err = err
		return false
	}
	o.sols += k
	return !o.full
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

// mirror holds the solutions of the left-half tasks for their mirror images: task i <
// tasks/2 fills stores[i]; task tasks−1−i prints it backwards, mirrored. The stores
// share a budget of bytes; a task whose store does not fit drops it and its mirror task
// searches.
type mirror struct {
	stores []mirrorStore // nil: no mirror
	tasks  int
	budget atomic.Int64 // bytes left
}

// mirrorStore holds the solutions of one task in order: the rows below the task's prefix,
// two columns a byte (low nibble first), in blocks of 1, 2, 4, … up to 64 KiB.
type mirrorStore struct {
	done   chan struct{} // closed when the left-half task has ended
	ok     bool          // blocks hold all the task's solutions (set before done closes)
	blocks [][]byte
	bytes  int64 // taken from the budget
}

// lister is one worker's search and formatting state.
type lister struct {
	n     int
	full  uint64
	lf    *lineFmt
	q     [MaxN]int32
	buf   *[]byte
	pos   int
	nodes uint64
	check func([]int32) bool
	bad   []int32
	out   func(b []byte) bool // hands a chunk to the writer; false: stop
	pool  *sync.Pool
	done  <-chan struct{}
	store *mirrorStore // the store being filled, or nil
	sb    []byte       // its current block, of which sn bytes are used
	sn    int
	skip  int // rows of the task's prefix, not stored
	mir   *mirror
	tail  *tail // shared, read only
}

func newLister(n int, lf *lineFmt, check func([]int32) bool, pool *sync.Pool, done <-chan struct{}, tl *tail) *lister {
	return &lister{n: n, full: uint64(1)<<uint(n) - 1, lf: lf, check: check, pool: pool, done: done,
		buf: pool.Get().(*[]byte), tail: tl}
}

func (l *lister) err() error {
	if l.bad != nil {
		return &CheckError{Q: l.bad}
	}
	return nil
}

// flush hands the current chunk to the writer, if it holds anything.
func (l *lister) flush() bool {
	if l.pos == 0 {
		return true
	}
	b := (*l.buf)[:l.pos]
	l.buf, l.pos = l.pool.Get().(*[]byte), 0
	return l.out(b)
}

// recycle returns a written chunk's buffer to the pool.
func recycle(pool *sync.Pool, b []byte) {
	b = b[:cap(b)]
	pool.Put(&b)
}

// put checks and prints one solution.
func (l *lister) put(q []int32) bool {
	if l.check != nil && !l.check(q) {
		l.bad = slices.Clone(q)
		return false
	}
	lf, b, p := l.lf, *l.buf, l.pos
	if lf.packed {
		p += copy(b[p:], lf.prefix)
		m := len(q) - 1
		for _, c := range q[:m] {
			binary.LittleEndian.PutUint64(b[p:], lf.tok8[c&(MaxN-1)])
			p += int(lf.tokLen[c&(MaxN-1)])
		}
		c := q[m] & (MaxN - 1)
		binary.LittleEndian.PutUint64(b[p:], lf.last8[c])
		p += int(lf.lastLen[c])
	} else {
		p += copy(b[p:], lf.prefix)
		m := len(q) - 1
		for _, c := range q[:m] {
			p += copy(b[p:], lf.tok[c])
		}
		p += copy(b[p:], lf.last[q[m]])
	}
	l.pos = p
	if l.store != nil {
		l.keep(q)
	}
	if p >= lineChunk {
		return l.flush()
	}
	return true
}

// keep appends q (the rows below the prefix) to the mirror store being filled, or drops
// the store when the budget is spent.
func (l *lister) keep(q []int32) {
	t := q[l.skip:]
	stride := (len(t) + 1) / 2
	if l.sn+stride > len(l.sb) && !l.newBlock(stride) {
		return
	}
	dst := l.sb[l.sn : l.sn+stride]
	for j := range len(t) / 2 {
		dst[j] = byte(t[2*j]) | byte(t[2*j+1])<<4
	}
	if len(t)%2 == 1 {
		dst[stride-1] = byte(t[len(t)-1])
	}
	l.sn += stride
}

// newBlock starts a new block of the store, twice the size of the last one (up to
// storeBlock), or drops the whole store if the budget cannot pay for it.
func (l *lister) newBlock(stride int) bool {
	s := l.store
	size := 1 << 10
	if l.sb != nil {
		s.blocks = append(s.blocks, l.sb[:l.sn])
		size = min(2*len(l.sb), storeBlock)
	}
	size = max(size/stride, 1) * stride
	if l.mir.budget.Add(-int64(size)) < 0 {
		l.mir.budget.Add(int64(size))
		l.dropStore()
		return false
	}
	s.bytes += int64(size)
	l.sb, l.sn = make([]byte, size), 0
	return true
}

// dropStore gives the store's memory back to the budget and stops filling it.
func (l *lister) dropStore() {
	s := l.store
	l.mir.budget.Add(s.bytes)
	s.blocks, s.bytes = nil, 0
	l.store, l.sb, l.sn = nil, nil, 0
}

// stopping polls the done channel.
func (l *lister) stopping() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// runTask prints the solutions of task i, whose first rows are prefix: from the mirror
// store of its partner when it holds them, else by searching (and filling the task's own
// store when it has one). It reports false when the listing must stop.
func (l *lister) runTask(prefix []int32, i int, mir *mirror) bool {
	if mir.stores == nil {
		return l.search(prefix)
	}
	half := mir.tasks / 2
	if i < half {
		s := &mir.stores[i]
		l.store, l.mir, l.skip = s, mir, len(prefix)
		ok := l.search(prefix)
		switch {
		case l.store == nil: // dropped
		case ok:
			if l.sb != nil {
				s.blocks = append(s.blocks, l.sb[:l.sn])
			}
			s.ok = true
			l.store, l.sb, l.sn = nil, nil, 0
		default:
			l.dropStore()
		}
		close(s.done)
		return ok
	}
	s := &mir.stores[mir.tasks-1-i]
	select {
	case <-s.done:
	case <-l.done:
		return false
	}
	if !s.ok {
		return l.search(prefix)
	}
	ok := l.putMirrored(s.blocks, prefix)
	mir.budget.Add(s.bytes)
	s.blocks, s.bytes = nil, 0
	return ok
}

// putMirrored prints the mirror images q → n−1−q of the stored solutions, last first (the
// mirror reverses the lexicographic order), below prefix, the mirror of the stored task's.
func (l *lister) putMirrored(blocks [][]byte, prefix []int32) bool {
	n := l.n
	m := int32(n - 1)
	q := l.q[:n]
	copy(q, prefix)
	t := q[len(prefix):]
	stride := (len(t) + 1) / 2
	for k := len(blocks) - 1; k >= 0; k-- {
		if l.stopping() {
			return false
		}
		blk := blocks[k]
		for off := len(blk) - stride; off >= 0; off -= stride {
			src := blk[off : off+stride]
			for j := range len(t) / 2 {
				t[2*j], t[2*j+1] = m-int32(src[j]&15), m-int32(src[j]>>4)
			}
			if len(t)%2 == 1 {
				t[len(t)-1] = m - int32(src[stride-1])
			}
			if !l.put(q) {
				return false
			}
		}
	}
	return true
}

// search prints the solutions whose first rows are prefix (len(prefix) ≤ n−2) in
// lexicographic order: the bitboard search of the package comment, with the masks of the
// current row in locals and one stack frame per row below the prefix. From n = 8 on, the
// last five rows are not searched: once row n−6 is placed, the tail tables give their
// solutions at once (see tail).
func (l *lister) search(prefix []int32) bool {
	n, full, tl := l.n, l.full, l.tail
	q := &l.q
	var cols, dl, dr uint64
	for r, c := range prefix {
		bit := uint64(1) << uint(c)
		q[r] = c
		cols, dl, dr = cols|bit, (dl|bit)<<1, (dr|bit)>>1
	}
	type frame struct{ f, cols, dl, dr uint64 }
	var stack [MaxN]frame
	base, last := len(prefix), n-1
	stop := -1 // the row after which the tail tables take over
	if n-tailRows-1 >= base {
		stop = n - tailRows - 1
	}
	d := base
	f := full &^ (cols | dl | dr)
	nodes := uint64(0)
	poll := uint64(pollMask)
	for {
		for f != 0 {
			bit := f & -f // lowest set bit: the leftmost untried column
			f ^= bit
			nodes++
			nc, nl, nr := cols|bit, (dl|bit)<<1, (dr|bit)>>1
			nf := full &^ (nc | nl | nr)
			if nf == 0 {
				continue // dead end: no need to enter the next row
			}
			q[d&(MaxN-1)] = int32(bits.TrailingZeros64(bit))
			if d == stop {
				// The tail: the columns c0 < … < c4 left, and for each the rows (bit j:
				// relative row j) in which a diagonal attacks it, read from the masks: dl
				// hits column c in row j if bit c−j of nl is set (bit 4−j of nl<<4>>c,
				// hence rev5), dr if bit c+j of nr is.
				r := full &^ nc
				c0 := bits.TrailingZeros64(r)
				r &= r - 1
				c1 := bits.TrailingZeros64(r)
				r &= r - 1
				c2 := bits.TrailingZeros64(r)
				r &= r - 1
				c3 := bits.TrailingZeros64(r)
				r &= r - 1
				c4 := bits.TrailingZeros64(r)
				nl4 := nl << 4
				g := min(c1-c0, tailRows) - 1 + tailRows*(min(c2-c1, tailRows)-1) +
					tailRows*tailRows*(min(c3-c2, tailRows)-1) + tailRows*tailRows*tailRows*(min(c4-c3, tailRows)-1)
				in, k0, k1 := &tl.inner[g&(len(tl.inner)-1)], &tl.col[0], &tl.col[1]
				k2, k3, k4 := &tl.col[2], &tl.col[3], &tl.col[4]
				b0 := uint64(tl.rev5[(nl4>>(c0&63))&31]) | (nr>>(c0&63))&31
				b1 := uint64(tl.rev5[(nl4>>(c1&63))&31]) | (nr>>(c1&63))&31
				b2 := uint64(tl.rev5[(nl4>>(c2&63))&31]) | (nr>>(c2&63))&31
				b3 := uint64(tl.rev5[(nl4>>(c3&63))&31]) | (nr>>(c3&63))&31
				b4 := uint64(tl.rev5[(nl4>>(c4&63))&31]) | (nr>>(c4&63))&31
				lo := in[0] & k0[b0][0] & k1[b1][0] & k2[b2][0] & k3[b3][0] & k4[b4][0]
				hi := in[1] & k0[b0][1] & k1[b1][1] & k2[b2][1] & k3[b3][1] & k4[b4][1]
				if lo|hi != 0 {
					cs := [tailRows]int32{int32(c0), int32(c1), int32(c2), int32(c3), int32(c4)}
					if !l.putTail(lo, hi, &cs) {
						l.nodes += nodes
						return false
					}
					nodes += tailRows * uint64(bits.OnesCount64(lo)+bits.OnesCount64(hi))
				}
				continue
			}
			if d+1 == last { // row n−1 has one free square at most
				nodes++
				q[last&(MaxN-1)] = int32(bits.TrailingZeros64(nf))
				if !l.put(q[:n]) {
					l.nodes += nodes
					return false
				}
				continue
			}
			stack[d&(MaxN-1)] = frame{f, cols, dl, dr}
			d++
			cols, dl, dr, f = nc, nl, nr, nf
		}
		if d == base {
			break
		}
		d--
		fr := &stack[d&(MaxN-1)]
		f, cols, dl, dr = fr.f, fr.cols, fr.dl, fr.dr
		if nodes >= poll {
			poll = nodes + pollMask
			if l.stopping() {
				l.nodes += nodes
				return false
			}
		}
	}
	l.nodes += nodes
	return true
}

// putTail prints the solutions that the tail permutations in lo (0..63) and hi (64..119)
// give to the last five rows, in that order: lexicographic.
func (l *lister) putTail(lo, hi uint64, cs *[tailRows]int32) bool {
	n := l.n
	q := l.q[:n]
	t := q[n-tailRows:]
	for w, m := range [2]uint64{lo, hi} {
		for ; m != 0; m &= m - 1 {
			pm := &l.tail.perm[(w*64+bits.TrailingZeros64(m))%tailPerms]
			for j := range t {
				t[j] = cs[pm[j]%tailRows]
			}
			if !l.put(q) {
				return false
			}
		}
	}
	return true
}

// tailRows is the number of last rows solved by tables, tailPerms the orders of their
// columns: 120, two words of bits.
const (
	tailRows  = 5
	tailPerms = 120
)

// tail holds the tables that solve the last five rows at once. With c0 < … < c4 the
// columns left, a permutation p puts column c_p[j] in relative row j; permutations are
// numbered in lexicographic order, which is the lexicographic order of the solutions
// they give. A permutation is a solution iff no queen is on a square attacked from above
// (col) and no two of the five attack each other (inner), so the solutions are the set
// bits of one AND of six 128-bit masks, with no branch per candidate.
type tail struct {
	perm [tailPerms][tailRows]uint8
	// col[i][b]: the permutations that put column c_i in a row not in b (bit j: relative
	// row j is attacked in column c_i).
	col [tailRows][1 << tailRows][2]uint64
	// inner[g]: the permutations with no diagonal attack among the five, for the gaps
	// between consecutive columns capped at 5 (a gap of 5 or more cannot be a diagonal
	// within five rows), g = Σ (min(c_{i+1}−c_i, 5) − 1)·5^i.
	inner [1024][2]uint64
	rev5  [1 << tailRows]uint8 // rev5[x]: the 5 bits of x in reverse order
}

func newTail() *tail {
	t := &tail{}
	k := 0
	var p [tailRows]uint8
	var gen func(j, used int)
	gen = func(j, used int) {
		if j == tailRows {
			t.perm[k] = p
			k++
			return
		}
		for i := range tailRows {
			if used&(1<<i) == 0 {
				p[j] = uint8(i)
				gen(j+1, used|1<<i)
			}
		}
	}
	gen(0, 0)
	for x := range t.rev5 {
		for j := range tailRows {
			t.rev5[x] |= uint8(x>>j&1) << (tailRows - 1 - j)
		}
	}
	// Two of the five attack each other iff their columns are as far apart as their rows.
	// Per pair of columns (10 pairs, 5 bits each), gaps[g] marks the column distance
	// (capped at 5) and rows[k] the row distance under permutation k: a permutation is
	// free of inner attacks iff the two masks share no bit.
	var gaps [1024]uint64
	for g := range pow(tailRows, tailRows-1) {
		var col [tailRows]int
		for i, x := 1, g; i < tailRows; i, x = i+1, x/tailRows {
			col[i] = col[i-1] + x%tailRows + 1
		}
		for i, pair := 1, 0; i < tailRows; i++ {
			for h := 0; h < i; h, pair = h+1, pair+1 {
				gaps[g] |= 1 << (tailRows*pair + min(col[i]-col[h], tailRows) - 1)
			}
		}
	}
	for k, p := range t.perm {
		w, bit := k/64, uint64(1)<<(k%64)
		var row [tailRows]int // row[i]: the relative row of column c_i
		for j, i := range p {
			row[i] = j
		}
		for i := range tailRows {
			for b := range 1 << tailRows {
				if b&(1<<row[i]) == 0 {
					t.col[i][b][w] |= bit
				}
			}
		}
		var rows uint64
		for i, pair := 1, 0; i < tailRows; i++ {
			for h := 0; h < i; h, pair = h+1, pair+1 {
				rows |= 1 << (tailRows*pair + max(row[i]-row[h], row[h]-row[i]) - 1)
			}
		}
		for g := range pow(tailRows, tailRows-1) {
			if gaps[g]&rows == 0 {
				t.inner[g][w] |= bit
			}
		}
	}
	return t
}

func pow(a, b int) int {
	r := 1
	for range b {
		r *= a
	}
	return r
}
