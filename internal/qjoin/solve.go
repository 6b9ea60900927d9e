package qjoin

import (
	"math/bits"
	"slices"
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

// joinChunk bounds the quarter pairs joined into the East buffer at once.
var joinChunk = 1 << 14

// westCap bounds the West words of a row set held at once (32 MB): past
// it they are counted in batches, the cut lines chosen from the first.
var westCap = 1 << 22

// eastCap bounds the East words of a row set matched at once (with their
// chunk tables, about 50 bytes each): past it the row set is counted in
// parts, each against all the West words.
var eastCap = 1 << 21

// solver is one worker's scratch memory, reused from one row set to the
// next: the slicers (or the shared tables), the East words of the current
// row set and their matcher, and the West words.
type solver struct {
	p  *Plan
	t  *tables
	im *impl
	// slicers build the quarter slices of each row set when the plan has
	// no tables (Plan.slices); nil otherwise.
	slicers *[4]*slicer
	east    []uint64
	west    [4][]uint64 // by class a | d<<1
	m       *matcher

	// The row set being solved: its North rows in the East, and the
	// slices of NE and SE.
	eastRows uint32
	NE, SE   cellView
	westCand uint64 // quarter pairs tried by the last countWest
	split    eastSplit
	scan     []uint64 // eastScan's buffer
}

func newSolver(p *Plan, k Kernel) *solver {
	im := k.impl()
	m := newMatcher(p.g.lines, im)
	m.forceCut = p.forceCut
	s := &solver{p: p, t: p.t, im: im, m: m}
	if p.slices {
		s.slicers = newSlicers(p.g, p.t)
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
	t, nodes, ok := s.solveRows(sub.Rows, stop)
	return Result{Total: t, Burnside: t, Nodes: nodes}, ok
}

// solveRows counts the solutions whose East half holds the rows R, with the
// weights of doc.go. The East halves are matched at most eastCap at a time,
// each part against all the West halves (generated again for each part and
// counted in batches of at most westCap): a row set with more East halves
// than that is split by their cut lines (see eastSplit).
func (s *solver) solveRows(R uint32, stop func() bool) (total, nodes uint64, ok bool) {
	g := s.p.g
	n, h := g.n, g.h
	nMask := uint32(1)<<uint(h) - 1
	W := ^R & (1<<uint(n) - 1)
	rn, rs := R&nMask, R>>uint(h)
	wn, ws := W&nMask, W>>uint(h)
	s.eastRows = rn
	s.NE, s.SE = s.quarter(qNE, rn), s.quarter(qSE, rs)
	ewf := eastWestWeight(R, n)
	s.m.setWeights(uint(ewf >> 1)) // 1 or 2: 2^0 or 2^1
	var sum, cand uint64
	// west counts the West halves against the part e (skip: see eastSplit).
	west := func(e []uint64, skip uint64) bool {
		if len(e) == 0 {
			return true
		}
		NW, SW := s.quarter(qNW, wn), s.quarter(qSW, ws)
		c, pairs, ok := s.countWest(e, NW, SW, ewf, skip, stop)
		sum += c
		nodes += pairs
		cand += s.westCand
		return ok
	}
	// The East halves, if they fit in one part (more: they do not).
	e, more := s.east[:0], false
	c, ok := s.eastScan(stop, func(xs []uint64) bool {
		if len(e)+len(xs) > eastCap {
			more = true
			return false
		}
		e = append(e, xs...)
		return true
	})
	s.east = e
	cand += c
	if !ok {
		return 0, 0, false
	}
	if !more {
		if !west(e, 0) {
			return 0, 0, false
		}
		return mirrorWeight(R, n) * sum, cand + nodes, true
	}
	sp := &s.split
	c, ok = s.eastCount(sp, stop)
	cand += c
	if !ok {
		return 0, 0, false
	}
	for a := uint64(0); a < sp.total; a += uint64(eastCap) {
		b := min(a+uint64(eastCap), sp.total)
		e, c, ok := s.eastRange(sp, a, b, stop)
		cand += c
		if !ok || !west(e, sp.common(a, b)) {
			return 0, 0, false
		}
	}
	return mirrorWeight(R, n) * sum, cand + nodes, true
}

// eastSplit splits the East halves of a row set too large for one matcher
// into parts by their cut lines, the top splitBits line bits (the lines the
// matcher cuts first): the halves in the order of their cut bits v (and of
// generation within one v), cut into runs of eastCap. A part then holds
// halves of a few neighbouring v, which the matcher groups as it would if
// it held them all, and a West half whose cut bits meet the bits common to
// every v of a part meets none of its halves and is dropped before the
// matching. Split in the order the halves are made instead, every part met
// every West half and had too few halves per group to cut many lines: at
// n = 25 the split made a sample of row sets 1.36 times slower than one
// matcher over all the halves.
type eastSplit struct {
	sh    uint     // v = word >> sh & top
	top   uint64   // 2^splitBits - 1
	count []uint64 // halves of each v
	base  []uint64 // halves before v in the order
	next  []uint64 // rank of the next half of each v (eastRange)
	total uint64
}

// splitBits is the number of cut lines a large row set is split by.
const splitBits = maxCut

// common returns the line bits common to every v that has a half of rank
// a to b-1, in place in the words.
func (sp *eastSplit) common(a, b uint64) uint64 {
	all := sp.top
	for v, c := range sp.count {
		if c > 0 && sp.base[v] < b && sp.base[v]+c > a {
			all &= uint64(v)
		}
	}
	return all << sp.sh
}

// eastCount counts the East halves of the row set by their cut bits into
// sp; it returns the quarter pairs tried and false if stop said so.
func (s *solver) eastCount(sp *eastSplit, stop func() bool) (uint64, bool) {
	bitsV := min(splitBits, s.p.g.lines)
	size := 1 << uint(bitsV)
	if len(sp.count) != size {
		sp.count = make([]uint64, size)
		sp.base = make([]uint64, size)
		sp.next = make([]uint64, size)
	}
	sp.sh, sp.top = uint(s.p.g.lines-bitsV), uint64(size-1)
	clear(sp.count)
	sh, top, count := sp.sh, sp.top, sp.count
	cand, ok := s.eastScan(stop, func(xs []uint64) bool {
		for _, x := range xs {
			count[x>>sh&top]++
		}
		return true
	})
	sp.total = 0
	for v, c := range count {
		sp.base[v] = sp.total
		sp.total += c
	}
	return cand, ok
}

// eastRange sets s.east to the East halves of ranks a to b-1 in sp's
// order; it returns them, the quarter pairs tried and false if stop said so.
func (s *solver) eastRange(sp *eastSplit, a, b uint64, stop func() bool) ([]uint64, uint64, bool) {
	copy(sp.next, sp.base)
	e := slices.Grow(s.east[:0], int(b-a))
	sh, top, next := sp.sh, sp.top, sp.next
	cand, ok := s.eastScan(stop, func(xs []uint64) bool {
		for _, x := range xs {
			v := x >> sh & top
			r := next[v]
			next[v] = r + 1
			if r-a < b-a {
				e = append(e, x)
			}
		}
		return true
	})
	s.east = e
	return e, cand, ok
}

// eastScan generates the East halves of the row set, the compatible pairs
// of NE cell (rn, C) × SE cell (rs, ~C) over the column sets C of the NE
// quarter, always in the same order, passing them to f a chunk of at most
// joinChunk at a time (or one NE entry's pairs) until f returns false; it
// returns the quarter pairs tried and false if stop said so.
func (s *solver) eastScan(stop func() bool, f func([]uint64) bool) (cand uint64, ok bool) {
	geo := s.p.g
	wE := uint32(geo.n - geo.h)
	fullE := uint32(1)<<wE - 1
	maskE := geo.pairMask(true)
	NE, SE := &s.NE, &s.SE
	ne, se := NE.words, SE.words
	k := bits.OnesCount32(s.eastRows)
	buf := s.scan[:0]
	defer func() { s.scan = buf }()
	for C := uint32(1)<<uint(k) - 1; C <= fullE; C = nextSet(C, k, fullE) {
		lo, _, hi := NE.cell(C)
		if lo == hi {
			continue
		}
		slo, _, shi := SE.cell(fullE ^ C)
		if slo == shi {
			continue
		}
		ys := se[slo:shi]
		for xs := ne[lo:hi]; len(xs) > 0; {
			m := min(len(xs), max(1, joinChunk/len(ys)))
			cand += uint64(m) * uint64(len(ys))
			buf = s.im.join(slices.Grow(buf[:0], m*len(ys)+pairSlack), xs[:m], ys, maskE)
			if !f(buf) {
				return cand, true
			}
			xs = xs[m:]
			// A product of two cells may be 10^9 pairs at n = 25.
			if stop != nil && stop() {
				return cand, false
			}
		}
	}
	return cand, true
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
// dropped): it generates them in the weight classes 2^(a+d) by the flags a
// (NW) and d (SW), class a = d = 0 carrying the east–west weight ewf, in
// batches of at most westCap, and builds the matcher of e with the first
// batch. It returns the weighted count, the East–West pairs compared, and
// false if stop said so; s.westCand is set to the quarter pairs tried.
func (s *solver) countWest(e []uint64, NW, SW cellView, ewf, skip uint64, stop func() bool) (sum, pairs uint64, ok bool) {
	geo := s.p.g
	h := geo.h
	nw, sw := NW.words, SW.words
	fullW := uint32(1)<<uint(h) - 1
	maskW := geo.pairMask(false)
	q := &s.west
	held := 0 // West words in q
	for c := range q {
		q[c] = q[c][:0]
	}
	built := false
	stopped := false
	flush := func() {
		if !built {
			s.m.build(e, q)
			built = true
		}
		c, ok := s.m.countQueries(q, stop)
		stopped = stopped || !ok
		sum += c
		pairs += uint64(held) * uint64(len(e))
		for c := range q {
			q[c] = q[c][:0]
		}
		held = 0
	}
	var cand uint64
	wn := ^s.eastRows & fullW
	forCombs(uint32(h), bits.OnesCount32(wn), func(C uint32) {
		if stopped {
			return
		}
		nlo, nmid, nhi := NW.cell(C)
		if nlo == nhi {
			return
		}
		slo, smid, shi := SW.cell(fullW ^ C)
		if slo == shi {
			return
		}
		cand += uint64(nhi-nlo) * uint64(shi-slo)
		xs := [2][]uint64{nw[nlo:nmid], nw[nmid:nhi]}
		ys := [2][]uint64{sw[slo:smid], sw[smid:shi]}
		for c := 0; c < 4; c++ {
			if c == 0 && ewf == 0 {
				continue
			}
			x, y := xs[c&1], ys[c>>1]
			if len(x) == 0 || len(y) == 0 {
				continue
			}
			for len(x) > 0 {
				room := (westCap - held) / len(y)
				if room <= 0 && held > 0 {
					flush()
					continue
				}
				room = min(max(room, 1), len(x))
				k := len(q[c])
				q[c] = s.im.join(slices.Grow(q[c], room*len(y)+pairSlack), x[:room], y, maskW)
				if skip != 0 {
					q[c] = dropMeeting(q[c], k, skip)
				}
				held += len(q[c]) - k
				x = x[room:]
			}
		}
		stopped = stop != nil && stop()
	})
	s.westCand = cand
	if stopped {
		return 0, 0, false
	}
	flush()
	return sum, pairs, !stopped
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
// of mask (line bits only, below bit 63); q must have room for
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
