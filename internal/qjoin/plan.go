package qjoin

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Version names the decomposition and the weights of this engine. A change
// of either must change it, so that partial results saved per sub-problem
// are never mixed across versions.
const Version = "qjoin/v3"

// MinN and MaxN bound the boards the engine counts. Below 4 there is no
// quadrant to speak of. Up to 29 the entry words keep their line bits
// below the flags (56 bits at n = 29) and a row set fits the uint32 of
// Sub.Rows; Q(29) ≈ 3·10^19 and its Burnside numerator are above 2^64, so
// the sums of many sub-problems are 128-bit (Totals), while one
// sub-problem's count fits a uint64.
const (
	MinN = 4
	MaxN = 29
)

// tablesMaxN is the largest n whose count builds the whole quarter tables
// (600 MB at n = 21), shared by the workers; beyond, each worker builds
// the slices of its row sets (slice.go).
const tablesMaxN = 21

// TablesMaxN is tablesMaxN: the largest n whose count builds the whole
// quarter tables once, before any sub-problem.
const TablesMaxN = tablesMaxN

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
	// Piece is, in a plan whose row sets are cut in pieces (Pieces() > 1),
	// which of R's: the solutions whose NE quarter holds a column set of
	// the piece's colex ranks (see piece).
	Piece uint16
	// Cost is a relative work estimate, for progress and sharding.
	Cost uint32
}

// Plan is the deterministic, ordered list of sub-problems of an n×n board:
// the two Burnside searches (ids 0 and 1), then the canonical East row sets
// in colex order. It holds 4 bytes per row set (155 MB at n = 29) and a
// cost per row set (up to countedMaxN) or per class (beyond).
type Plan struct {
	N int
	// TotalCost is the sum of the costs of the sub-problems.
	TotalCost uint64
	// CostUnit is the modelled time of one unit of cost, in nanoseconds
	// of one core of the machines the model was fitted on.
	CostUnit float64

	rows      []uint32 // the row sets, by id-2
	costs     []uint32 // the cost of each sub-problem, by id; or nil and
	fixCost   [2]uint32
	classCost []uint32 // the cost of each class of row sets (see sampledCosts)

	g  *geom
	o  planOptions
	mu sync.Mutex // guards t.quads[*].words and built
	t  *tables    // cell counts from NewPlan; the entries once built
	// built is set when the entries of t are filled.
	built bool
	// entries is the number of quarter-table entries, counted by NewPlan.
	entries uint64
}

// NewPlan lists the sub-problems of an n×n board, MinN ≤ n ≤ MaxN, with
// their costs: up to countedMaxN from a counting pass of the quarter
// tables (a few milliseconds at n=18, 1.5 s at n=22, 5.7 s at n=23), beyond
// from samples of each class of row sets (10 s at n=27).
func NewPlan(n int) (*Plan, error) { return NewPlanContext(context.Background(), n) }

// NewPlanContext is NewPlan that gives up with ctx.Err() when ctx ends.
func NewPlanContext(ctx context.Context, n int) (*Plan, error) {
	return newPlan(ctx, n, defaultOptions(n))
}

// planOptions are the settings of a plan's count: what the engine does by
// default (defaultOptions), and what the tests force to reach every path
// at small n.
type planOptions struct {
	// forceCut, if ≥ 0, is the number of cut lines of every row set; the
	// matcher's choice if < 0.
	forceCut int
	// slices: the workers build the quarter slices of each row set (slice.go)
	// instead of sharing the whole tables (n > tablesMaxN by default).
	slices bool
	// joinChunk bounds the quarter pairs joined into the East buffer at
	// once.
	joinChunk int
	// westCap bounds the West words of a row set held at once (32 MB by
	// default): past it they are counted in batches, the cut lines chosen
	// from the first.
	westCap int
	// eastCap bounds the East words of a row set matched at once (with
	// their chunk tables, about 50 bytes each): past it the row set is
	// counted in parts, each against all the West words (eastSplit).
	eastCap int
	// smallEast, cutBeyond and stepPairs: see matcher.
	smallEast, cutBeyond, stepPairs int
	// probe, when set (by a benchmark), hears every call of a count kernel: see
	// matcher.probe.
	probe func(*kernelCall)
	// tableMax, if > 0, is the most West halves a table holds in place
	// of the memory estimate's (tableBudget); the tests set it.
	tableMax int
	// westTable, when set (by a test), hears every piece of a West batch
	// that the cost model takes as the table (westPieces): the batch's
	// halves and the piece's.
	westTable func(halves, piece int)
	// westRestricted: the West half is the restricted one (see geom).
	westRestricted bool
	// sample: the classes' mean costs are sampled (sampledCosts) even
	// where knownClassMeans holds them; the tests set it.
	sample bool
	// orient: a row set whose halves all fit in one part and one batch
	// takes as the table the half the cost model says (else the East).
	orient bool
	// orientMin: the halves (East and West together) up to which a row
	// set keeps its East halves as the table without asking the cost
	// model; -1: the kernel's (impl.orientMin). The tests set 0.
	orientMin int
	// shared: the workers count one row set at a time, all of them on it
	// (shared.go).
	shared bool
	// pieces is the number of sub-problems each row set is cut into, by
	// the column sets of its NE quarter: 1 but from piecesMinN.
	pieces int
}

