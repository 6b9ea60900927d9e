package qjoin

import (
	"math/bits"
	"slices"
	"sort"
)

// Result is one sub-problem's contribution: Total to the number of
// solutions T, Burnside to the Burnside numerator T + S180 + 2·S90 (so the
// unique count is ΣBurnside/8), Nodes a measure of the work (quarter pairs
// tried, plus East–West pairs compared, plus orbits placed).
type Result struct {
	Total, Burnside, Nodes uint64
}

// pairSlack is the room a pair buffer keeps beyond the pairs it may
// receive: joinPairsAVX2 stores 4 words at a time.
const pairSlack = 4

// solver is one worker's scratch memory, reused from one row set to the
// next: the slicers (or the shared tables), the East words of the current
// row set and their matcher, and the West words.
type solver struct {
	p  *Plan
	o  *planOptions
	t  *tables
	im *impl
	// slicers build the quarter slices of each row set when the plan has
	// no tables (planOptions.slices); nil otherwise.
	slicers *[4]*slicer
	east    []uint64
	west    []uint64
	m       *matcher

	// The row set being solved: its North rows in the East, its
	// east–west weight, and the slices of NE and SE.
	eastRows uint32
	ewf      uint64
	NE, SE   cellView
	// cells is the row set's piece: the colex ranks of its NE column sets
	// (all of them but for a plan in pieces).
	cells    [2]uint32
	westCand uint64       // quarter pairs tried by the last countWest
	sc       queryScratch // for the westJobs of shared row sets
	split    eastSplit
	scan     []uint64 // eastScan's buffer
}

func newSolver(p *Plan, k Kernel) *solver {
	im := k.impl()
	m := newMatcher(p.g.lines, im)
	m.forceCut = p.o.forceCut
	m.smallEast = p.o.smallEast
	m.cutBeyond = p.o.cutBeyond
	m.stepPairs = p.o.stepPairs
	m.probe = p.o.probe
	s := &solver{p: p, o: &p.o, t: p.t, im: im, m: m}
	if p.o.slices {
		s.slicers = newSlicers(p.g, p.t, false, p.o.shared)
	}
	return s
}

// quarter returns the entries of row set rows of quadrant q.
func (s *solver) quarter(q int, rows uint32) cellView {
	if s.slicers != nil {
		return s.slicers[q].get(rows)
	}
	return s.t.quads[q].view(rows)
}

// solve counts sub-problem sub; ok is false if stop said so.
func (s *solver) solve(sub Sub, stop func() bool) (Result, bool) {
	switch sub.Kind {
	case KindFix180:
		c, nodes, ok := countFixed(s.p.N, 2, stop)
		return Result{Burnside: c, Nodes: nodes}, ok
	case KindFix90:
		c, nodes, ok := countFixed(s.p.N, 1, stop)
		return Result{Burnside: 2 * c, Nodes: nodes}, ok
	}
	t, nodes, ok := s.solveRows(sub.Rows, sub.Piece, stop)
	return Result{Total: t, Burnside: t, Nodes: nodes}, ok
}

// piece returns the colex ranks [r0, r1) of the NE column sets of piece
// of the row set whose North rows in the East are rn: the rank range cut
// in pieces of equal length.
func (p *Plan) piece(rn uint32, piece uint16) [2]uint32 {
	cells := uint64(combinations(p.N-p.g.h, bits.OnesCount32(rn)))
	P := uint64(p.o.pieces)
	return [2]uint32{uint32(uint64(piece) * cells / P), uint32((uint64(piece) + 1) * cells / P)}
}

// solveRows counts the solutions whose East half holds the rows R (and its
// NE quarter a column set of the piece: see Plan.piece), with the weights
// of doc.go. The East halves are matched at most eastCap at a time,
// each part against all the West halves (generated again for each part and
// counted in batches of at most westCap): a row set with more East halves
// than that is split by their North quarters' cut lines (see eastSplit).
func (s *solver) solveRows(R uint32, piece uint16, stop func() bool) (total, nodes uint64, ok bool) {
	g := s.p.g
	n, h := g.n, g.h
	nMask := uint32(1)<<uint(h) - 1
	W := ^R & (1<<uint(n) - 1)
	rn, rs := R&nMask, R>>uint(h)
	wn, ws := W&nMask, W>>uint(h)
	s.eastRows = rn
	s.cells = s.p.piece(rn, piece)
	s.NE, s.SE = s.quarter(qNE, rn), s.quarter(qSE, rs)
	s.ewf = eastWestWeight(R, n)
	s.m.setWeights(uint(s.ewf >> 1)) // 1 or 2: 2^0 or 2^1
	var sum, cand uint64
	c, ok := s.eastParts(stop, func(e []uint64, skip uint64) bool {
		// The West halves against the part e (skip: see eastSplit).
		NW, SW := s.quarter(qNW, wn), s.quarter(qSW, ws)
		c, pairs, ok := s.countWest(e, NW, SW, skip, stop)
		sum += c
		nodes += pairs
		cand += s.westCand
		return ok
	})
	if !ok {
		return 0, 0, false
	}
	return mirrorWeight(R, n) * sum, c + cand + nodes, true
}

