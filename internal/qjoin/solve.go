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
// receive: appendPairsAVX2 stores 4 words at a time.
const pairSlack = 4

// joinChunk bounds the quarter pairs joined into the East buffer at once.
const joinChunk = 1 << 14

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
	// join appends the compatible pairs x|y, x in xs, y in ys, to q
	// (joinPairs or its AVX2 version); q needs room for
	// len(xs)*len(ys)+pairSlack more.
	join func(q []uint64, xs, ys []uint64) []uint64
}

func newSolver(p *Plan, k Kernel) *solver {
	s := &solver{p: p, t: p.t}
	s.m.k = chunksFor(p.g.matchLines())
	if p.g.cut {
		s.m.cut = p.g.lines - 2
	}
	s.m.mask = p.g.ewMask()
	s.m.kern = k.fn(s.m.k)
	s.m.asm = k == KernelAVX2 && haveAVX2
	s.join = joinPairs
	s.m.split = splitCut
	if s.m.asm {
		s.join = joinPairsAVX2
		s.m.split = splitCutAVX2
	}
	for c := range s.q {
		s.q[c] = make([]uint64, 0, queryBatch+pairSlack)
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
		// A few NE entries at a time, so that the buffer never has to
		// hold a whole product of two large cells.
		for xs := ne[lo:hi]; len(xs) > 0; {
			m := min(len(xs), max(1, joinChunk/len(ys)))
			e = s.join(slices.Grow(e, m*len(ys)+pairSlack), xs[:m], ys)
			xs = xs[m:]
		}
		stopped = stop != nil && stop()
	})
	e = slices.Grow(e, blockHalves) // room for the padding of the last block
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
	if len(xs) == 0 || len(ys) == 0 {
		return
	}
	q := s.q[c]
	for len(xs) > 0 {
		room := (cap(q) - len(q) - pairSlack) / len(ys)
		if room <= 0 {
			s.q[c] = q
			s.flush(c)
			q = s.q[c]
			if room = (cap(q) - pairSlack) / len(ys); room <= 0 { // a cell larger than a batch
				q = make([]uint64, 0, len(ys)+pairSlack)
				room = 1
			}
		}
		room = min(room, len(xs))
		q = s.join(q, xs[:room], ys)
		xs = xs[room:]
	}
	s.q[c] = q
}

// joinPairs appends x|y for every x of xs and y of ys that share no
// north–south line; q must have room for len(xs)*len(ys) more.
func joinPairs(q []uint64, xs, ys []uint64) []uint64 {
	k := len(q)
	buf := q[:k+len(xs)*len(ys)]
	for _, x := range xs {
		for _, y := range ys {
			buf[k] = x | y
			k += int(((x&y)>>nsShift - 1) >> 63)
		}
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