// defaultOptions are the settings of a count of n×n.
func defaultOptions(n int) planOptions {
	return planOptions{
		forceCut:  -1,
		slices:    n > tablesMaxN,
		joinChunk: 1 << 14,
		westCap:   1 << 22,
		eastCap:   1 << 21,
		smallEast: defaultSmallEast,
		cutBeyond: cutBeyondFor(n),
		stepPairs: defaultStepPairs,

		westRestricted: n%2 == 0 && n >= westRestrictedMinN,
		orient:         true,
		orientMin:      -1,
		shared:         n >= sharedMinN,
		pieces:         piecesFor(n),
	}
}

// cutBeyondFor is matcher.cutBeyond for n×n: defaultCutBeyond, 2 (so that
// a group of cut values holds a block on average at the most), but 4 for
// even n ≥ 26. On a part of n = 28 (2^21 East halves, 4,096 blocks) the
// model took the most lines it was offered with 2, 14 of them; offered 16
// it takes 16, and shards of 28 took 1.18 to 1.26 times less CPU, one of
// 26 1.11 times:
// there the table is the flagged East half, whose classes share a group's
// blocks (laneSplit), and a query meets fewer groups. Elsewhere 4 made
// shards of n = 22 5 to 8% slower and changed nothing measurable at 25,
// 27 and 29 (odd n: the table is the restricted East, one class) (issue
// 38).
func cutBeyondFor(n int) int {
	if n%2 == 0 && n >= 26 {
		return 4
	}
	return defaultCutBeyond
}

// piecesMinN is the smallest n whose row sets are cut in pieces: at n = 29
// a row set takes an hour or two of a core, a piece a quarter of that, so
// that a shard of a few sub-problems stays within half an hour on 2 cores.
const piecesMinN = 29

// piecesFor is the number of pieces of a row set of n×n.
func piecesFor(n int) int {
	if n >= piecesMinN {
		return 4
	}
	return 1
}

// westRestrictedMinN is the smallest even n whose plans restrict the West
// half; the others restrict the East. For even n the two are mirror images,
// but a row set with more East or West halves than one part or one batch
// takes its East halves as the table, and the table is best the larger
// half: the unrestricted one (at n = 26, 14% fewer kernel loads than with
// the East restricted). For odd n the East half is the wider: restricting
// it balances the halves, and restricting the West made the East three
// times larger, to 15% fewer loads at n = 25 for no gain in time (the
// tables' build and the halves' generation) and a loss below.
const westRestrictedMinN = 20

// newPlan is NewPlanContext with the options o (from defaultOptions: a
// zero cap would count nothing).
func newPlan(ctx context.Context, n int, o planOptions) (*Plan, error) {
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("qjoin: n=%d out of range %d..%d", n, MinN, MaxN)
	}
	stop := func() bool { return ctx.Err() != nil }
	g := newGeom(n, o.westRestricted)
	o.slices = o.slices || n > tablesMaxN
	p := &Plan{N: n, g: g, o: o}
	if !p.listRows(stop) {
		return nil, ctx.Err()
	}
	cost, mean, ok := p.rowSetCosts(stop)
	if !ok {
		return nil, ctx.Err()
	}
	if p.o.slices && p.t.quads[0].idx != nil {
		// The workers build their own slices: only the cell numbering is
		// kept.
		for q := range p.t.quads {
			p.t.quads[q].idx = nil
		}
	}
	p.setCosts(cost, mean)
	return p, nil
}

