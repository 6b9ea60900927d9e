// One worker of the listing: its search, and the formatting of the solutions it finds
// into byte chunks.

package enumerate

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
)

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
	if o.written != nil {
		o.written(o.sols)
	}
	return !o.full
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
	// limit is the listing's limit (0: none) and sols the solutions in the current
	// chunk: a chunk never holds more than the writer can take, so a small limit is
	// reached without filling 64 KiB of solutions first (list 32 --limit 1 took 15 s
	// for a solution found in 1).
	limit, sols uint64
}

func newLister(n int, lf *lineFmt, check func([]int32) bool, limit uint64, pool *sync.Pool, done <-chan struct{}, tl *tail) *lister {
	return &lister{n: n, full: uint64(1)<<uint(n) - 1, lf: lf, check: check, limit: limit, pool: pool, done: done,
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
	l.buf, l.pos, l.sols = l.pool.Get().(*[]byte), 0, 0
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
	l.sols++
	if p >= lineChunk || l.sols == l.limit {
		return l.flush()
	}
	return true
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

// search prints the solutions whose first rows are prefix (len(prefix) ≤ n−2) in
// lexicographic order: the bitboard search of the package comment, with the masks of the
// current row in locals and one stack frame per row below the prefix. From n = 8 on, the
// last five rows are not searched: once row n−6 is placed, the tail tables give their
// solutions at once (see tail).
//
// One function on purpose: the hot loop of the listing, its tail lookup inline (as a
// method, tailLeaf, BenchmarkWriteLines n=14 on one worker took 1.04 times as long).
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
