package fastcount

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/nqueens/nqueens/internal/qjoin"
)

// EngineVersion names the constellation decomposition and what its
// sub-problems report (v2: the Burnside numerator instead of a unique
// count). It is part of Plan.Hash, so saved partial results are never
// merged across versions. Plans of the quadrant join carry qjoin.Version
// instead; Plan.Version says which.
const EngineVersion = "fastcount/constellations-v2"

// MaxN is the largest board size the engines accept: the quadrant join's
// (the constellations' masks are uint64 and the dr frame preloads lines up
// to 2n-2, so n ≤ 32 would fit them structurally).
const MaxN = qjoin.MaxN

// minConstellationN is the smallest n solved by border constellations;
// smaller boards are one "whole board" sub-problem solved by plain search.
const minConstellationN = 4

// Kind tells how a sub-problem relates its pre-placed queens to the board.
type Kind uint8

const (
	// KindWhole is the whole board, searched plainly (tiny n only).
	KindWhole Kind = iota
	// KindCorner has a queen on the corner (0,0): it is the top and the left
	// queen at once. Bottom column < right row picks one of the transposed pair.
	KindCorner
	// KindBorder has four distinct border queens, none on a corner.
	KindBorder
	// KindRows is a sub-problem of the quadrant join (qjoin.KindRows): the
	// solutions whose East half holds its queens in the rows of Rows.
	KindRows
	// KindFix180 counts the solutions fixed by the half turn (quadrant
	// join plans, for the unique count).
	KindFix180
	// KindFix90 counts the solutions fixed by the quarter turn.
	KindFix90
)

// Sub is one independent sub-problem: for the constellation kinds, the four
// border queens (one in row 0, one in row n-1, one in column 0, one in
// column n-1) fixed, the inner rows left to search (for KindCorner, Top =
// Left = 0); for the quadrant join, a row set of the East half (KindRows)
// or a Burnside search (KindFix180, KindFix90).
type Sub struct {
	Top    int8 // column of the queen in row 0
	Bottom int8 // column of the queen in row n-1
	Left   int8 // row of the queen in column 0
	Right  int8 // row of the queen in column n-1
	Kind   Kind
	// Stab is the size of the rotation subgroup that maps this set of border
	// queens to itself: 1, 2 (half turn) or 4 (quarter turn). No reflection
	// fixes a valid border set for n > 1, so the orbit has 8/Stab members.
	Stab uint8
	// Rows is the East row set of a KindRows sub-problem, and Piece which
	// of its pieces (see qjoin.Sub).
	Rows  uint32
	Piece uint16
	// Cost is a rough relative work estimate, for progress and sharding.
	Cost uint32
}

// Weight is the number of border sets in this sub-problem's symmetry class;
// every solution counted in the sub-problem stands for Weight solutions.
func (s Sub) Weight() uint64 { return 8 / uint64(s.Stab) }

// Plan is the deterministic, ordered list of independent sub-problems for n.
// Sub-problem ids are their indices; they are stable for a given Hash.
type Plan struct {
	N int
	// Subs are the sub-problems of a constellation plan; a quadrant-join
	// plan keeps its own (see Sub).
	Subs []Sub
	// TotalCost is the sum of the sub-problems' Cost.
	TotalCost uint64

	layoutOnce sync.Once
	layouts    []layout // see joinLayouts

	// q is the quadrant-join plan that the Subs mirror, for plans of
	// EngineQJoin (qjoin.go); nil for constellations.
	q *qjoin.Plan
}

// NewPlan lists the sub-problems of an n×n board for the engine that
// EngineAuto picks: the quadrant join from minQJoinN to qjoin.MaxN, else
// border constellations.
func NewPlan(n int) (*Plan, error) { return NewPlanEngine(n, EngineAuto) }

