package complete

import (
	"context"
	"errors"
	"math"
	"math/bits"
)

// MaxN is the largest board of the propagation search.
const MaxN = 1 << 20

// MemoryNeed bounds the bytes the propagation search of an n×n board takes at its peak:
// along a path every square is cleared at most once, so the trail holds at most n²
// words of 8 bytes, and the slice doubles as it grows (the old and the new backing
// array live together while it is copied); the domains add n²/8. Measured peaks: 22·n²
// at n = 4000 and 8000, 9·n² at n = 20000.
func MemoryNeed(n int) int64 {
	nn := int64(n) * int64(n)
	return 24*nn + nn/8 + 64*int64(n)
}

// placedBit marks a trail entry that records a placement rather than a cleared square.
const placedBit = 1 << 63

// pollMask sets how often the context is polled: every pollMask+1 nodes.
const pollMask = 1<<10 - 1

// errLimit is returned by a search that used up its node budget.
var errLimit = errors.New("node budget used up")

// errOverflow is returned by a count that does not fit in a uint64.
var errOverflow = errors.New("the number of completions overflows 64 bits")

// prop is the state of the propagation search (see the package comment).
type prop struct {
	n, w   int
	dom    []uint64
	sz     []int32
	cnt    []int32
	q      []int32
	fr, fc []int32 // free rows, free columns (sparse sets)
	rp, cp []int32 // position of each row in fr, of each column in fc
	nr, nc int
	trail  []uint64 // cleared squares r·n + c, and placed rows r | placedBit, in order
	rows   [][]int32

	nodes, limit uint64
	ctx          context.Context
	done         <-chan struct{}
	counting     bool
	count        uint64
	// The progress of a count (Count): the choices on the current path (branch), and for
	// the first progressLevels of them the option being explored and the options in all;
	// the nodes at the last report, and the nodes between reports of the deeper branches
	// (reportNodes; a test sets fewer).
	progress             func(done, total uint64)
	branch               int
	branchPos, branchLen [progressLevels]int
	reported             uint64
	reportNodes          uint64
	rnd                  uint64 // xorshift state for the value order; 0 keeps the natural order
}

// newProp sets up the search for the partial placement fixed (−1 for a free row). It
// returns false when the fixed queens attack each other or leave some row or column
// without an option.
func newProp(ctx context.Context, fixed []int32) (*prop, bool) {
	n := len(fixed)
	w := (n + 63) / 64
	s := &prop{n: n, w: w, dom: make([]uint64, n*w), sz: make([]int32, n), cnt: make([]int32, n),
		q: make([]int32, n), fr: make([]int32, n), fc: make([]int32, n), rp: make([]int32, n), cp: make([]int32, n),
		nr: n, nc: n, ctx: ctx, done: ctx.Done(), rows: make([][]int32, n+1), reportNodes: reportNodes}
	for i := range n {
		s.fr[i], s.rp[i], s.fc[i], s.cp[i] = int32(i), int32(i), int32(i), int32(i)
		for c := range n {
			s.dom[i*w+c>>6] |= 1 << uint(c&63)
		}
		s.sz[i], s.cnt[i], s.q[i] = int32(n), int32(n), -1
	}
	for r, c := range fixed {
		if c < 0 {
			continue
		}
		if !s.has(r, int(c)) || !s.assign(r, int(c)) {
			return s, false
		}
	}
	s.trail = s.trail[:0] // the fixed queens are never undone
	return s, true
}

func (s *prop) has(r, c int) bool { return s.dom[r*s.w+c>>6]&(1<<uint(c&63)) != 0 }

func (s *prop) colFree(c int) bool { return int(s.cp[c]) < s.nc }

// assign places a queen on (r, c), r and c free and c in r's domain. It reports false at a
// dead end; undo restores the state either way.
func (s *prop) assign(r, c int) bool {
	n, w := s.n, s.w
	// Take r out of the free rows and c out of the free columns.
	s.nr--
	last := s.fr[s.nr]
	s.fr[s.rp[r]], s.rp[last] = last, s.rp[r]
	s.fr[s.nr], s.rp[r] = int32(r), int32(s.nr)
	s.nc--
	lastc := s.fc[s.nc]
	s.fc[s.cp[c]], s.cp[lastc] = lastc, s.cp[c]
	s.fc[s.nc], s.cp[c] = int32(c), int32(s.nc)
	s.q[r] = int32(c)
	s.trail = append(s.trail, placedBit|uint64(r))
	ok := true
	// Row r no longer supports the columns of its domain (undo adds them back).
	for k, x := range s.dom[r*w : (r+1)*w] {
		for x != 0 {
			cc := k<<6 + bits.TrailingZeros64(x)
			x &= x - 1
			if s.cnt[cc]--; s.cnt[cc] == 0 && cc != c {
				ok = false
			}
		}
	}
	if !ok {
		return false
	}
	// Clear the squares the new queen attacks in the free rows.
	for _, r2 := range s.fr[:s.nr] {
		rr := int(r2)
		d := rr - r
		if d < 0 {
			d = -d
		}
		if !s.clear(rr, c) || (c-d >= 0 && !s.clear(rr, c-d)) || (c+d < n && !s.clear(rr, c+d)) {
			return false
		}
	}
	return true
}

// clear removes square (r, c) from free row r's domain if it is there. It reports false
// when that empties the row or takes the last support of a free column.
func (s *prop) clear(r, c int) bool {
	i, b := r*s.w+c>>6, uint64(1)<<uint(c&63)
	if s.dom[i]&b == 0 {
		return true
	}
	s.dom[i] &^= b
	s.sz[r]--
	s.cnt[c]--
	s.trail = append(s.trail, uint64(r)*uint64(s.n)+uint64(c))
	return s.sz[r] > 0 && (s.cnt[c] > 0 || !s.colFree(c))
}