// eastParts passes the East halves of the row set's piece to west: at once
// if they fit in one part (at most eastCap), else part by part (see
// eastSplit) with each part's common cut bits as skip; it skips empty
// parts. It returns the quarter pairs tried and false if stop or west said
// so.
func (s *solver) eastParts(stop func() bool, west func(e []uint64, skip uint64) bool) (cand uint64, ok bool) {
	part := func(e []uint64, skip uint64) bool { return len(e) == 0 || west(e, skip) }
	// The East halves, if they fit in one part (more: they do not).
	e, more := s.east[:0], false
	c, ok := s.eastScan(&s.NE, s.piecesScope(), stop, func(xs []uint64) bool {
		if len(e)+len(xs) > s.o.eastCap {
			more = true
			return false
		}
		e = append(e, xs...)
		return true
	})
	s.east = e
	cand += c
	if !ok {
		return cand, false
	}
	if !more {
		return cand, part(e, 0)
	}
	sp := &s.split
	c, ok = s.eastCount(sp, stop)
	cand += c
	if !ok {
		return cand, false
	}
	for _, pt := range sp.parts {
		e := s.east[:0]
		c, ok := s.eastScan(&sp.ne, pt.scope, stop, func(xs []uint64) bool {
			e = append(e, xs...)
			return true
		})
		s.east = e
		cand += c
		if !ok || !part(e, pt.common) {
			return cand, false
		}
	}
	return cand, true
}

// eastSplit splits the East halves of a row set too large for one matcher
// into parts by the cut lines of their North quarters: the NE entries of
// each cell sorted by v, their top splitBits line bits (the lines the
// matcher cuts first), and a part takes the halves of a run of
// neighbouring v (or, for a v with more than eastCap halves, of one v and a
// run of cells). Every half of a part then has the line bits common to its
// v, which the matcher groups as it would group all the halves, and a West
// half that meets them meets none of the part's halves and is dropped
// before the matching. Each part is generated once, from its own entries.
// (Split in the order the halves are made instead, every part met every
// West half and had too few halves per group to cut many lines: at n = 25
// the split made a sample of row sets 1.36 times slower than one matcher
// over all the halves. Split by the cut bits of the halves themselves,
// every part generated all the halves again to keep its own.)
type eastSplit struct {
	sh  uint   // v = word >> sh & top
	top uint64 // 2^splitBits - 1
	// ne is the row set's NE slice with the entries of each key (cell and
	// flag) sorted by v: the slice itself, or a copy of the shared table's
	// (copied, copiedIdx).
	ne        cellView
	copied    []uint64
	copiedIdx []uint32
	count     []uint64 // halves of each v
	parts     []eastPart
}

// eastPart is one part of a split row set: the East halves of its scope,
// whose cut bits all hold common.
type eastPart struct {
	scope  eastScope
	common uint64
}

// eastScope selects East halves by their NE entry: v in [v0, v1] and the
// cell's colex rank in [r0, r1).
type eastScope struct {
	v0, v1, r0, r1 uint32
	sh             uint
	top            uint64
}

// eastAll is the scope of every half.
var eastAll = eastScope{v1: ^uint32(0), r1: ^uint32(0)}

// piecesScope is the scope of the halves of the solver's piece.
func (s *solver) piecesScope() eastScope {
	return eastScope{v1: ^uint32(0), r0: s.cells[0], r1: s.cells[1]}
}

// splitBits is the number of cut lines a large row set is split by.
const splitBits = maxCut

