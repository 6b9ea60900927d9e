package qjoin

import "math/bits"

// Slices: the entries of one row set of a quadrant, built when a row set
// needs them instead of the whole quarter tables up front.
//
// A row set R = (rn, rs) uses NE(rn, ·) and SE(rs, ·) for its East half and
// NW(~rn, ·) and SW(~rs, ·) for its West half, a tiny part of the tables
// (about 0.1% at n = 21). Past tablesMaxN the tables would not fit in
// memory (1.4 GB at n = 22, 550 GB at n = 27), so each worker builds the
// four slices of its row set by a search restricted to the rows of the
// set, and keeps them while the next row set shares its North or South
// part (row sets come in colex order, so that the South part changes
// slowest).

// cellView is the entries of one row set of a quadrant, by column set and
// flag: the entries of column set C with flag f are
// words[idx[2·rank[C]+f] : idx[2·rank[C]+f+1]].
type cellView struct {
	idx   []uint32
	words []uint64
	rank  []uint32
}

// cell returns the entries of column set C, those with flag 0 first: both
// = words[lo:hi], flag 0 = words[lo:mid].
func (v *cellView) cell(C uint32) (lo, mid, hi uint32) {
	k := 2 * v.rank[C]
	return v.idx[k], v.idx[k+1], v.idx[k+2]
}

// view is the cellView of row set rows of a built table.
func (t *quadTable) view(rows uint32) cellView {
	return cellView{idx: t.idx[2*t.base[rows] : 2*t.base[rows+1]+1], words: t.words, rank: t.rank}
}

// slicer builds and holds the slice of one row set of a quadrant.
type slicer struct {
	qg   *quadGeom
	rank []uint32 // colex rank of the column sets, shared
	rows uint32   // the row set held
	held bool

	idx   []uint32
	words []uint64
	pos   []uint32 // the fill cursor of each key
	fill  bool     // the search fills words (else it counts)
	// The counting search also keeps its first collectMax entries and
	// their keys (collect), so that a slice of at most that many is filled
	// from them instead of by a second search; more overflow and are
	// searched again.
	collect bool
	got     *collected
	list    [32]int // the rows of the set, in order
	full    uint32

	// countOnly: the slices hold the number of entries of each key and no
	// entries (words is nil): what a plan's sampled costs read.
	countOnly bool
	// exact: each slice takes 8 bytes per entry and no more, in memory of
	// its own, the previous row set's let go (else the words grow by a
	// quarter and keep the largest capacity yet): for shared row sets,
	// which take minutes each, so that a shard's memory is that of its row
	// set, not of the largest slices of each quadrant among its row sets.
	exact bool
}

func newSlicer(qg *quadGeom, rank []uint32) *slicer {
	return &slicer{qg: qg, rank: rank, full: uint32(1)<<uint(qg.cols) - 1}
}

// newSlicers returns a slicer for each quadrant of g (see slicer's
// countOnly and exact).
func newSlicers(g *geom, t *tables, countOnly, exact bool) *[4]*slicer {
	var sl [4]*slicer
	got := &collected{max: collectMax}
	for q := range sl {
		sl[q] = newSlicer(&g.quads[q], t.quads[q].rank)
		sl[q].countOnly, sl[q].exact, sl[q].got = countOnly, exact, got
	}
	return &sl
}

// get returns the slice of row set rows, building it unless it is held.
func (s *slicer) get(rows uint32) cellView {
	if !s.held || s.rows != rows {
		s.build(rows)
		s.rows, s.held = rows, true
	}
	return cellView{idx: s.idx, words: s.words, rank: s.rank}
}

