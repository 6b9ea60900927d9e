package qjoin

import (
	"context"
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

	g *geom
	// forceCut, if ≥ 0, is the number of cut lines of every row set
	// instead of the matcher's choice (the tests set it).
	forceCut int
	mu       sync.Mutex // guards t.quads[*].words and built
	t        *tables    // cell counts from NewPlan; the entries once built
	// built is set when the entries of t are filled.
	built bool
}

// NewPlan lists the sub-problems of an n×n board, MinN ≤ n ≤ MaxN. It runs
// the counting pass of the quarter tables (a few milliseconds at n=18, under
// a second at n=21) for the cost estimates.
func NewPlan(n int) (*Plan, error) { return NewPlanContext(context.Background(), n) }

// NewPlanContext is NewPlan that gives up with ctx.Err() when ctx ends.
func NewPlanContext(ctx context.Context, n int) (*Plan, error) {
	return newPlan(ctx, n, -1)
}

// newPlan is NewPlanContext with forceCut cut lines in every row set, or
// the matcher's choice if forceCut < 0 (the tests try both).
func newPlan(ctx context.Context, n int, forceCut int) (*Plan, error) {
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("qjoin: n=%d out of range %d..%d", n, MinN, MaxN)
	}
	stop := func() bool { return ctx.Err() != nil }
	g := newGeom(n)
	t, ok := newCellCounts(g, stop)
	if !ok {
		return nil, ctx.Err()
	}
	p := &Plan{N: n, g: g, t: t, forceCut: forceCut}
	k := n - g.h // |R|: the width of the East half
	cm := newCostModel(g, p.t)
	var rowsCost uint64
	for R := uint32(1)<<uint(k) - 1; R < 1<<uint(n); R = nextComb(R) {
		if reverse(R, n) < R {
			continue
		}
		if len(p.Subs)%1024 == 0 && stop() {
			return nil, ctx.Err()
		}
		c := cm.rowsCost(R)
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

// rowsCost estimates the work of row set R from the quarter pairs it tries
// on both sides (see candidates): the quarter joins cost about their
// number, the East–West matching about the product of the two halves'
// numbers, for which the product of the pair counts stands.
func (c *costModel) rowsCost(R uint32) uint32 {
	e, w := c.candidates(R)
	return uint32(min((e+w)/16+e*w/(1<<12)+1, 1<<31))
}

// costModel holds the cell sizes of the quadrants in the order that makes
// the pair counts of a row set dot products: for a North quadrant, by cell
// number; for a South one, the cell of the complementary column set.
type costModel struct {
	g                *geom
	t                *tables
	ne, nw, seC, swC []uint32
}

func newCostModel(g *geom, t *tables) *costModel {
	c := &costModel{g: g, t: t, ne: t.quads[qNE].sizes(), nw: t.quads[qNW].sizes()}
	c.seC = complementSizes(&t.quads[qSE])
	c.swC = complementSizes(&t.quads[qSW])
	return c
}

// complementSizes returns, at base[r]+rank[C], the size of cell (r, ~C) of
// the South quadrant t, for the column sets C of size cols-|r|.
func complementSizes(t *quadTable) []uint32 {
	full := uint32(1)<<uint(t.qg.cols) - 1
	out := make([]uint32, t.cells())
	for r := range 1 << uint(t.qg.rows) {
		k := t.qg.cols - bits.OnesCount32(uint32(r))
		if k < 0 {
			continue
		}
		forCombs(uint32(t.qg.cols), k, func(C uint32) {
			lo, _, hi := t.cell(uint32(r), full^C)
			out[int(t.base[r]+t.rank[C])] = hi - lo
		})
	}
	return out
}

// candidates counts the quarter pairs that row set R tries: NE×SE for the
// East half, NW×SW for the West half.
func (c *costModel) candidates(R uint32) (east, west uint64) {
	g := c.g
	h := g.h
	nMask := uint32(1)<<uint(h) - 1
	W := ^R & (1<<uint(g.n) - 1)
	t := &c.t.quads
	east = dot(c.ne, c.seC, &t[qNE], &t[qSE], R&nMask, R>>uint(h))
	west = dot(c.nw, c.swC, &t[qNW], &t[qSW], W&nMask, W>>uint(h))
	return east, west
}

// dot is Σ over the column sets C of the North cells of row set rn of
// |north(rn, C)|·|south(rs, ~C)|.
func dot(north, southC []uint32, nt, st *quadTable, rn, rs uint32) uint64 {
	a := north[nt.base[rn]:nt.base[rn+1]]
	b := southC[st.base[rs]:st.base[rs+1]]
	b = b[:len(a)]
	var sum uint64
	for i, x := range a {
		sum += uint64(x) * uint64(b[i])
	}
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