// eastCount sorts the NE entries of the row set by their cut bits v into
// sp.words, counts the East halves of each v and cuts them into parts of
// at most eastCap; it returns the quarter pairs tried and false if stop
// said so.
func (s *solver) eastCount(sp *eastSplit, stop func() bool) (uint64, bool) {
	L := s.p.g.lines
	bitsV := min(splitBits, L)
	size := 1 << uint(bitsV)
	if len(sp.count) != size {
		sp.count = make([]uint64, size)
	}
	sp.sh, sp.top = uint(L-bitsV), uint64(size-1)
	s.sortNE(sp)
	clear(sp.count)
	count := sp.count
	scope := s.piecesScope()
	scope.sh, scope.top = sp.sh, sp.top
	cand, ok := s.eastRuns(&sp.ne, scope, stop, func(v, _ uint32, pairs int) { count[v] += uint64(pairs) })
	if !ok {
		return cand, false
	}
	return cand, s.cutParts(sp, stop)
}

// sortNE sets sp.ne to the row set's NE entries sorted by v within each
// key (cell and flag): the worker's own slice in place (the order of a
// key's entries matters nowhere else), a copy of the shared table's row
// set.
func (s *solver) sortNE(sp *eastSplit) {
	sh, top := sp.sh, sp.top
	v := func(x uint64) uint32 { return uint32(x >> sh & top) }
	sp.ne = s.NE
	if s.slicers == nil {
		idx := s.NE.idx
		base := idx[0]
		sp.ne.words = append(sp.copied[:0], s.NE.words[base:idx[len(idx)-1]]...)
		sp.ne.idx = append(sp.copiedIdx[:0], idx...)
		for i := range sp.ne.idx {
			sp.ne.idx[i] -= base
		}
		sp.copied, sp.copiedIdx = sp.ne.words, sp.ne.idx
	}
	for i := 0; i+1 < len(sp.ne.idx); i++ {
		key := sp.ne.words[sp.ne.idx[i]:sp.ne.idx[i+1]]
		slices.SortFunc(key, func(a, b uint64) int { return int(v(a)) - int(v(b)) })
	}
}

// cutParts cuts the East halves counted by v in sp.count into sp.parts:
// runs of neighbouring v up to eastCap halves; a v with more is cut by
// cells (cutByCells). It returns false if stop said so.
func (s *solver) cutParts(sp *eastSplit, stop func() bool) bool {
	sh, top := sp.sh, sp.top
	r0, r1 := s.cells[0], s.cells[1]
	capE := uint64(s.o.eastCap)
	sp.parts = sp.parts[:0]
	var cur eastPart
	var held uint64
	flush := func() {
		if held > 0 {
			sp.parts = append(sp.parts, cur)
		}
		held = 0
	}
	for x, c := range sp.count {
		if c == 0 {
			continue
		}
		if c > capE {
			flush()
			if !s.cutByCells(sp, uint32(x), stop) {
				return false
			}
			continue
		}
		if held+c > capE {
			flush()
		}
		if held == 0 {
			cur = eastPart{scope: eastScope{v0: uint32(x), r0: r0, r1: r1, sh: sh, top: top}, common: uint64(x) << sh}
		}
		cur.scope.v1 = uint32(x)
		cur.common &= uint64(x) << sh
		held += c
	}
	flush()
	return true
}

// cutByCells appends to sp.parts the halves of v, more than eastCap, cut
// into runs of cells of the piece of at most eastCap halves (but a cell
// with more alone). It returns false if stop said so.
func (s *solver) cutByCells(sp *eastSplit, x uint32, stop func() bool) bool {
	sh, top := sp.sh, sp.top
	r0, r1 := s.cells[0], s.cells[1]
	capE := uint64(s.o.eastCap)
	cells, ok := s.cellCounts(sp, x, stop)
	if !ok {
		return false
	}
	from := r0
	var run uint64
	for r := r0; r < r1; r++ {
		if k := cells[r]; run > 0 && run+k > capE {
			sp.parts = append(sp.parts, eastPart{scope: eastScope{v0: x, v1: x, r0: from, r1: r, sh: sh, top: top}, common: uint64(x) << sh})
			from, run = r, 0
		}
		run += cells[r]
	}
	if run > 0 {
		sp.parts = append(sp.parts, eastPart{scope: eastScope{v0: x, v1: x, r0: from, r1: r1, sh: sh, top: top}, common: uint64(x) << sh})
	}
	return true
}

