package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// The lab endpoints: the trace of a teaching search to replay, the counters of the four
// teaching searches, and the Las Vegas cost against m.

// Event kinds of a trace, as the first number of each event.
const (
	evPlace = iota
	evRemove
	evConflict
	evSolution
)

var eventKinds = [4]string{"place", "remove", "conflict", "solution"}

type traceResponse struct {
	Search  string `json:"search"`
	Title   string `json:"title"`
	Section string `json:"section"` // of the algorithm's description in the project's spec
	N       int    `json:"n"`
	Until   string `json:"until"` // "first" solution or "all"
	// Kinds names the event kinds; each event is [kind, row, column], 1-based (0, 0 for
	// a solution), in search order.
	Kinds  [4]string  `json:"kinds"`
	Events [][3]int32 `json:"events"`
	// Stopped says why the events end: "first solution", "event limit", or "" when the
	// search ran to its end.
	Stopped string `json:"stopped"`
	// The counters after the last event: a node is a call of the search function (the
	// root and one per place event), a check a test of a square (one per place or
	// conflict event). When the search ran to its end they are its exact counters.
	Solutions int64 `json:"solutions"`
	Nodes     int64 `json:"nodes"`
	Checks    int64 `json:"checks"`
	Verified  bool  `json:"verified"` // every solution event's board passed Verify
}

// recorder is the lab.Tracer that records a trace, up to max events or the first
// solution, and cancels the search there.
type recorder struct {
	events                       [][3]int32
	max                          int
	first                        bool
	cancel                       context.CancelFunc
	stopped                      string
	board                        nqueens.Placement // column per row, -1 when empty
	places, conflicts, solutions int64
	bad                          error // a solution event whose board is not a solution
}

func newRecorder(n, max int, first bool, cancel context.CancelFunc) *recorder {
	t := &recorder{max: max, first: first, cancel: cancel, board: make(nqueens.Placement, n)}
	for i := range t.board {
		t.board[i] = -1
	}
	return t
}

// add records an event and reports whether it was recorded.
func (t *recorder) add(kind, row, col int) bool {
	if t.stopped != "" {
		return false // the search runs on until it next polls the context
	}
	if len(t.events) == t.max {
		t.stop("event limit")
		return false
	}
	t.events = append(t.events, [3]int32{int32(kind), int32(row + 1), int32(col + 1)})
	return true
}

func (t *recorder) stop(why string) {
	t.stopped = why
	t.cancel()
}

func (t *recorder) Place(row, col int) {
	if t.add(evPlace, row, col) {
		t.board[row] = int32(col)
		t.places++
	}
}

func (t *recorder) Remove(row, col int) {
	if t.add(evRemove, row, col) {
		t.board[row] = -1
	}
}

func (t *recorder) Conflict(row, col int) {
	if t.add(evConflict, row, col) {
		t.conflicts++
	}
}

func (t *recorder) Solution() {
	if !t.add(evSolution, -1, -1) {
		return
	}
	t.solutions++
	if err := nqueens.Verify(t.board); err != nil && t.bad == nil {
		t.bad = fmt.Errorf("internal error: solution %d of the trace is not one: %w", t.solutions, err)
	}
	if t.first {
		t.stop("first solution")
	}
}

func (s *server) trace(r *http.Request) (job, error) {
	p := newParams(r)
	name := p.oneOf("search", "row", "classic", "row", "cell", "cellprune")
	n := p.size(s.opt.MaxTraceN)
	until := p.oneOf("until", "first", "first", "all")
	maxEvents := int(p.int("events", int64(s.opt.MaxTraceEvents), 1, int64(s.opt.MaxTraceEvents)))
	if err := p.done(); err != nil {
		return nil, err
	}
	alg, _ := lab.LookupSearch(name)
	return func(ctx context.Context) (any, error) {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		t := newRecorder(n, maxEvents, until == "first", cancel)
		st, err := alg.Run(sctx, n, t)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil && !(errors.Is(err, context.Canceled) && t.stopped != ""):
			return nil, err
		case t.bad != nil:
			return nil, t.bad
		}
		out := traceResponse{Search: alg.Name, Title: alg.Title, Section: alg.Section, N: n, Until: until,
			Kinds: eventKinds, Events: t.events, Stopped: t.stopped,
			Solutions: t.solutions, Nodes: 1 + t.places, Checks: t.places + t.conflicts, Verified: true}
		if t.stopped == "" && (out.Nodes != st.Nodes || out.Checks != st.Checks || out.Solutions != st.Solutions) {
			return nil, fmt.Errorf("internal error: the trace counts %d nodes, %d checks, %d solutions; the search %d, %d, %d",
				out.Nodes, out.Checks, out.Solutions, st.Nodes, st.Checks, st.Solutions)
		}
		return out, nil
	}, nil
}

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
