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

// queryBatch is the number of West words gathered per class before they are
// counted against the matcher.
const queryBatch = 4096

// solver is one worker's scratch memory: the East words of the current row
// set, their chunk tables and the West query batches, reused from one row
// set to the next.
type solver struct {
	p     *Plan
	t     *tables
	east  []uint64
	m     matcher
	q     [4][]uint64 // West words by class a | d<<1
	cnt   [4]uint64   // compatible pairs by class
	pairs uint64      // East–West pairs compared
}

func newSolver(p *Plan, k Kernel) *solver {
	s := &solver{p: p, t: p.t}
	s.m.k = chunksFor(p.g.lines)
	s.m.mask = p.g.ewMask()
	s.m.kern = k.fn()
	for c := range s.q {
		s.q[c] = make([]uint64, 0, queryBatch)
	}
	return s
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
		for _, x := range ne[lo:hi] {
			e = slices.Grow(e, len(ys))
			k := len(e)
			buf := e[:k+len(ys)]
			for _, y := range ys {
				buf[k] = x | y
				k += int(((x&y)>>nsShift - 1) >> 63) // no shared line
			}
			e = buf[:k]
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
	s.m.build(e)

	// West halves: NW × SW, split by the flags a (NW) and d (SW) into the
	// weight classes 2^(a+d); class a = d = 0 carries the east–west weight.
	var wt [4]uint64
	wt[0] = eastWestWeight(R, n)
	wt[1], wt[2], wt[3] = 2, 2, 4
	NW, SW := &s.t.quads[qNW], &s.t.quads[qSW]
	nw, sw := NW.words, SW.words
	wn, ws := W&nMask, W>>uint(h)
	fullW := uint32(1)<<uint(h) - 1
	s.cnt = [4]uint64{}
	s.pairs = 0
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
			if wt[c] == 0 {
				continue
			}
			s.pairsInto(c, xs[c&1], ys[c>>1])
		}
		stopped = stop != nil && stop()
	})
	if stopped {
		return 0, 0, false
	}
	for c := range s.q {
		s.flush(c)
	}
	for c := range s.cnt {
		total += wt[c] * s.cnt[c]
	}
	return mirrorWeight(R, n) * total, cand + s.pairs, true
}

// pairsInto appends the compatible pairs of xs × ys as West words to the
// batch of class c, counting full batches against the matcher.
func (s *solver) pairsInto(c int, xs, ys []uint64) {
	q := s.q[c]
	for _, x := range xs {
		if len(q)+len(ys) > cap(q) {
			s.q[c] = q
			s.flush(c)
			q = s.q[c]
			if len(ys) > cap(q) { // a cell larger than a batch
				q = make([]uint64, 0, len(ys))
			}
		}
		q = appendPairs(q, x, ys)
	}
	s.q[c] = q
}

// appendPairs appends x|y for every y of ys compatible with x; q must have
// room for len(ys) more.
func appendPairs(q []uint64, x uint64, ys []uint64) []uint64 {
	k := len(q)
	buf := q[:k+len(ys)]
	for _, y := range ys {
		buf[k] = x | y
		k += int(((x&y)>>nsShift - 1) >> 63)
	}
	return buf[:k]
}

// flush counts the batch of class c against the matcher and empties it.
func (s *solver) flush(c int) {
	q := s.q[c]
	if len(q) == 0 {
		return
	}
	s.cnt[c] += s.m.count(q)
	s.pairs += uint64(len(q)) * uint64(len(s.east))
	s.q[c] = q[:0]
}