// cellCounts returns the East halves of v in each cell of the NE slice's
// piece, by colex rank.
func (s *solver) cellCounts(sp *eastSplit, v uint32, stop func() bool) ([]uint64, bool) {
	wE := uint32(s.p.g.n - s.p.g.h)
	k := bits.OnesCount32(s.eastRows)
	cells := make([]uint64, combinations(int(wE), k))
	scope := eastScope{v0: v, v1: v, r0: s.cells[0], r1: s.cells[1], sh: sp.sh, top: sp.top}
	_, ok := s.eastRuns(&sp.ne, scope, stop, func(_, r uint32, pairs int) { cells[r] += uint64(pairs) })
	return cells, ok
}

// eastRuns is eastScan that reports, for every run of NE entries of one v
// (ne sorted by v within each cell) joined with one SE cell, v, the cell's
// colex rank and the number of halves.
func (s *solver) eastRuns(ne *cellView, scope eastScope, stop func() bool, f func(v, rank uint32, pairs int)) (cand uint64, ok bool) {
	return s.eastGen(ne, scope, stop, true, func(v, rank uint32, xs []uint64) bool {
		f(v, rank, len(xs))
		return true
	})
}

// eastScan generates the East halves of the row set in the scope (of the
// NE entries ne: the slice, or its copy sorted by v), always in the same
// order, passing them to f a chunk of at most joinChunk at a time (or one
// NE entry's pairs) until f returns false; it returns the quarter pairs
// tried and false if stop said so.
func (s *solver) eastScan(ne *cellView, scope eastScope, stop func() bool, f func([]uint64) bool) (cand uint64, ok bool) {
	return s.eastGen(ne, scope, stop, false, func(_, _ uint32, xs []uint64) bool { return f(xs) })
}

// eastGen is eastScan and eastRuns: byV cuts the joins at every change of v.
func (s *solver) eastGen(NE *cellView, scope eastScope, stop func() bool, byV bool, f func(v, rank uint32, xs []uint64) bool) (cand uint64, ok bool) {
	geo := s.p.g
	wE := uint32(geo.n - geo.h)
	fullE := uint32(1)<<wE - 1
	maskE := geo.pairMask(true)
	drop := s.ewf == 0 && geo.westRestricted // the East is flagged
	SE := &s.SE
	ne, se := NE.words, SE.words
	k := bits.OnesCount32(s.eastRows)
	chunk := s.o.joinChunk
	sh, top := scope.sh, scope.top
	v := func(x uint64) uint32 { return uint32(x >> sh & top) }
	whole := scope.v0 == 0 && scope.v1 == ^uint32(0) // no v to select
	buf := s.scan[:0]
	defer func() { s.scan = buf }()
	rank := uint32(0)
	var polled uint64
	for C := uint32(1)<<uint(k) - 1; C <= fullE; C, rank = nextSet(C, k, fullE), rank+1 {
		if rank < scope.r0 {
			continue
		}
		if rank >= scope.r1 {
			break
		}
		lo, mid, hi := NE.cell(C)
		if lo == hi {
			continue
		}
		slo, _, shi := SE.cell(fullE ^ C)
		if slo == shi {
			continue
		}
		ys := se[slo:shi]
		keys := [2][]uint64{ne[lo:hi]}
		if !whole {
			// The entries of v0..v1 in each key, sorted by v.
			for f, xs := range [2][]uint64{ne[lo:mid], ne[mid:hi]} {
				a := sort.Search(len(xs), func(i int) bool { return v(xs[i]) >= scope.v0 })
				b := a + sort.Search(len(xs)-a, func(i int) bool { return v(xs[a+i]) > scope.v1 })
				keys[f] = xs[a:b]
			}
		}
		for _, xs := range keys {
			for len(xs) > 0 {
				m := min(len(xs), max(1, chunk/len(ys)))
				var vx uint32
				if byV {
					vx = v(xs[0])
					m = sort.Search(m, func(i int) bool { return v(xs[i]) != vx })
				}
				cand += uint64(m) * uint64(len(ys))
				buf = s.im.join(slices.Grow(buf[:0], m*len(ys)+pairSlack), xs[:m], ys, maskE)
				if drop {
					buf = dropClass0(buf, 0)
				}
				if !f(vx, rank, buf) {
					return cand, true
				}
				xs = xs[m:]
				// A product of two cells may be 10^9 pairs at n = 25; poll
				// every million or so.
				if polled += uint64(m) * uint64(len(ys)); polled > 1<<20 {
					polled = 0
					if stop != nil && stop() {
						return cand, false
					}
				}
			}
		}
	}
	if stop != nil && stop() {
		return cand, false
	}
	return cand, true
}

