package qjoin

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// quadTable holds every partial placement of one quadrant: queens in some of
// its rows, at most one per row and column, none attacking another, none on
// a square the quadrant forbids. Entries are one word each (see geom.go),
// sorted by key = (row set, column set, flag) and indexed by key:
// the entries of key k are words[idx[k]:idx[k+1]].
type quadTable struct {
	qg    *quadGeom
	idx   []uint32
	words []uint64
}

// key is the index key of the entries with local row set rows, column set
// cols and flag f (0 or 1).
func (t *quadTable) key(rows, cols uint32, f int) int {
	return (int(rows)<<uint(t.qg.cols)|int(cols))<<1 | f
}

// cell returns the entries with row set rows and column set cols, those with
// flag 0 first: both = words[lo:hi], flag 0 = words[lo:mid].
func (t *quadTable) cell(rows, cols uint32) (lo, mid, hi uint32) {
	k := t.key(rows, cols, 0)
	return t.idx[k], t.idx[k+1], t.idx[k+2]
}

// cellSize is the number of entries with row set rows and column set cols.
func (t *quadTable) cellSize(rows, cols uint32) uint64 {
	k := t.key(rows, cols, 0)
	return uint64(t.idx[k+2] - t.idx[k])
}

// entryFlag is the flag of an entry word: a for NW, d for SW, 0 in the East.
func entryFlag(w uint64) int { return int((w>>flagA | w>>flagD) & 1) }

// walk calls leaf for every partial placement of the quadrant, in a fixed
// order, with its row set, column set and word. It polls stop every few
// thousand placements and returns false if stop said so.
func (qg *quadGeom) walk(stop func() bool, leaf func(rows, cols uint32, w uint64)) bool {
	full := uint32(1)<<uint(qg.cols) - 1
	var polls uint32
	stopped := false
	var rec func(i int, rows, cols, dl, dr uint32, w uint64)
	rec = func(i int, rows, cols, dl, dr uint32, w uint64) {
		if i == qg.rows {
			leaf(rows, cols, w)
			if polls++; polls&(1<<14-1) == 0 && stop != nil && stop() {
				stopped = true
			}
			return
		}
		if stopped {
			return
		}
		// Row i empty.
		rec(i+1, rows, cols, dl<<1&full, dr>>1, w)
		sq := qg.sq[i*qg.cols : (i+1)*qg.cols]
		for free := ^(cols | dl | dr) & qg.allowed[i] & full; free != 0; free &= free - 1 {
			q := free & -free
			j := bits.TrailingZeros32(q)
			rec(i+1, rows|1<<uint(i), cols|q, (dl|q)<<1&full, (dr|q)>>1, w|sq[j])
		}
	}
	rec(0, 0, 0, 0, 0, 0)
	return !stopped
}

// countCells sets t.idx to the start offsets of the keys (the counting pass).
func (t *quadTable) countCells() {
	qg := t.qg
	n := 1 << uint(qg.rows+qg.cols+1)
	counts := make([]uint32, n+1)
	qg.walk(nil, func(rows, cols uint32, w uint64) {
		counts[t.key(rows, cols, entryFlag(w))+1]++
	})
	for k := 1; k <= n; k++ {
		counts[k] += counts[k-1]
	}
	t.idx = counts
}

// fill stores the entries in key order (the second pass); t.idx must be set.
// It returns false if stop said so.
func (t *quadTable) fill(stop func() bool) bool {
	n := len(t.idx) - 1
	words := make([]uint64, t.idx[n])
	pos := make([]uint32, n)
	copy(pos, t.idx[:n])
	ok := t.qg.walk(stop, func(rows, cols uint32, w uint64) {
		k := t.key(rows, cols, entryFlag(w))
		words[pos[k]] = w
		pos[k]++
	})
	if !ok {
		return false
	}
	t.words = words
	return true
}

// tables are the four quarter tables of a board, shared read-only by the
// workers once built.
type tables struct {
	g     *geom
	quads [4]quadTable
}

// newCellCounts runs the counting pass of the four quadrants.
func newCellCounts(g *geom) *tables {
	t := &tables{g: g}
	for q := range t.quads {
		t.quads[q].qg = &g.quads[q]
		t.quads[q].countCells()
	}
	return t
}

// build fills the four tables on up to workers goroutines, the largest
// quadrant first. It returns false if stop said so before the end.
func (t *tables) build(workers int, stop func() bool) bool {
	order := []int{qSE, qNE, qSW, qNW}
	var next atomic.Int32
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(max(workers, 1), len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(order) || failed.Load() {
					return
				}
				if !t.quads[order[k]].fill(stop) {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return !failed.Load()
}

// entries is the number of entries of the four tables.
func (t *tables) entries() uint64 {
	var e uint64
	for q := range t.quads {
		e += uint64(t.quads[q].idx[len(t.quads[q].idx)-1])
	}
	return e
}
