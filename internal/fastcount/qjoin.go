package fastcount

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/internal/qjoin"
)

// The quadrant join (internal/qjoin) counts 10 ≤ n ≤ qjoin.MaxN many
// times faster than the constellations: its plan lists row sets of the
// East half and two Burnside searches instead of border queens. A Plan of
// that engine shows the qjoin plan's sub-problems one for one (same ids,
// same costs; Sub and Cost read them from it) and hands the counting to
// qjoin's own pool.

// minQJoinN is the smallest n that EngineAuto counts with the quadrant
// join: from there on it measured faster than the constellations (at 8 and
// 9 both take well under a millisecond).
const minQJoinN = 10

// MinQJoinN is minQJoinN: with qjoin.MaxN it bounds the boards a count runs as a
// quadrant join, the range the README and docs/counting.md state (TestDocLimits).
const MinQJoinN = minQJoinN

// useQJoin tells whether engine e plans an n×n board as a quadrant join.
func useQJoin(e Engine, n int) bool {
	switch e {
	case EngineQJoin:
		return n >= qjoin.MinN && n <= qjoin.MaxN
	case EngineAuto:
		return n >= minQJoinN && n <= qjoin.MaxN
	}
	return false
}

// newQJoinPlan is the plan of the quadrant join for n.
func newQJoinPlan(ctx context.Context, n int) (*Plan, error) {
	q, err := qjoin.NewPlanContext(ctx, n)
	if err != nil {
		return nil, err
	}
	return &Plan{N: n, q: q, TotalCost: q.TotalCost}, nil
}

// qjoinSub is sub-problem i of a quadrant-join plan.
func (p *Plan) qjoinSub(i int) Sub {
	s := p.q.Sub(i)
	k := KindRows
	switch s.Kind {
	case qjoin.KindFix180:
		k = KindFix180
	case qjoin.KindFix90:
		k = KindFix90
	}
	return Sub{Kind: k, Rows: s.Rows, Piece: s.Piece, Stab: 1, Cost: s.Cost}
}

// checkEngine tells whether Count may run the plan with engine e.
func (p *Plan) checkEngine(e Engine) error {
	switch {
	case p.q != nil && e != EngineAuto && e != EngineQJoin:
		return fmt.Errorf("fastcount: engine %v cannot count a quadrant-join plan", e)
	case p.q == nil && e == EngineQJoin:
		return fmt.Errorf("fastcount: engine %v cannot count a constellation plan", e)
	}
	return nil
}