// dropClass0 removes from q[k:] the words without flags (class 0).
func dropClass0(q []uint64, k int) []uint64 {
	for _, w := range q[k:] {
		q[k] = w
		k += int(w>>flagN&1 | w>>flagS)
	}
	return q[:k]
}

// nextSet is the next k-subset of full after C in colex order (Gosper's
// hack), above full when C is the last.
func nextSet(C uint32, k int, full uint32) uint32 {
	if k == 0 {
		return full + 1 // past the one 0-subset
	}
	return nextComb(C)
}

// countWest counts the West halves NW × SW of the row set against the East
// halves e (the West halves with a bit of skip meet none of them and are
// dropped), in batches of at most westCap. It returns the weighted count,
// the East–West pairs compared, and false if stop said so; s.westCand is
// set to the quarter pairs tried.
//
// The matcher's table is the East halves, built with the first batch, but
// for a row set whose West halves all fit in one batch: there the smaller
// of the modelled costs decides which half is the table.
func (s *solver) countWest(e []uint64, NW, SW cellView, skip uint64, stop func() bool) (sum, pairs uint64, ok bool) {
	r := s.westRange(westJob{m: s.m, sc: &s.m.qs, e: e, NW: NW, SW: SW, skip: skip,
		r1: s.westSets(), build: true, once: true, orient: s.o.orient}, stop)
	s.westCand = r.cand
	return r.sum, r.pairs, r.ok
}

// westSets is the number of column sets of the current row set's West
// North quarter: the ranks a westJob ranges over.
func (s *solver) westSets() int {
	h := s.p.g.h
	return int(combinations(h, h-bits.OnesCount32(s.eastRows)))
}

// westJob is the count of the West halves of some column sets of a row set
// against the East halves e: those of the North quarter's column sets of
// colex ranks r0 to r1-1. The matcher m is built with the job's first batch
// (build), or was built before (and is then only read: several workers run
// jobs against it at once, each with its own scratch sc).
type westJob struct {
	m      *matcher
	sc     *queryScratch
	e      []uint64
	NW, SW cellView
	skip   uint64
	r0, r1 int
	build  bool
	// once: no other job counts against the matcher the job builds, so
	// that where the job holds every West half in one batch the matcher
	// builds its chunk tables group by group as it counts (buildOnce).
	once bool
	// orient: when the job holds every West half in one batch, the cost
	// model chooses which half is the table (with build only).
	orient bool
}

// westResult is the outcome of a westJob: the weighted count, the
// East–West pairs compared, the quarter pairs tried, whether the job built
// the matcher (it has no West half otherwise), and false if stop said so.
type westResult struct {
	sum, pairs, cand uint64
	built, ok        bool
}

// westRange runs j on s's West buffer.
func (s *solver) westRange(j westJob, stop func() bool) westResult {
	geo := s.p.g
	h := geo.h
	fullW := uint32(1)<<uint(h) - 1
	b := westBatch{s: s, j: j, stop: stop, q: s.west[:0], built: !j.build, orientMin: s.o.orientMin,
		fullW: fullW, maskW: geo.pairMask(false), capW: s.o.westCap,
		drop: s.ewf == 0 && !geo.westRestricted, // the West is flagged
	}
	if b.orientMin < 0 {
		b.orientMin = j.m.im.orientMin
	}
	b.tableMax = int(tableBudget(s.p.N, *s.o))
	if s.o.tableMax > 0 {
		b.tableMax = s.o.tableMax
	}
	wn := ^s.eastRows & fullW
	rank := 0
	forCombs(uint32(h), bits.OnesCount32(wn), func(C uint32) {
		r := rank
		rank++
		if b.stopped || r < j.r0 || r >= j.r1 {
			return
		}
		b.addCell(C)
	})
	if !b.stopped && len(b.q) > 0 {
		b.flush(true)
	}
	s.west = b.q
	res := b.res
	res.ok = !b.stopped
	if b.stopped {
		res.sum, res.pairs = 0, 0
	}
	return res
}

