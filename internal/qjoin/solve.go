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
// weights of doc.go. The East halves are matched in parts of at most
// eastCap, each against all the West halves, generated again for each
// part; the West halves are counted in batches of at most westCap.
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
	var eg eastGen
	for first := true; ; first = false {
		e, c, more := s.eastPart(&eg, stop)
		cand += c
		if stop != nil && stop() {
			return 0, 0, false
		}
		if len(e) > 0 {
			NW, SW := s.quarter(qNW, wn), s.quarter(qSW, ws)
			c, pairs, ok := s.countWest(e, NW, SW, ewf, stop)
			if !ok {
				return 0, 0, false
			}
			sum += c
			nodes += pairs
			if first {
				cand += s.westCand
			}
		}
		if !more {
			break
		}
	}
	return mirrorWeight(R, n) * sum, cand + nodes, true
}

// eastGen is where eastPart stopped: at column set C, NE entry x.
type eastGen struct {
	C       uint32
	x       int
	started bool
}

// eastPart appends to s.east (emptied first) the East halves of the row
// set from where g stopped, up to about eastCap of them: the compatible
// pairs of NE cell (rn, C) × SE cell (rs, ~C) over the column sets C of
// the NE quarter. It returns them, the quarter pairs tried, and whether
// there are more.
func (s *solver) eastPart(g *eastGen, stop func() bool) (e []uint64, cand uint64, more bool) {
	geo := s.p.g
	wE := uint32(geo.n - geo.h)
	fullE := uint32(1)<<wE - 1
	maskE := geo.pairMask(true)
	NE, SE := &s.NE, &s.SE
	ne, se := NE.words, SE.words
	k := bits.OnesCount32(s.eastRows)
	if !g.started {
		g.C, g.x, g.started = uint32(1)<<uint(k)-1, 0, true
	}
	e = s.east[:0]
	defer func() { s.east = e }()
	for ; g.C <= fullE; g.C, g.x = nextSet(g.C, k, fullE), 0 {
		lo, _, hi := NE.cell(g.C)
		if lo == hi {
			continue
		}
		slo, _, shi := SE.cell(fullE ^ g.C)
		if slo == shi {
			continue
		}
		ys := se[slo:shi]
		xs := ne[int(lo)+g.x : hi]
		// A few NE entries at a time, so that the buffer never has to
		// hold a whole product of two large cells.
		for len(xs) > 0 {
			if len(e) >= eastCap {
				return e, cand, true
			}
			m := min(len(xs), max(1, joinChunk/len(ys)))
			cand += uint64(m) * uint64(len(ys))
			e = s.im.join(slices.Grow(e, m*len(ys)+pairSlack), xs[:m], ys, maskE)
			xs = xs[m:]
			g.x += m
		}
		if stop != nil && stop() {
			return e, cand, true
		}
	}
	return e, cand, false
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
// halves e: it generates them in the weight classes 2^(a+d) by the flags a
// (NW) and d (SW), class a = d = 0 carrying the east–west weight ewf, in
// batches of at most westCap, and builds the matcher of e with the first
// batch. It returns the weighted count, the East–West pairs compared, and
// false if stop said so; s.westCand is set to the quarter pairs tried.
func (s *solver) countWest(e []uint64, NW, SW cellView, ewf uint64, stop func() bool) (sum, pairs uint64, ok bool) {
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
