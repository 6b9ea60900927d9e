package web

import (
	"context"
	"errors"
	"net/http"

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
// exact, or sampled with the request's trials and seed and a budget of sweepBudget checks
// per run. The defaults are the command's, the library's: lab.DefaultVariant,
// lab.DefaultObjective, lab.DefaultTrials, and a random seed, which the table gives back.
func (s *server) labLasVegas(r *http.Request) (job, error) {
	p := newParams(r)
	variant := parsed(p, "variant", lab.DefaultVariant, lab.ParseVariant)
	exact := p.bool("exact", false)
	limit := s.opt.MaxSweepN
	if exact {
		limit = map[lab.Variant]int{lab.Row: maxExactRowN, lab.Cell: maxExactCellN}[variant]
	}
	n := p.size(limit)
	objective := parsed(p, "objective", lab.DefaultObjective, lab.ParseObjective)
	trials := int(p.int("trials", lab.DefaultTrials, 1, int64(s.opt.MaxTrials)))
	seed := p.seed()
	if err := p.done(); err != nil {
		return nil, err
	}
	q := r.URL.Query()
	switch {
	case exact && (q.Has("trials") || q.Has("seed")):
		return nil, badRequest("exact=true and trials or seed exclude each other: exact=true enumerates every random choice instead of sampling runs")
	case exact && objective == lab.ByTime:
		return nil, badRequest("exact=true and objective=time exclude each other: the exact table has no time (its objectives are explored and checks)")
	}
	opt := lab.LasVegasOptions{Exact: exact, Variant: variant, Objective: objective}
	if !exact {
		opt.Trials, opt.Seed, opt.MaxChecks = trials, seed, sweepBudget
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