// westBatch is westRange's state: the West halves q joined so far (at
// most westCap), whether the matcher is built, the result so far and
// whether stop was seen.
type westBatch struct {
	s         *solver
	j         westJob
	stop      func() bool
	q         []uint64
	built     bool
	orientMin int
	tableMax  int        // the most West halves a table holds (tableBudget)
	pieces    [][]uint64 // the pieces westTable cut the batch into
	fullW     uint32     // the West's columns
	maskW     uint64     // the lines an NW and an SW quarter may not share
	capW      int
	drop      bool // drop the words without flags (the West is flagged, s.ewf = 0)
	res       westResult
	stopped   bool
}

// addCell joins the West halves of the NW column set C and its SW
// complement into the batch, counting it whenever it is full, then polls
// stop (not for an empty cell).
func (b *westBatch) addCell(C uint32) {
	j := &b.j
	nlo, _, nhi := j.NW.cell(C)
	if nlo == nhi {
		return
	}
	slo, _, shi := j.SW.cell(b.fullW ^ C)
	if slo == shi {
		return
	}
	capW := b.capW
	b.res.cand += uint64(nhi-nlo) * uint64(shi-slo)
	x, y := j.NW.words[nlo:nhi], j.SW.words[slo:shi]
	for len(x) > 0 {
		room := (capW - len(b.q)) / len(y)
		if room <= 0 && len(b.q) > 0 {
			b.flush(false)
			continue
		}
		room = min(max(room, 1), len(x))
		k := len(b.q)
		b.q = b.s.im.join(slices.Grow(b.q, room*len(y)+pairSlack), x[:room], y, b.maskW)
		if j.skip != 0 {
			b.q = dropMeeting(b.q, k, j.skip)
		}
		if b.drop {
			b.q = dropClass0(b.q, k)
		}
		x = x[room:]
	}
	b.stopped = b.stop != nil && b.stop()
}

// flush counts the batch against the East halves j.e, building the
// matcher first if it is not built: with the East halves as the table,
// but for the last batch of an orient job with enough halves, where the
// cost model chooses the table (westTable).
func (b *westBatch) flush(last bool) {
	j, e, q := &b.j, b.j.e, b.q
	flaggedEast := b.s.p.g.westRestricted
	b.res.pairs += uint64(len(q)) * uint64(len(e))
	var c uint64
	ok := true
	switch {
	case b.built:
		c, ok = j.m.countWith(q, j.sc, b.stop)
	case last && j.orient && len(q)+len(e) > b.orientMin && b.westTable(q, e):
		// The model's choice of the table, from sampled histograms;
		// the build then chooses its cut lines from all its words.
		for _, pc := range b.pieces {
			j.m.buildOnce(pc, e, !flaggedEast, -1) // each piece meets e once
			var cp uint64
			if cp, ok = j.m.countWith(e, j.sc, b.stop); !ok {
				break
			}
			c += cp
			if hook := b.s.o.westTable; hook != nil {
				hook(len(q), len(pc))
			}
		}
		j.m.rangeWords = 0
	default:
		if last && j.once {
			j.m.buildOnce(e, q, flaggedEast, -1) // the only batch
		} else {
			j.m.build(e, q, flaggedEast, -1)
		}
		b.built, b.res.built = true, true
		c, ok = j.m.countWith(q, j.sc, b.stop)
	}
	b.stopped = b.stopped || !ok
	b.res.sum += c
	b.q = q[:0]
}

// westTable tells whether the cost model takes the West batch q as the
// table against the East halves e, and leaves in b.pieces the pieces it is
// the table in (westPieces). It must cost less than e as the table,
// weighed whole; if it is cut (more halves than the memory estimate has
// room for in a table, tableMax: at n = 25 a shard of 16,384 peaked at
// 1,183 MB against the estimate's 797 when such a batch was the table
// whole), in its pieces too, each weighing the cut lines of the whole
// batch (matcher.rangeWords, which the pieces' builds then keep), and only
// against all the East halves of the row set, not a part of a split one
// (skip). On the 2-core Intel Xeon VM, pairs of processes: shards 42420
// and 77777 of 10^5 at n = 25 1.13 and 1.07 times faster; at 27, where the
// East halves of the largest row sets are split, pieces against a part
// made shard 1234567 of 10^7 1.11 times slower (78.5 against 70.5 s), and
// the pieces weighed with their own cut range gained 1.04 times at 25.
func (b *westBatch) westTable(q, e []uint64) bool {
	m := b.j.m
	east := m.cost(e, q)
	if m.cost(q, e) >= east {
		return false
	}
	b.pieces = b.westPieces(q)
	if len(b.pieces) == 1 {
		return true
	}
	if b.j.skip != 0 {
		return false
	}
	m.rangeWords = len(q)
	var west float64
	for _, pc := range b.pieces {
		west += m.cost(pc, e)
	}
	if west >= east {
		m.rangeWords = 0
		return false
	}
	return true
}