// NewPlanEngine lists the sub-problems of an n×n board for engine e: the
// quadrant join for EngineQJoin (qjoin.MinN ≤ n ≤ qjoin.MaxN) and, by n,
// for EngineAuto; border constellations otherwise. EngineSearch and
// EngineJoin give the same constellation plan, counted differently.
func NewPlanEngine(n int, e Engine) (*Plan, error) {
	return NewPlanContext(context.Background(), n, e)
}

// NewPlanContext is NewPlanEngine that gives up with ctx.Err() when ctx
// ends (planning the quadrant join takes up to a second at n=21).
func NewPlanContext(ctx context.Context, n int, e Engine) (*Plan, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("fastcount: n=%d out of range 1..%d", n, MaxN)
	}
	if useQJoin(e, n) {
		return newQJoinPlan(ctx, n)
	}
	if e == EngineQJoin {
		return nil, fmt.Errorf("fastcount: the quadrant join counts n=%d..%d, not %d", qjoin.MinN, qjoin.MaxN, n)
	}
	return newConstellationPlan(n)
}

// newConstellationPlan enumerates the canonical border constellations of
// an n×n board.
func newConstellationPlan(n int) (*Plan, error) {
	p := &Plan{N: n}
	if n < minConstellationN {
		p.Subs = []Sub{{Kind: KindWhole, Stab: 1, Cost: 1}}
		p.TotalCost = 1
		return p, nil
	}
	last := n - 1
	// Corner family: queen at (0,0), bottom queen (n-1,b), right queen (d,n-1).
	// The transpose swaps b and d; b == d is an attack, so b < d is canonical.
	// These never have rotational symmetry (a rotation moves the corner).
	for b := 1; b < last; b++ {
		for d := b + 1; d < last; d++ {
			p.Subs = append(p.Subs, Sub{Top: 0, Bottom: int8(b), Left: 0, Right: int8(d),
				Kind: KindCorner, Stab: 1})
		}
	}
	// Border family: all four queens off the corners. Keep the tuple that is
	// the smallest of its 8 images.
	for a := 1; a < last; a++ {
		for b := 1; b < last; b++ {
			if b == a {
				continue
			}
			for c := 1; c < last; c++ {
				for d := 1; d < last; d++ {
					if d == c {
						continue
					}
					t := tuple{a, b, c, d}
					if !t.valid(n) {
						continue
					}
					canon, stab := t.canonical(n)
					if !canon {
						continue
					}
					p.Subs = append(p.Subs, Sub{Top: int8(a), Bottom: int8(b), Left: int8(c),
						Right: int8(d), Kind: KindBorder, Stab: uint8(stab)})
				}
			}
		}
	}
	for i := range p.Subs {
		p.Subs[i].Cost = estimateCost(n, p.Subs[i])
		p.TotalCost += uint64(p.Subs[i].Cost)
	}
	return p, nil
}

// estimateCost is a crude work estimate: corner sub-problems search one more
// free row than border ones, which multiplies the tree by roughly n/3.
func estimateCost(n int, s Sub) uint32 {
	if s.Kind == KindCorner {
		return uint32(max(1, n/3))
	}
	return 1
}

// Version names the engine generation of the plan: EngineVersion for
// constellations, qjoin.Version for the quadrant join.
func (p *Plan) Version() string {
	if p.q != nil {
		return qjoin.Version
	}
	return EngineVersion
}

// HasKernel tells whether the plan's sub-problems are counted by a matcher
// kernel (qjoin.Kernel): those of the quadrant join are, the constellations
// are not.
func (p *Plan) HasKernel() bool { return p.q != nil }

// Len is the number of sub-problems.
func (p *Plan) Len() int {
	if p.q != nil {
		return p.q.Len()
	}
	return len(p.Subs)
}

// Sub is sub-problem i, 0 ≤ i < Len().
func (p *Plan) Sub(i int) Sub {
	if p.q != nil {
		return p.qjoinSub(i)
	}
	return p.Subs[i]
}