// listRows lists the canonical row sets in p.rows: half of them, and half
// of the symmetric ones again. It returns false if stop was seen set.
func (p *Plan) listRows(stop func() bool) bool {
	n := p.N
	k := n - p.g.h // |R|: the width of the East half
	rows := (combinations(n, k) + uint64(symmetricRowSets(n))) / 2
	p.rows = make([]uint32, 0, rows)
	for R := uint32(1)<<uint(k) - 1; R < 1<<uint(n); R = nextComb(R) {
		if reverse(R, n) < R {
			continue
		}
		if len(p.rows)%(1<<16) == 0 && stop() {
			return false
		}
		p.rows = append(p.rows, R)
	}
	return true
}

// rowSetCosts sets the plan's cell table p.t and returns the cost of
// sub-problem i ≥ 2 (a row set's piece) in nanoseconds (see rowCost):
// counted for each row set up to countedMaxN, beyond it sampled by class,
// mean holding a piece's share by class. ok is false if stop was seen set.
func (p *Plan) rowSetCosts(stop func() bool) (cost func(i int) float64, mean []float64, ok bool) {
	pieces := p.o.pieces
	if p.N > countedMaxN {
		p.t = newCellNumbers(p.g)
		if known := knownClassMeans[classMeansKey{p.N, p.g.westRestricted}]; known != nil && !p.o.sample {
			mean = slices.Clone(known)
		} else if mean, ok = sampledCosts(p, stop); !ok {
			return nil, nil, false
		}
		for k := range mean {
			mean[k] /= float64(pieces) // a piece's share
		}
		return func(i int) float64 { return mean[p.class(p.rows[(i-2)/pieces])] }, mean, true
	}
	t, ok := newCellCounts(p.g, stop)
	if !ok {
		return nil, nil, false
	}
	p.t = t
	costs := make([]float64, len(p.rows))
	cm := newCostModel(p.g, t)
	for i, R := range p.rows {
		if i%4096 == 0 && stop() {
			return nil, nil, false
		}
		costs[i] = rowCost(cm.candidates(R))
	}
	p.entries = t.entries()
	return func(i int) float64 { return costs[(i-2)/pieces] / float64(pieces) }, nil, true
}

// setCosts stores the sub-problems' costs, the row sets' (rowsCost, by
// class when mean is not nil) and the Burnside searches', in units of
// p.CostUnit nanoseconds that fit a uint32, and their sum p.TotalCost.
func (p *Plan) setCosts(rowsCost func(i int) float64, mean []float64) {
	// The Burnside searches: S180 took 0.38 s at n = 20 and 4.0 s at n =
	// 22 (about 10 times more every two steps, odd n a little less), S90
	// a thousandth of that.
	fix := 0.4e9 * math.Pow(10, float64(p.N-20)/2)
	cost := func(i int) float64 {
		switch i {
		case 0:
			return fix
		case 1:
			return fix / 1000
		}
		return rowsCost(i)
	}
	most := max(fix, cost(1))
	if mean != nil {
		for _, c := range mean {
			most = max(most, c)
		}
	} else {
		for i := 2; i < p.Len(); i++ {
			most = max(most, cost(i))
		}
	}
	scale := max(1, most/(1<<30))
	p.CostUnit = scale
	units := func(c float64) uint32 { return uint32(max(1, min(c/scale, 1<<31))) }
	p.fixCost = [2]uint32{units(cost(0)), units(cost(1))}
	if mean != nil {
		p.classCost = make([]uint32, len(mean))
		for k, c := range mean {
			p.classCost[k] = units(c)
		}
	} else {
		p.costs = make([]uint32, p.Len())
		for i := range p.costs {
			p.costs[i] = units(cost(i))
		}
	}
	for i := 0; i < p.Len(); i++ {
		p.TotalCost += uint64(p.Cost(i))
	}
}

// Len is the number of sub-problems.
func (p *Plan) Len() int { return p.o.pieces*len(p.rows) + 2 }

// Pieces is the number of sub-problems of a row set.
func (p *Plan) Pieces() int { return p.o.pieces }

// class is the class of row set R: its number of rows in the North.
func (p *Plan) class(R uint32) int { return bits.OnesCount32(R & (1<<uint(p.g.h) - 1)) }

// Cost is the cost of sub-problem i, in units of CostUnit.
func (p *Plan) Cost(i int) uint32 {
	switch {
	case i < 2:
		return p.fixCost[i]
	case p.costs != nil:
		return p.costs[i]
	}
	return p.classCost[p.class(p.rows[(i-2)/p.o.pieces])]
}