// pieceBits is the number of top line bits by which westPieces sorts a
// West batch.
const pieceBits = 8

// westPieces cuts the West batch q into the pieces it is the table in: q
// whole if it has at most tableMax halves; else, as eastSplit cuts the
// East halves into parts, q sorted in place by its top pieceBits line bits
// (the lines the matcher cuts first), a piece the halves of a run of
// neighbouring values up to tableMax (or a part of one value with more),
// so that the pieces cost about what one table of them all would. On a
// sample of row sets of n = 25 (BenchmarkWork) the kernels compared 280
// pairs a solution with the batch the table whole, 388 with the East
// halves the table wherever the batch did not fit, 358 with the batch cut
// in pieces as it came (each piece met every East half, with fewer halves
// a group and fewer cut lines) and 285 in these pieces.
func (b *westBatch) westPieces(q []uint64) [][]uint64 {
	pieces := b.pieces[:0]
	if len(q) <= b.tableMax {
		return append(pieces, q)
	}
	var ends [1 << pieceBits]int
	sortTop(q, uint(max(0, b.s.p.g.lines-pieceBits)), &ends)
	from := 0 // the first half of the piece so far
	for v, end := range ends {
		if end-from <= b.tableMax {
			continue
		}
		start := 0
		if v > 0 {
			start = ends[v-1]
		}
		if start > from { // the piece so far, without v
			pieces = append(pieces, q[from:start])
			from = start
		}
		// v alone has more than a table holds: even parts of it.
		if end-start > b.tableMax {
			size := pieceSize(end-start, b.tableMax)
			for ; from < end; from += size {
				pieces = append(pieces, q[from:min(from+size, end)])
			}
		}
	}
	if from < len(q) {
		pieces = append(pieces, q[from:])
	}
	return pieces
}

// sortTop sorts q in place by the bits x>>sh&(2^pieceBits-1) of its
// words x (an American flag sort: one count, one pass of swaps), and sets
// ends[v] to the end of the words of value v.
func sortTop(q []uint64, sh uint, ends *[1 << pieceBits]int) {
	const top = 1<<pieceBits - 1
	var next [1 << pieceBits]int
	for _, x := range q {
		ends[x>>sh&top]++
	}
	sum := 0
	for v, c := range ends {
		next[v] = sum
		sum += c
		ends[v] = sum
	}
	for v := range next {
		for next[v] < ends[v] {
			x := q[next[v]]
			// Carry x to its value's next slot, and what was there to
			// its own, until one belongs at v's.
			for d := int(x >> sh & top); d != v; d = int(x >> sh & top) {
				q[next[d]], x = x, q[next[d]]
				next[d]++
			}
			q[next[v]] = x
			next[v]++
		}
	}
}

// pieceSize is the size of the pieces, as even as may be, into which n
// halves are cut so that each holds at most most (n itself if it fits).
func pieceSize(n, most int) int {
	if most = max(most, 1); n <= most {
		return max(n, 1)
	}
	pieces := (n + most - 1) / most
	return (n + pieces - 1) / pieces
}

// dropMeeting removes from q[k:] the words that have a bit of skip.
func dropMeeting(q []uint64, k int, skip uint64) []uint64 {
	for _, w := range q[k:] {
		q[k] = w
		k += int((w&skip - 1) >> 63)
	}
	return q[:k]
}

// joinPairs appends x|y for every x of xs and y of ys that share no line
// of mask (line bits only, below bit 62); q must have room for
// len(xs)*len(ys) more.
func joinPairs(q []uint64, xs, ys []uint64, mask uint64) []uint64 {
	k := len(q)
	buf := q[:k+len(xs)*len(ys)]
	for _, x := range xs {
		for _, y := range ys {
			buf[k] = x | y
			k += int((x&y&mask - 1) >> 63)
		}
	}
	return buf[:k]
}