// Cost is the estimated cost of sub-problem i.
func (p *Plan) Cost(i int) uint32 {
	if p.q != nil {
		return p.q.Cost(i)
	}
	return p.Subs[i].Cost
}

// CostUnit is the modelled time of one unit of cost, in nanoseconds of one
// core; 0 for constellation plans, whose costs are relative only.
func (p *Plan) CostUnit() float64 {
	if p.q != nil {
		return p.q.CostUnit
	}
	return 0
}

// Hash is a stable hex digest of the engine version, n and the sub-problem
// list, so that results saved per sub-problem id can be checked before reuse.
func (p *Plan) Hash() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\nn=%d\nsubs=%d\n", p.Version(), p.N, p.Len())
	if p.q != nil {
		// The row sets, 4 bytes each, little-endian, after the two
		// searches' kinds; with pieces, the piece too.
		pieces := p.q.Pieces()
		if pieces > 1 {
			fmt.Fprintf(h, "pieces=%d\n", pieces)
		}
		buf := make([]byte, 0, 1<<16)
		for i := 0; i < p.Len(); i++ {
			s := p.q.Sub(i)
			buf = append(buf, byte(s.Kind), byte(s.Rows), byte(s.Rows>>8), byte(s.Rows>>16), byte(s.Rows>>24))
			if pieces > 1 {
				buf = append(buf, byte(s.Piece), byte(s.Piece>>8))
			}
			if len(buf) > 1<<16-8 {
				h.Write(buf)
				buf = buf[:0]
			}
		}
		h.Write(buf)
		return hex.EncodeToString(h.Sum(nil))
	}
	for _, s := range p.Subs {
		fmt.Fprintf(h, "%d %d %d %d %d %d\n", s.Kind, s.Top, s.Bottom, s.Left, s.Right, s.Stab)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// tuple is a border set (a,b,c,d): queens at (0,a), (n-1,b), (c,0), (d,n-1).
type tuple [4]int

// valid reports whether the four border queens are pairwise non-attacking.
func (t tuple) valid(n int) bool {
	q := t.queens(n)
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			if attacks(q[i], q[j]) {
				return false
			}
		}
	}
	return true
}

type square struct{ r, c int }

func attacks(x, y square) bool {
	return x.r == y.r || x.c == y.c || x.r-x.c == y.r-y.c || x.r+x.c == y.r+y.c
}

func (t tuple) queens(n int) [4]square {
	return [4]square{{0, t[0]}, {n - 1, t[1]}, {t[2], 0}, {t[3], n - 1}}
}

// symmetry g in 0..7 applied to square (r,c) of an n×n board: g&3 quarter
// turns, then a transpose if g&4.
func transform(g, n int, s square) square {
	for i := 0; i < g&3; i++ {
		s = square{s.c, n - 1 - s.r} // quarter turn clockwise
	}
	if g&4 != 0 {
		s = square{s.c, s.r}
	}
	return s
}

// image returns the border tuple of the queens moved by symmetry g. The four
// queens stay on the border (one per border line) because symmetries map
// border lines to border lines.
func (t tuple) image(g, n int) tuple {
	var u tuple
	for _, q := range t.queens(n) {
		s := transform(g, n, q)
		switch {
		case s.r == 0:
			u[0] = s.c
		case s.r == n-1:
			u[1] = s.c
		case s.c == 0:
			u[2] = s.r
		default: // s.c == n-1
			u[3] = s.r
		}
	}
	return u
}

func (t tuple) less(u tuple) bool {
	for i := range t {
		if t[i] != u[i] {
			return t[i] < u[i]
		}
	}
	return false
}

// canonical reports whether t is the smallest of its images, and the number
// of symmetries fixing it.
func (t tuple) canonical(n int) (bool, int) {
	stab := 0
	for g := 0; g < 8; g++ {
		u := t.image(g, n)
		if u.less(t) {
			return false, 0
		}
		if u == t {
			stab++
		}
	}
	return true, stab
}