// undo restores the state to trail length t, in the reverse order of the changes.
func (s *prop) undo(t int) {
	n, w := uint64(s.n), s.w
	for i := len(s.trail) - 1; i >= t; i-- {
		e := s.trail[i]
		if e&placedBit == 0 {
			r, c := int(e/n), int(e%n)
			s.dom[r*w+c>>6] |= 1 << uint(c&63)
			s.sz[r]++
			s.cnt[c]++
			continue
		}
		r := int(e &^ placedBit)
		for k, x := range s.dom[r*w : (r+1)*w] {
			for x != 0 {
				s.cnt[k<<6+bits.TrailingZeros64(x)]++
				x &= x - 1
			}
		}
		s.q[r] = -1
		s.nr++ // free rows and columns come back in LIFO order: their slots are intact
		s.nc++
	}
	s.trail = s.trail[:t]
}

// choose returns the most constrained free variable: a row (isRow) with the smallest
// domain or a column with the fewest supporting rows, and that number of options.
func (s *prop) choose() (v int, isRow bool, size int32) {
	size = 1<<31 - 1
	for _, r := range s.fr[:s.nr] {
		if z := s.sz[r]; z < size {
			v, isRow, size = int(r), true, z
			if z <= 1 {
				return
			}
		}
	}
	for _, c := range s.fc[:s.nc] {
		if z := s.cnt[c]; z < size {
			v, isRow, size = int(c), false, z
			if z <= 1 {
				return
			}
		}
	}
	return
}

// options lists the squares of variable v: the columns of row v or the rows of column v.
func (s *prop) options(v int, isRow bool, buf []int32) []int32 {
	buf = buf[:0]
	if isRow {
		for k, x := range s.dom[v*s.w : (v+1)*s.w] {
			for x != 0 {
				buf = append(buf, int32(k<<6+bits.TrailingZeros64(x)))
				x &= x - 1
			}
		}
	} else {
		for _, r := range s.fr[:s.nr] {
			if s.has(int(r), v) {
				buf = append(buf, r)
			}
		}
	}
	if s.rnd != 0 {
		for i := len(buf) - 1; i > 0; i-- {
			s.rnd ^= s.rnd << 13
			s.rnd ^= s.rnd >> 7
			s.rnd ^= s.rnd << 17
			j := int(s.rnd % uint64(i+1))
			buf[i], buf[j] = buf[j], buf[i]
		}
	}
	return buf
}

// search explores the subtree of the current state. In finding mode it returns true with
// the solution in s.q; in counting mode it adds the completions to s.count. It returns an
// error on cancellation, overflow or when the node budget is used up.
func (s *prop) search(depth int) (bool, error) {
	s.nodes++
	if s.nodes&pollMask == 0 {
		select {
		case <-s.done:
			return false, s.ctx.Err()
		default:
		}
	}
	if s.limit > 0 && s.nodes > s.limit {
		return false, errLimit
	}
	t0 := len(s.trail)
	// Unit propagation: place forced queens until a choice or a dead end.
	for {
		if s.nr == 0 {
			if !s.counting {
				return true, nil
			}
			s.count++
			if s.count == 0 {
				return false, errOverflow
			}
			s.undo(t0)
			return false, nil
		}
		v, isRow, size := s.choose()
		if size == 0 {
			s.undo(t0)
			return false, nil
		}
		opts := s.options(v, isRow, s.rows[depth])
		s.rows[depth] = opts
		if size == 1 {
			r, c := v, int(opts[0])
			if !isRow {
				r, c = c, v
			}
			if !s.assign(r, c) {
				s.undo(t0)
				return false, nil
			}
			continue
		}
		level := s.branch
		s.branch++
		for i := range opts {
			r, c := v, int(s.rows[depth][i])
			if !isRow {
				r, c = c, v
			}
			t := len(s.trail)
			if level < progressLevels {
				s.branchPos[level], s.branchLen[level] = i, len(opts)
			}
			if s.assign(r, c) {
				found, err := s.search(depth + 1)
				if found || err != nil {
					return found, err
				}
			}
			s.undo(t)
			if level < progressLevels && s.progress != nil && (level < 2 || s.nodes-s.reported >= s.reportNodes) {
				s.report(level)
			}
		}
		s.branch--
		s.undo(t0)
		return false, nil
	}
}

// The progress of Count: treeUnits is the units of a branch of the first choice. A
// branch of any of the first progressLevels choices on the path is reported when it is
// finished, those of the first two always, the deeper ones when reportNodes nodes have
// passed since the last report: on large boards a branch of the second choice alone can
// take hours (n = 20, one queen fixed), and the share of the tree done must still move.
const (
	treeUnits      = 1 << 20
	progressLevels = 16
	reportNodes    = 1 << 12 // about a millisecond of search; the default of prop.reportNodes
)

// report tells the progress of a count after a branch of the choice at level (0: the
// first choice of the search) is finished: the share of the tree done, taking the
// branches of each choice on the path as equal parts of their parent's.
func (s *prop) report(level int) {
	s.reported = s.nodes
	frac, part := 0.0, 1.0
	for l := 0; l <= level; l++ {
		part /= float64(s.branchLen[l])
		pos := s.branchPos[l]
		if l == level {
			pos++ // this branch is finished
		}
		frac += float64(pos) * part
	}
	total := uint64(s.branchLen[0]) * treeUnits
	s.progress(min(uint64(math.Round(frac*float64(total))), total), total) // rounded: equal shares stay equal
}