// build lists the placements of the quadrant with a queen in each row of
// rows and none elsewhere, sorted by column set and flag: a search that
// counts the entries of each key, then the same search storing them, so
// that the slice takes its 8 bytes per entry and no more.
func (s *slicer) build(rows uint32) {
	qg := s.qg
	k := bits.OnesCount32(rows)
	m := 0
	for r := rows; r != 0; r &= r - 1 {
		s.list[m] = bits.TrailingZeros32(r)
		m++
	}
	nk := 2 * int(combinations(qg.cols, k)) // keys
	if cap(s.idx) < nk+1 {
		s.idx = make([]uint32, nk+1, 2*nk+2)
		s.pos = make([]uint32, nk, 2*nk+2)
	}
	idx, pos := s.idx[:nk+1], s.pos[:nk]
	clear(idx)
	s.idx, s.pos = idx, pos
	s.fill = false
	s.collect = !s.countOnly && !s.exact
	if s.collect && s.got == nil {
		s.got = &collected{max: collectMax}
	}
	if s.collect {
		s.got.n = 0
	}
	s.search(m)
	for i := 1; i <= nk; i++ {
		idx[i] += idx[i-1]
	}
	if s.countOnly {
		s.words = nil
		return
	}
	n := int(idx[nk])
	if s.exact {
		s.words = nil // let the previous row set's entries go first
		s.words = make([]uint64, n+pairSlack)
	} else if cap(s.words) < n+pairSlack {
		s.words = make([]uint64, n+pairSlack, n+n/4+pairSlack)
	}
	s.words = s.words[:n+pairSlack]
	copy(pos, idx[:nk])
	if s.collect && s.got.n <= len(s.got.words) {
		words, keys := s.words, s.got.keys
		for i, w := range s.got.words[:s.got.n] {
			k := keys[i]
			words[pos[k]] = w
			pos[k]++
		}
	} else {
		s.fill = true
		s.search(m)
	}
	s.words = s.words[:n]
}

// collectMax is the most entries a slicer keeps from its counting search
// (12 bytes each: 3 MB): every slice up to n = 22, most at 23 (a search
// costs more than the scatter of its entries: a shard of n = 22 spent a
// tenth of its time in the two searches).
const collectMax = 1 << 18

// search runs the search over the m rows of s.list.
func (s *slicer) search(m int) {
	if m == 0 {
		s.leaf(0, 0)
		return
	}
	s.rec(0, m, 0, 0, 0, 0)
}

// leaf counts or stores one placement.
func (s *slicer) leaf(cols uint32, w uint64) {
	key := 2*s.rank[cols] + uint32(entryFlag(w))
	switch {
	case s.fill:
		s.words[s.pos[key]] = w
		s.pos[key]++
		return
	case s.collect:
		g := s.got
		if g.n < len(g.words) {
			g.words[g.n], g.keys[g.n] = w, key
		} else {
			g.grow(w, key)
		}
		g.n++
	}
	s.idx[key+1]++
}

// collected is the entries a counting search keeps, and their keys: the
// first n, or as many as the room (grown up to collectMax) when n is
// more. The four slicers of a worker share it, as they build one at a
// time.
type collected struct {
	words []uint64
	keys  []uint32
	n     int
	max   int // collectMax (the tests set less)
}

// grow keeps entry n, w with its key, if there is room for it up to
// max (the room doubles).
func (g *collected) grow(w uint64, key uint32) {
	if g.n >= g.max {
		return
	}
	room := min(max(2*len(g.words), 4096), g.max)
	g.words = append(g.words[:g.n], make([]uint64, room-g.n)...)
	g.keys = append(g.keys[:g.n], make([]uint32, room-g.n)...)
	g.words[g.n], g.keys[g.n] = w, key
}

// rec places a queen in row list[t] given the columns and diagonal attacks
// of the queens above (dl moving right, dr moving left, both shifted to
// that row) and their word; the last row is expanded in place.
func (s *slicer) rec(t, m int, cols, dl, dr uint32, word uint64) {
	qg := s.qg
	i := s.list[t]
	sq := qg.sq[i*qg.cols : (i+1)*qg.cols]
	free := ^(cols | dl | dr) & qg.allowed[i] & s.full
	if t == m-1 {
		for ; free != 0; free &= free - 1 {
			j := bits.TrailingZeros32(free)
			s.leaf(cols|1<<uint(j), word|sq[j])
		}
		return
	}
	gap := uint(s.list[t+1] - i)
	for ; free != 0; free &= free - 1 {
		q := free & -free
		j := bits.TrailingZeros32(q)
		s.rec(t+1, m, cols|q, (dl|q)<<gap&s.full, (dr|q)>>gap, word|sq[j])
	}
}
