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
const joinChunk = 1 << 14

// westCap bounds the West words of a row set held at once (32 MB): past
// it they are counted in batches, the cut lines chosen from the first.
const westCap = 1 << 22

// solver is one worker's scratch memory: the East words of the current row
// set and their matcher, and the West words, reused from one row set to
// the next.
type solver struct {
	p    *Plan
	t    *tables
	im   *impl
	east []uint64
	west [4][]uint64 // by class a | d<<1
	m    *matcher
}

func newSolver(p *Plan, k Kernel) *solver {
	im := k.impl()
	m := newMatcher(p.g.lines, im)
	m.forceCut = p.forceCut
	return &solver{p: p, t: p.t, im: im, m: m}
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
// weights of doc.go.
func (s *solver) solveRows(R uint32, stop func() bool) (total, nodes uint64, ok bool) {
	g := s.p.g
	n, h := g.n, g.h
	nMask := uint32(1)<<uint(h) - 1
	W := ^R & (1<<uint(n) - 1)

	// East halves: NE × SE over the column sets C of the NE quarter.
	NE, SE := &s.t.quads[qNE], &s.t.quads[qSE]
	ne, se := NE.words, SE.words
	rn, rs := R&nMask, R>>uint(h)
	wE := uint32(n - h)
	fullE := uint32(1)<<wE - 1
	maskE := g.pairMask(true)
	e := s.east[:0]
	var cand uint64
	stopped := false
	forCombs(wE, bits.OnesCount32(rn), func(C uint32) {
		if stopped {
			return
		}
		lo, _, hi := NE.cell(rn, C)
		if lo == hi {
			return
		}
		slo, _, shi := SE.cell(rs, fullE^C)
		if slo == shi {
			return
		}
		ys := se[slo:shi]
		cand += uint64(hi-lo) * uint64(len(ys))
		// A few NE entries at a time, so that the buffer never has to
		// hold a whole product of two large cells.
		for xs := ne[lo:hi]; len(xs) > 0; {
			m := min(len(xs), max(1, joinChunk/len(ys)))
			e = s.im.join(slices.Grow(e, m*len(ys)+pairSlack), xs[:m], ys, maskE)
			xs = xs[m:]
		}
		stopped = stop != nil && stop()
	})
	s.east = e
	if stopped {
		return 0, 0, false
	}
	if len(e) == 0 {
		return 0, cand, true
	}

	// West halves: NW × SW, in the weight classes 2^(a+d) by the flags a
	// (NW) and d (SW); class a = d = 0 carries the east–west weight.
	ewf := eastWestWeight(R, n)
	s.m.setWeights(uint(ewf >> 1)) // 1 or 2: 2^0 or 2^1
	NW, SW := &s.t.quads[qNW], &s.t.quads[qSW]
	nw, sw := NW.words, SW.words
	wn, ws := W&nMask, W>>uint(h)
	fullW := uint32(1)<<uint(h) - 1
	maskW := g.pairMask(false)
	q := &s.west
	held := 0 // West words in q
	for c := range q {
		q[c] = q[c][:0]
	}
	built := false
	var sum, pairs uint64
	flush := func() {
		if !built {
			s.m.build(e, q)
			built = true
		}
		sum += s.m.countQueries(q)
		pairs += uint64(held) * uint64(len(e))
		for c := range q {
			q[c] = q[c][:0]
		}
		held = 0
	}
	forCombs(uint32(h), bits.OnesCount32(wn), func(C uint32) {
		if stopped {
			return
		}
		nlo, nmid, nhi := NW.cell(wn, C)
		if nlo == nhi {
			return
		}
		slo, smid, shi := SW.cell(ws, fullW^C)
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
	if stopped {
		return 0, 0, false
	}
	flush()
	return mirrorWeight(R, n) * sum, cand + pairs, true
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
