package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/classic"
	"github.com/nqueens/nqueens/internal/lasvegas"
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

// recorder is the classic.Tracer that records a trace, up to max events or the first
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
	alg, _ := classic.Lookup(name)
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

type labBacktrackResponse struct {
	N    int             `json:"n"`
	Rows []lab.SearchRow `json:"rows"`
}

func (s *server) labBacktrack(r *http.Request) (job, error) {
	p := newParams(r)
	n := p.size(s.opt.MaxLabN)
	if err := p.done(); err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) {
		out := labBacktrackResponse{N: n}
		for _, a := range lab.Searches() {
			r, err := lab.Measure(ctx, n, a)
			if err != nil {
				return nil, err
			}
			out.Rows = append(out.Rows, r)
		}
		return out, nil
	}, nil
}

// costRow is one value of m of the Las Vegas cost curve. Explored is Brassard & Bratley's
// nodes explored, Checks the squares tested, both per solution: expectations when exact,
// means over the runs otherwise (lower bounds when some runs were censored).
type costRow struct {
	M          int    `json:"m"`
	P          number `json:"p"` // success probability of one attempt
	Explored   number `json:"explored"`
	Checks     number `json:"checks"`
	ChecksSE   number `json:"checks_se,omitempty"`
	Censored   int    `json:"censored,omitempty"`
	Abandoned  bool   `json:"abandoned,omitempty"`
	LowerBound bool   `json:"lower_bound,omitempty"`
}

type lasVegasResponse struct {
	N       int       `json:"n"`
	Variant string    `json:"variant"`
	Exact   bool      `json:"exact"`
	Trials  int       `json:"trials,omitempty"`
	Seed    uint64    `json:"seed,omitempty"`
	Budget  int64     `json:"budget,omitempty"` // checks per run before it is censored
	Rows    []costRow `json:"rows"`
	// Optimum is the index in Rows of the least checks per solution (rows with censored
	// runs left out), -1 if none.
	Optimum int `json:"optimum"`
}

func (s *server) labLasVegas(r *http.Request) (job, error) {
	p := newParams(r)
	variant := p.oneOf("variant", "row", "row", "cell")
	exact := p.bool("exact", false)
	limit := s.opt.MaxSweepN
	if exact {
		limit = map[string]int{"row": maxExactRowN, "cell": maxExactCellN}[variant]
	}
	n := p.size(limit)
	trials := int(p.int("trials", 30, 1, int64(s.opt.MaxTrials)))
	seed := uint64(p.int("seed", 1, 0, maxSeed))
	if err := p.done(); err != nil {
		return nil, err
	}
	if n == 2 || n == 3 {
		return nil, fmt.Errorf("n = %d: %w", n, nqueens.ErrNoSolution)
	}
	v := map[string]lasvegas.Variant{"row": lasvegas.Row, "cell": lasvegas.Cell}[variant]
	return func(ctx context.Context) (any, error) {
		out := lasVegasResponse{N: n, Variant: variant, Exact: exact, Optimum: -1}
		if exact {
			rows, err := lasvegas.ExactTable(ctx, n, v, 0)
			if errors.Is(err, lasvegas.ErrTooLarge) {
				return nil, badRequest("%v", err)
			}
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				out.Rows = append(out.Rows, costRow{M: r.M, P: number(r.P), Explored: number(r.T), Checks: number(r.ChecksT)})
			}
		} else {
			out.Trials, out.Seed, out.Budget = trials, seed, sweepBudget
			res, err := lasvegas.Sweep(ctx, n, lasvegas.SweepOptions{Variant: v, Trials: trials, Seed: seed, MaxChecks: sweepBudget})
			if err != nil {
				return nil, err
			}
			for _, r := range res.Rows {
				out.Rows = append(out.Rows, costRow{M: r.M, P: number(r.P.Mean), Explored: number(r.Explored.Mean),
					Checks: number(r.Checks.Mean), ChecksSE: number(r.Checks.SE), Censored: r.Censored,
					Abandoned: r.Abandoned, LowerBound: r.Censored > 0})
			}
		}
		best := math.Inf(1)
		for i, r := range out.Rows {
			if c := float64(r.Checks); !r.LowerBound && c < best {
				best, out.Optimum = c, i
			}
		}
		return out, nil
	}, nil
}
