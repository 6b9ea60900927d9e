package qjoin

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// quadTable holds every partial placement of one quadrant: queens in some of
// its rows, at most one per row and column, none attacking another, none on
// a square the quadrant forbids. Entries are one word each (see geom.go),
// sorted by cell and flag, and indexed by key: the entries of key k are
// words[idx[k]:idx[k+1]].
//
// A cell is a row set and a column set of the same size (a placement fills
// as many columns as rows). Keys number the cells compactly: the cells of
// row set r are cell(r) = base[r] + rank[c] for the column sets c with
// |c| = |r|, rank being the colex rank of c among the sets of its size, and
// key = 2·cell + flag. That is C(rows+cols, rows) cells, a few megabytes at
// most, where a key of (rows, cols) bits would take tens.
type quadTable struct {
	qg    *quadGeom
	base  []uint32 // by row set
	rank  []uint32 // by column set
	idx   []uint32 // by key, plus the end
	words []uint64
}

// newQuadTable sets up the cell numbering of quadrant qg.
func newQuadTable(qg *quadGeom) quadTable {
	t := quadTable{qg: qg}
	t.rank = make([]uint32, 1<<uint(qg.cols))
	for k := 0; k <= qg.cols; k++ {
		var r uint32
		forCombs(uint32(qg.cols), k, func(c uint32) {
			t.rank[c] = r
			r++
		})
	}
	t.base = make([]uint32, 1<<uint(qg.rows)+1)
	for r := range 1 << uint(qg.rows) {
		t.base[r+1] = t.base[r] + uint32(combinations(qg.cols, bits.OnesCount32(uint32(r))))
	}
	return t
}

// cells is the number of cells.
func (t *quadTable) cells() int { return int(t.base[len(t.base)-1]) }

// key is the index key of the entries with local row set rows, column set
// cols (|cols| = |rows|) and flag f (0 or 1).
func (t *quadTable) key(rows, cols uint32, f int) int {
	return int(t.base[rows]+t.rank[cols])<<1 | f
}

// cell returns the entries with row set rows and column set cols, those with
// flag 0 first: both = words[lo:hi], flag 0 = words[lo:mid].
func (t *quadTable) cell(rows, cols uint32) (lo, mid, hi uint32) {
	k := t.key(rows, cols, 0)
	return t.idx[k], t.idx[k+1], t.idx[k+2]
}

// entryFlag is the flag of an entry word (0 in the restricted half).
func entryFlag(w uint64) int { return int((w>>flagN | w>>flagS) & 1) }

// walker enumerates the partial placements of a quadrant depth first, row
// by row, each row empty or holding a queen on a free allowed square. At
// each leaf it counts the key (counts) or stores the word (pos, words).
type walker struct {
	t      *quadTable
	full   uint32
	counts []uint32 // counting pass: entries per key
	pos    []uint32 // filling pass: next slot per key
	words  []uint64
	stop   func() bool
	leaves uint32
	halt   bool
}

// leaf records one placement.
func (w *walker) leaf(rows, cols uint32, word uint64) {
	k := w.t.key(rows, cols, entryFlag(word))
	if w.words == nil {
		w.counts[k]++
	} else {
		w.words[w.pos[k]] = word
		w.pos[k]++
	}
}

// rec places row i given the rows, columns, diagonal attacks and word of the
// rows before it. The last row is expanded in place.
func (w *walker) rec(i int, rows, cols, dl, dr uint32, word uint64) {
	qg := w.t.qg
	sq := qg.sq[i*qg.cols : (i+1)*qg.cols]
	free := ^(cols | dl | dr) & qg.allowed[i] & w.full
	if i == qg.rows-1 {
		w.leaf(rows, cols, word)
		for ; free != 0; free &= free - 1 {
			j := bits.TrailingZeros32(free)
			w.leaf(rows|1<<uint(i), cols|1<<uint(j), word|sq[j])
		}
		if w.leaves++; w.leaves&(1<<12-1) == 0 && w.stop != nil && w.stop() {
			w.halt = true
		}
		return
	}
	if w.halt {
		return
	}
	w.rec(i+1, rows, cols, dl<<1&w.full, dr>>1, word)
	for ; free != 0; free &= free - 1 {
		q := free & -free
		j := bits.TrailingZeros32(q)
		w.rec(i+1, rows|1<<uint(i), cols|q, (dl|q)<<1&w.full, (dr|q)>>1, word|sq[j])
	}
}

// walk runs w over the whole quadrant; false if stop said so.
func (w *walker) walk() bool {
	w.full = uint32(1)<<uint(w.t.qg.cols) - 1
	if w.t.qg.rows == 0 {
		w.leaf(0, 0, 0)
		return true
	}
	w.rec(0, 0, 0, 0, 0, 0)
	return !w.halt
}

// countCells sets t.idx to the start offsets of the keys (the counting
// pass). It returns false if stop said so.
func (t *quadTable) countCells(stop func() bool) bool {
	n := 2 * t.cells()
	counts := make([]uint32, n+1)
	w := walker{t: t, counts: counts[1:], stop: stop}
	if !w.walk() {
		return false
	}
	for k := 1; k <= n; k++ {
		counts[k] += counts[k-1]
	}
	t.idx = counts
	return true
}

// fill stores the entries in key order (the second pass); t.idx must be set.
// It returns false if stop said so.
func (t *quadTable) fill(stop func() bool) bool {
	n := len(t.idx) - 1
	// Padded: joinPairsAVX2 reads up to 3 words past the end of a cell.
	words := make([]uint64, t.idx[n], t.idx[n]+pairSlack)
	pos := make([]uint32, n)
	copy(pos, t.idx[:n])
	w := walker{t: t, pos: pos, words: words, stop: stop}
	if !w.walk() {
		return false
	}
	t.words = words
	return true
}

// sizes returns the number of entries of each cell, by cell number.
func (t *quadTable) sizes() []uint32 {
	s := make([]uint32, t.cells())
	for c := range s {
		s[c] = t.idx[2*c+2] - t.idx[2*c]
	}
	return s
}

// tables are the four quarter tables of a board, shared read-only by the
// workers once built.
type tables struct {
	g     *geom
	quads [4]quadTable
}

// newCellCounts runs the counting pass of the four quadrants; false if stop
// said so.
func newCellCounts(g *geom, stop func() bool) (*tables, bool) {
	t := &tables{g: g}
	for q := range t.quads {
		t.quads[q] = newQuadTable(&g.quads[q])
		if !t.quads[q].countCells(stop) {
			return nil, false
		}
	}
	return t, true
}

// newCellNumbers sets up the cell numbering of the four quadrants, without
// counting their entries.
func newCellNumbers(g *geom) *tables {
	t := &tables{g: g}
	for q := range t.quads {
		t.quads[q] = newQuadTable(&g.quads[q])
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
