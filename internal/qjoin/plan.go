package qjoin

import (
	"fmt"
	"math/bits"
	"sync"
)

// Version names the decomposition and the weights of this engine. A change
// of either must change it, so that partial results saved per sub-problem
// are never mixed across versions.
const Version = "qjoin/v1"

// MinN and MaxN bound the boards the engine counts. Below 4 there is no
// quadrant to speak of; beyond 21 the quarter tables outgrow 2 GiB.
const (
	MinN = 4
	MaxN = 21
)

// Kind tells what a sub-problem counts.
type Kind uint8

const (
	// KindRows counts the solutions whose East half holds its queens in the
	// rows Rows, with the weights of doc.go; its result is a share of the
	// total T.
	KindRows Kind = iota
	// KindFix180 counts S180, the solutions that the half turn maps to
	// themselves.
	KindFix180
	// KindFix90 counts S90, the solutions that the quarter turn maps to
	// themselves.
	KindFix90
)

// Sub is one independent sub-problem.
type Sub struct {
	Kind Kind
	// Rows is, for KindRows, the row set R of the East half: bit r set when
	// row r's queen stands in the East columns. R ≤ reverse(R).
	Rows uint32
	// Cost is a relative work estimate, for progress and sharding.
	Cost uint32
}

// Plan is the deterministic, ordered list of sub-problems of an n×n board:
// the two Burnside searches, then the canonical East row sets in colex
// order. Sub-problem ids are indices into Subs.
type Plan struct {
	N         int
	Subs      []Sub
	TotalCost uint64

	g  *geom
	mu sync.Mutex // guards t.quads[*].words and built
	t  *tables    // cell counts from NewPlan; the entries once built
	// built is set when the entries of t are filled.
	built bool
}

// NewPlan lists the sub-problems of an n×n board, MinN ≤ n ≤ MaxN. It runs
// the counting pass of the quarter tables (a few milliseconds at n=18, under
// a second at n=21) for the cost estimates.
func NewPlan(n int) (*Plan, error) {
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("qjoin: n=%d out of range %d..%d", n, MinN, MaxN)
	}
	g := newGeom(n)
	p := &Plan{N: n, g: g, t: newCellCounts(g)}
	k := n - g.h // |R|: the width of the East half
	var rowsCost uint64
	for R := uint32(1)<<uint(k) - 1; R < 1<<uint(n); R = nextComb(R) {
		if reverse(R, n) < R {
			continue
		}
		c := p.rowsCost(R)
		rowsCost += uint64(c)
		p.Subs = append(p.Subs, Sub{Kind: KindRows, Rows: R, Cost: c})
	}
	// The Burnside searches cost about as much as a few percent of the join.
	fix := uint32(min(rowsCost/64+1, 1<<31))
	p.Subs = append([]Sub{{Kind: KindFix180, Cost: fix}, {Kind: KindFix90, Cost: fix/4 + 1}}, p.Subs...)
	for _, s := range p.Subs {
		p.TotalCost += uint64(s.Cost)
	}
	return p, nil
}

// nextComb returns the next larger number with as many bits set as x
// (Gosper's hack, HAKMEM 175): colex order of the sets.
func nextComb(x uint32) uint32 {
	c := x & -x
	r := x + c
	return (((r ^ x) >> 2) / c) | r
}

// reverse mirrors the n-bit row set x north–south: row r to row n-1-r.
func reverse(x uint32, n int) uint32 {
	return bits.Reverse32(x) >> uint(32-n)
}

// mirrorWeight is the north–south weight of R: 2 when R < reverse(R) (the
// mirrored row set is not in the plan), 1 when R is its own mirror image.
func mirrorWeight(R uint32, n int) uint64 {
	if R == reverse(R, n) {
		return 1
	}
	return 2
}

// eastWestWeight is, for even n, the weight of the solutions with no queen
// on either long diagonal (class a = b = c = d = 0) counted in R: the
// east–west mirror maps them to those of the complement of R, whose
// canonical form R' = min(~R, reverse(~R)) is also in the plan. The pair
// is counted once: weight 2 in the smaller of R and R', 0 in the larger, 1
// when R' = R. For odd n the East half is wider than the West one and
// there is no such mirror: weight 1.
func eastWestWeight(R uint32, n int) uint64 {
	if n%2 == 1 {
		return 1
	}
	c := ^R & (1<<uint(n) - 1)
	c = min(c, reverse(c, n))
	switch {
	case c == R:
		return 1
	case R < c:
		return 2
	}
	return 0
}

// rowsCost estimates the work of row set R: the quarter pairs tried on both
// sides plus the East–West pairs, whose count the product of the two stands
// for.
func (p *Plan) rowsCost(R uint32) uint32 {
	e, w := p.candidates(R)
	c := e + w + e*w/256
	return uint32(min(c/16+1, 1<<31))
}

// candidates counts the quarter pairs that row set R tries: NE×SE for the
// East half, NW×SW for the West half.
func (p *Plan) candidates(R uint32) (east, west uint64) {
	g := p.g
	h := g.h
	nMask := uint32(1)<<uint(h) - 1
	all := uint32(1)<<uint(g.n) - 1
	W := ^R & all
	t := &p.t.quads
	east = pairCount(&t[qNE], &t[qSE], R&nMask, R>>uint(h), uint32(g.n-h))
	west = pairCount(&t[qNW], &t[qSW], W&nMask, W>>uint(h), uint32(h))
	return east, west
}

// pairCount is Σ over column sets C of |north(rn, C)|·|south(rs, ~C)| for a
// half of width w.
func pairCount(north, south *quadTable, rn, rs, w uint32) uint64 {
	full := uint32(1)<<w - 1
	var sum uint64
	forCombs(w, bits.OnesCount32(rn), func(C uint32) {
		if a := north.cellSize(rn, C); a != 0 {
			sum += a * south.cellSize(rs, full^C)
		}
	})
	return sum
}

// forCombs calls f with every subset of the w low bits with k bits set, in
// increasing order.
func forCombs(w uint32, k int, f func(C uint32)) {
	if k == 0 {
		f(0)
		return
	}
	for C := uint32(1)<<uint(k) - 1; C < 1<<w; C = nextComb(C) {
		f(C)
	}
}
