package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// The lab endpoints: the tables of the four teaching searches and of the Las Vegas cost
// against m. (The replays are in replay.go.)

// labBacktrack answers the table of "nqueens lab backtrack N --json": the four teaching
// searches' counters, times and ratios (lab.BacktrackTable).
func (s *server) labBacktrack(r *http.Request) (job, error) {
	p := newParams(r)
	n := p.size(s.opt.MaxLabN)
	if err := p.done(); err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) {
		return lab.Backtrack(ctx, n, lab.BacktrackOptions{})
	}, nil
}

// labLasVegas answers the table of "nqueens lab lasvegas N --json" (lab.LasVegasTable):
// exact, or sampled with the page's trials and seed and a budget of sweepBudget checks per
// run; its optimum follows the objective, by default the nodes explored.
func (s *server) labLasVegas(r *http.Request) (job, error) {
	p := newParams(r)
	variant := p.oneOf("variant", "row", "row", "cell")
	exact := p.bool("exact", false)
	limit := s.opt.MaxSweepN
	if exact {
		limit = map[string]int{"row": maxExactRowN, "cell": maxExactCellN}[variant]
	}
	n := p.size(limit)
	objective := "explored"
	if exact {
		objective = p.oneOf("objective", objective, "explored", "checks")
	} else {
		objective = p.oneOf("objective", objective, "explored", "checks", "time")
	}
	trials := int(p.int("trials", 30, 1, int64(s.opt.MaxTrials)))
	seed := p.int("seed", 1, 0, maxSeed)
	if err := p.done(); err != nil {
		return nil, err
	}
	if q := r.URL.Query(); exact && (q.Has("trials") || q.Has("seed")) {
		return nil, badRequest("trials and seed are for a sampled table: exact=true enumerates every random choice")
	}
	if n == 2 || n == 3 {
		return nil, fmt.Errorf("n = %d: %w", n, nqueens.ErrNoSolution)
	}
	opt := lab.LasVegasOptions{Exact: exact}
	opt.Variant, _ = lab.ParseVariant(variant)
	opt.Objective, _ = lab.ParseObjective(objective)
	if !exact {
		opt.Trials, opt.Seed, opt.MaxChecks = trials, uint64(seed), sweepBudget
	}
	return func(ctx context.Context) (any, error) {
		t, err := lab.LasVegas(ctx, n, opt)
		if errors.Is(err, lab.ErrTooLarge) {
			return nil, badRequest("%v", err)
		}
		if err != nil {
			return nil, err
		}
		return t, nil
	}, nil
}