// Sub is sub-problem i, 0 ≤ i < Len().
func (p *Plan) Sub(i int) Sub {
	switch i {
	case 0:
		return Sub{Kind: KindFix180, Cost: p.Cost(0)}
	case 1:
		return Sub{Kind: KindFix90, Cost: p.Cost(1)}
	}
	j := i - 2
	return Sub{Kind: KindRows, Rows: p.rows[j/p.o.pieces], Piece: uint16(j % p.o.pieces), Cost: p.Cost(i)}
}

// symmetricRowSets is the number of East row sets equal to their mirror
// image: those of n-n/2 rows out of n symmetric about the middle.
func symmetricRowSets(n int) int {
	k := n - n/2
	if n%2 == 0 {
		if k%2 == 1 {
			return 0
		}
		return int(combinations(n/2, k/2))
	}
	// Odd n: the middle row, and pairs of mirrored rows.
	c := 0
	for mid := 0; mid <= 1; mid++ {
		if (k-mid)%2 == 0 {
			c += int(combinations(n/2, (k-mid)/2))
		}
	}
	return c
}

// countedMaxN is the largest n whose plan counts the entries of every
// cell of the quarter tables (5.7 s for 671 million entries at n = 23),
// for the exact quarter pairs of each row set; beyond, the cost of a row
// set is the mean of its class, measured on a few row sets of the class
// (sampledCosts).
const countedMaxN = 21

// rowCost models the time in nanoseconds of a row set whose East and West
// halves come from e and w quarter pairs: the quarter joins cost about
// their number, the East–West matching grows as (e·w)^0.75, the cut lines
// taking a larger share of the pairs out of the larger row sets. Fitted on
// the row sets of n = 20 (every 16th) and 21 (every 128th) with the
// AVX-512 kernel, it is within 10% of the measured time on each fifth of
// the row sets by e·w (the product alone was off by 70% on the smallest).
func rowCost(e, w uint64) float64 {
	return 2*float64(e+w) + 0.04*math.Pow(float64(e)*float64(w), 0.75)
}

// sampledCosts returns the mean cost (rowCost) of each class of row sets,
// those with as many rows in the North (by that number): the classes differ
// by 10^4 in cost, the row sets of a class by a few times. The mean of a
// class is taken over sampledPerClass of its row sets, evenly spaced in the
// plan, their quarter pairs counted from their slices. False if stop said
// so.
func sampledCosts(p *Plan, stop func() bool) ([]float64, bool) {
	g := p.g
	h := g.h
	nMask := uint32(1)<<uint(h) - 1
	class := func(R uint32) int { return bits.OnesCount32(R & nMask) }
	size := make([]int, h+1)
	for _, R := range p.rows {
		size[class(R)]++
	}
	// The ordinals within its class of the row sets to sample, in order.
	want := make([][]int, h+1)
	for k, m := range size {
		for j := 0; j < min(m, sampledPerClass); j++ {
			want[k] = append(want[k], (2*j+1)*m/(2*min(m, sampledPerClass)))
		}
	}
	seen := make([]int, h+1)
	sum := make([]float64, h+1)
	sl := newSlicers(g, p.t, true, false) // the quarter pairs need only the cells' sizes
	for _, R := range p.rows {
		k := class(R)
		o := seen[k]
		seen[k]++
		if len(want[k]) == 0 || want[k][0] != o {
			continue
		}
		want[k] = want[k][1:]
		if stop() {
			return nil, false
		}
		W := ^R & (1<<uint(g.n) - 1)
		ne, se := sl[qNE].get(R&nMask), sl[qSE].get(R>>uint(h))
		e := viewDot(&ne, &se, uint32(g.n-h), k)
		nw, sw := sl[qNW].get(W&nMask), sl[qSW].get(W>>uint(h))
		w := viewDot(&nw, &sw, uint32(h), class(W))
		sum[k] += rowCost(e, w)
	}
	for k, m := range size {
		if m > 0 {
			sum[k] /= float64(min(m, sampledPerClass))
		}
	}
	return sum, true
}

// classMeansKey names a plan's geometry: n and which half is restricted.
type classMeansKey struct {
	n              int
	westRestricted bool
}

// sampledPerClass is the number of row sets per class whose cost
// sampledCosts measures.
const sampledPerClass = 4

// viewDot is Σ over the k-subsets C of the w columns of |north(C)|·
// |south(~C)|: the quarter pairs of a half.
func viewDot(north, south *cellView, w uint32, k int) uint64 {
	full := uint32(1)<<w - 1
	var sum uint64
	forCombs(w, k, func(C uint32) {
		lo, _, hi := north.cell(C)
		slo, _, shi := south.cell(full ^ C)
		sum += uint64(hi-lo) * uint64(shi-slo)
	})
	return sum
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
