package web

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// /api/trace: the events of a search to replay on the board, step by step. Every search
// the command runs has one: the four teaching searches (search=classic, row, cell,
// cellprune), the Las Vegas hybrid (search=lasvegas) and Sosic–Gu's local search
// (search=localsearch). The events come from the engines the lab measures, traced, so
// that the counters at the end of a replay are the lab's for the same n, m and seed: lab's
// tests check that its runs' events count as the runs do (lab/replay_test.go), and the
// replay only counts and encodes the events, without running or counting anything again.

// traceHead is what every trace has: the search, the board, the program of the search, and
// the events, each an array [kind, arguments..., line] whose kind indexes Kinds and whose
// last element is the line of Code that reported it (1-based, from the engine's tracer);
// rows and columns are 1-based.
type traceHead struct {
	Search  string `json:"search"`
	Title   string `json:"title"`
	Section string `json:"section"` // of the algorithm's description in docs/algorithms.md
	N       int    `json:"n"`
	// Code is the search's program: its lines, each with its code, its comment in English
	// and Chinese ({"en", "zh"}) and the kind of event it reports.
	Code lab.Code `json:"code"`
	// Kinds names the event kinds, in the order of their numbers.
	Kinds  []string  `json:"kinds"`
	Events [][]int32 `json:"events"`
	// Stopped says why the events end: "first solution" (until=first), "event limit",
	// or "" when the search ran to its end.
	Stopped string `json:"stopped"`
	// Verified: every board the events call a solution passed nqueens.Verify (the
	// construction's, which its events do not build, in lab.ConstructRun).
	Verified bool `json:"verified"`
}

// events records a trace's events up to max, and cancels the search there.
type events struct {
	list    [][]int32
	max     int
	cancel  context.CancelFunc
	stopped string
}

// add records an event, its line last, and reports whether it was recorded.
func (e *events) add(ev ...int32) bool {
	if e.stopped != "" {
		return false // the search runs on until it next polls the context
	}
	if len(e.list) == e.max {
		e.stop("event limit")
		return false
	}
	e.list = append(e.list, ev)
	return true
}

func (e *events) stop(why string) {
	e.stopped = why
	e.cancel()
}

// finished sorts out how a traced search ended: the request's own end, an error of the
// search, or its stop at the event limit (or the first solution), which cancelled it.
func (e *events) finished(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil && !(errors.Is(err, context.Canceled) && e.stopped != ""):
		return err
	}
	return nil
}

// one is 1-based x: a row or a column, −1 (none) as 0.
func one(x int) int32 { return int32(x + 1) }

func flag(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// The teaching searches of §3.1–3.4.

// Event kinds of a teaching search: [kind, row, column, line] ([kind, 0, 0, line] for a
// solution); a prune (§3.4 only) is [kind, row, line], row the empty row above the node;
// a compare (§3.1 only, an iteration of Place's loop) is [kind, row, column, j, column of
// row j, attacks (1 or 0), line]: the queen being checked against the queen of row j.
const (
	evPlace = iota
	evRemove
	evConflict
	evSolution
	evPrune
	evCompare
)

var eventKinds = []string{"place", "remove", "conflict", "solution", "prune", "compare"}

// traceResponse is the trace of a teaching search. The counters are those after the last
// event: total the solutions found, a node a call of the search function (the root and
// one per place event), a check a test of a square (one per place or conflict event);
// when the search ran to its end (until=all) they are its exact counters, total the
// board's number of solutions.
type traceResponse struct {
	traceHead
	Until  string `json:"until"` // "first" solution or "all"
	Total  int64  `json:"total"`
	Nodes  int64  `json:"nodes"`
	Checks int64  `json:"checks"`
	// Fix is the queens the search started from (fix=), 1-based [row, column] pairs; absent
	// for a search from the empty board. A row with a fixed queen tries its column only.
	Fix [][2]int `json:"fix,omitempty"`
	// PlaceLoopIterations (classic only, absent for the others) counts the compare events:
	// the iterations of Place's loop, the O(k) cost of its check.
	PlaceLoopIterations *int64 `json:"place_loop_iterations,omitempty"`
}

// recorder is the lab.Tracer that records a teaching search, up to the event limit or
// the first solution.
type recorder struct {
	events
	first                        bool
	board                        nqueens.Placement // column per row, -1 when empty
	places, conflicts, solutions int64
	compares                     int64 // Place's loop iterations (classic)
	bad                          error // a solution event whose board is not a solution
}

func newRecorder(n, max int, first bool, cancel context.CancelFunc) *recorder {
	t := &recorder{events: events{max: max, cancel: cancel}, first: first, board: emptyBoard(n)}
	return t
}

func emptyBoard(n int) nqueens.Placement {
	b := make(nqueens.Placement, n)
	for i := range b {
		b[i] = -1
	}
	return b
}

func (t *recorder) Place(row, col, line int) {
	if t.add(evPlace, one(row), one(col), int32(line)) {
		t.board[row] = int32(col)
		t.places++
	}
}

func (t *recorder) Remove(row, col, line int) {
	if t.add(evRemove, one(row), one(col), int32(line)) {
		t.board[row] = -1
	}
}

func (t *recorder) Conflict(row, col, line int) {
	if t.add(evConflict, one(row), one(col), int32(line)) {
		t.conflicts++
	}
}

func (t *recorder) Prune(row, line int) { t.add(evPrune, one(row), int32(line)) }

func (t *recorder) Compare(row, col, j, colJ int, attacks bool, line int) {
	if t.add(evCompare, one(row), one(col), one(j), one(colJ), flag(attacks), int32(line)) {
		t.compares++
	}
}

func (t *recorder) Solution(line int) {
	if !t.add(evSolution, 0, 0, int32(line)) {
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

// The searches /api/trace takes, by the value of search: the teaching searches of the lab
// (lab.Searches) and these.
var replaySearches = []string{"lasvegas", "localsearch", "construct"}

// parseSearch reads the name of a search /api/trace replays: a teaching search by
// lab.LookupSearch, or one of replaySearches.
func parseSearch(name string) (string, error) {
	if _, ok := lab.LookupSearch(name); ok || slices.Contains(replaySearches, name) {
		return name, nil
	}
	var names []string
	for _, a := range lab.Searches() {
		names = append(names, a.Name)
	}
	return "", fmt.Errorf("unknown search %q (want %s or %s)", name, strings.Join(append(names, replaySearches[:len(replaySearches)-1]...), ", "), replaySearches[len(replaySearches)-1])
}

func (s *server) trace(r *http.Request) (job, error) {
	p := newParams(r)
	name := parsed(p, "search", "row", parseSearch)
	switch name {
	case "lasvegas":
		return s.traceLasVegas(p)
	case "localsearch":
		return s.traceLocalSearch(p)
	case "construct":
		return s.traceConstruct(p)
	}
	n := p.size(s.opt.MaxTraceN)
	until := p.oneOf("until", "first", "first", "all")
	maxEvents := p.events(s.opt.MaxTraceEvents)
	alg, _ := lab.LookupSearch(name)
	fix := p.fix(n)
	if err := p.done(); err != nil {
		return nil, err
	}
	if fix != nil && !alg.StartsFromPartial() {
		return nil, badRequest("fix applies to the row-by-row searches (classic, row), not to %s", name)
	}
	return func(ctx context.Context) (any, error) {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		t := newRecorder(n, maxEvents, until == "first", cancel)
		var err error
		if fix != nil {
			_, err = alg.RunFrom(sctx, fix, t)
		} else {
			_, err = alg.Run(sctx, n, t)
		}
		if err := t.finished(ctx, err); err != nil {
			return nil, err
		}
		if t.bad != nil {
			return nil, t.bad
		}
		out := traceResponse{traceHead: traceHead{Search: alg.Name, Title: alg.Title, Section: alg.Section, N: n,
			Code: alg.Code(), Kinds: eventKinds, Events: t.list, Stopped: t.stopped, Verified: true},
			Until: until, Total: t.solutions, Nodes: 1 + t.places, Checks: t.places + t.conflicts, Fix: fixPairs(fix)}
		if alg.Name == "classic" {
			out.PlaceLoopIterations = &t.compares
		}
		return out, nil
	}, nil
}

// fix reads the queens a replay starts from, fix=, as the command's --fix takes them
// ("1:2, 5:7" or "2 0 . 4", 1-based); nil when absent.
func (p *params) fix(n int) nqueens.Partial {
	s, ok := p.raw("fix")
	if !ok || n < 1 {
		return nil
	}
	fix, err := nqueens.ParsePartial(s, n)
	if err != nil {
		p.fail(badRequest("fix: %v", err))
		return nil
	}
	return fix
}

// fixPairs writes the fixed queens as 1-based [row, column] pairs, nil for none.
func fixPairs(fix nqueens.Partial) [][2]int {
	var out [][2]int
	for r, c := range fix {
		if c >= 0 {
			out = append(out, [2]int{r + 1, int(c) + 1})
		}
	}
	return out
}

// events reads the cap on a trace's events, max_events (not events, the key of the events
// themselves), at most limit.
func (p *params) events(limit int) int {
	return int(p.int("max_events", int64(limit), 1, int64(limit)))
}

// seed reads the seed of a replay; without one it picks a random one, which the answer
// gives back (the same seed replays the same search).
func (p *params) seed() uint64 {
	if v := p.int("seed", -1, 0, maxSeed); v >= 0 {
		return uint64(v)
	}
	return rand.Uint64() & maxSeed
}

// The Las Vegas hybrid of §3.5.

// Event kinds of a Las Vegas replay, with their arguments (each event ends with its line).
const (
	lvStart     = iota // []: a start from the empty board begins
	lvDraw             // [row, column]: cell variant, a drawn square, a queen placed there
	lvReject           // [row, column]: cell variant, a drawn square already attacked
	lvRandom           // [row, column]: row variant, a random free column of the row
	lvDeadEnd          // [row]: no free column in the row (row variant), 0: the draws ran out; the start fails
	lvBacktrack        // []: the backtracking over the empty rows starts (its root node)
	lvPlace            // [row, column]: the backtracking puts a queen and descends
	lvRemove           // [row, column]: it takes the queen off
	lvConflict         // [row, column]: the square is attacked
	lvFail             // []: the backtracking found no completion; the start fails
	lvSolution         // []: solved, the run ends
)

var lasVegasKinds = []string{"start", "draw", "reject", "random", "deadend", "backtrack", "place", "remove", "conflict", "fail", "solution"}

// lasVegasTrace is the replay of one Las Vegas run: the first run of row m of the lab's
// sampled table for the same seed, whose counters these are when it ran to its end. The
// counters are those after the last event (docs/algorithms.md §3.5): starts (attempts from
// the empty board), draws (cell variant), random queens, backtracking nodes, checks, and
// Brassard & Bratley's nodes explored; failed_starts is the starts that failed,
// explored_failed the nodes they explored, so that the running p, s, e and t of the exact
// table are 1/starts, explored − explored_failed, explored_failed/failed_starts and
// explored.
type lasVegasTrace struct {
	traceHead
	Variant        string `json:"variant"`
	M              int    `json:"m"`
	Seed           uint64 `json:"seed"`
	Starts         int64  `json:"starts"`
	Draws          int64  `json:"draws"`
	Random         int64  `json:"random"`
	Nodes          int64  `json:"nodes"`
	Checks         int64  `json:"checks"`
	Explored       int64  `json:"explored"`
	Failed         int64  `json:"failed_starts"`
	ExploredFailed int64  `json:"explored_failed"`
	Total          int64  `json:"total"` // the solutions found: 1 when the run ended
}

// lasVegasRecorder is the lab.LasVegasTracer that records a run and counts it from its
// events alone, as the page does.
type lasVegasRecorder struct {
	events
	n            int
	board        nqueens.Placement
	out          *lasVegasTrace
	startExplore int64 // nodes explored by the current start
	bad          error
}

func (t *lasVegasRecorder) Start(line int) {
	if t.add(lvStart, int32(line)) {
		for i := range t.board {
			t.board[i] = -1
		}
		t.out.Starts++
		t.out.Explored++
		t.startExplore = 1
	}
}

func (t *lasVegasRecorder) Draw(row, col int, placed bool, line int) {
	kind := lvReject
	if placed {
		kind = lvDraw
	}
	if t.add(int32(kind), one(row), one(col), int32(line)) {
		t.out.Draws++
		t.out.Checks++
		if placed {
			t.board[row] = int32(col)
			t.out.Random++
			t.explore()
		}
	}
}

func (t *lasVegasRecorder) explore() {
	t.out.Explored++
	t.startExplore++
}

func (t *lasVegasRecorder) RandomRow(row, col, line int) {
	if t.add(lvRandom, one(row), one(col), int32(line)) {
		t.board[row] = int32(col)
		t.out.Checks += int64(t.n)
		t.out.Random++
		t.explore()
	}
}

func (t *lasVegasRecorder) DeadEnd(row, line int) {
	if t.add(lvDeadEnd, one(row), int32(line)) {
		if row >= 0 {
			t.out.Checks += int64(t.n)
		}
		t.failed()
	}
}

func (t *lasVegasRecorder) failed() {
	t.out.Failed++
	t.out.ExploredFailed += t.startExplore
}

func (t *lasVegasRecorder) Backtrack(line int) {
	if t.add(lvBacktrack, int32(line)) {
		t.out.Nodes++
	}
}

func (t *lasVegasRecorder) Place(row, col, line int) {
	if t.add(lvPlace, one(row), one(col), int32(line)) {
		t.board[row] = int32(col)
		t.out.Nodes++
		t.out.Checks++
		t.explore()
	}
}

func (t *lasVegasRecorder) Remove(row, col, line int) {
	if t.add(lvRemove, one(row), one(col), int32(line)) {
		t.board[row] = -1
	}
}

func (t *lasVegasRecorder) Conflict(row, col, line int) {
	if t.add(lvConflict, one(row), one(col), int32(line)) {
		t.out.Checks++
	}
}

func (t *lasVegasRecorder) Fail(line int) {
	if t.add(lvFail, int32(line)) {
		t.failed()
	}
}

func (t *lasVegasRecorder) Solution(line int) {
	if t.add(lvSolution, int32(line)) {
		t.out.Total++
		if err := nqueens.Verify(t.board); err != nil {
			t.bad = fmt.Errorf("internal error: the Las Vegas replay's solution is not one: %w", err)
		}
	}
}

func (s *server) traceLasVegas(p *params) (job, error) {
	n := p.size(s.opt.MaxReplayN)
	v := parsed(p, "variant", lab.DefaultVariant, lab.ParseVariant)
	m := int(p.int("m", -1, 0, int64(s.opt.MaxReplayN)))
	seed := p.seed()
	maxEvents := p.events(s.opt.MaxTraceEvents)
	if err := p.done(); err != nil {
		return nil, err
	}
	switch {
	case m < 0:
		return nil, badRequest("parameter m, the number of random queens, is missing")
	case m > n:
		return nil, badRequest("m = %d random queens do not fit on %d rows", m, n)
	}
	variant := v.String()
	return func(ctx context.Context) (any, error) {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		out := &lasVegasTrace{traceHead: traceHead{Search: "lasvegas", Title: "Las Vegas: random queens, then backtracking (" + variant + " variant)",
			Section: "3.5", N: n, Code: lab.LasVegasCode(v), Kinds: lasVegasKinds}, Variant: variant, M: m, Seed: seed}
		t := &lasVegasRecorder{events: events{max: maxEvents, cancel: cancel}, n: n, board: emptyBoard(n), out: out}
		_, err := lab.LasVegasRun(sctx, n, lab.LasVegasRunOptions{Variant: v, M: m, Seed: seed, MaxChecks: -1}, t)
		if err := t.finished(ctx, err); err != nil {
			return nil, err
		}
		if t.bad != nil {
			return nil, t.bad
		}
		out.Events, out.Stopped, out.Verified = t.list, t.stopped, true
		return out, nil
	}, nil
}

// Sosic–Gu's local search of §3.6.

// Event kinds of a local-search replay, with their arguments (each event ends with its line).
const (
	lsRun     = iota // []: a run starts (the first, or a restart): the identity (with fix=, the fixed queens and the free columns in order), nothing placed
	lsTry            // [j, m, placed, scan]: step 1 tries the queen of row m in row j; placed 1: rows j and m swap, j advances; scan: the O(j) check's cost
	lsShuffle        // [i, m]: step 2 swaps rows i and m; the queen of row i is counted from now on
	lsFinal          // []: step 3 starts; every queen is counted
	lsSwap           // [i, m, kept]: step 3 tries to swap rows i and m; kept 1: swapped
	lsSolved         // []: no conflict left
)

var localSearchKinds = []string{"run", "try", "shuffle", "final", "swap", "solved"}

// localSearchTrace is the replay of a local search: the solve of nqueens.Solve for this
// seed, whose counters (those of the lab's localsearch table for the same n and seed)
// these are when it ran to its end, and, for the collision check of step 1, the tests
// made: placed_checks for the solver's O(1) check (one per attempt), scan_checks for the
// O(j) scan of the original program (the placed queens compared), which makes the same
// attempts, both over every run, restarts included; checks is that of the check asked
// for. initial_placed_checks and initial_scan_checks are the same tests in the first run's
// step 1 only, which is what the lab's keys of those names count: they equal the lab's
// row for the same n and seed, restarts or not.
type localSearchTrace struct {
	traceHead
	Check string `json:"check"` // "placed" (O(1)) or "scan" (O(j))
	Seed  uint64 `json:"seed"`
	// Fix is the queens of a custom start (fix=), 1-based [row, column] pairs, which the
	// search keeps in place (FindCompletion's local search); absent from the empty board.
	Fix                 [][2]int `json:"fix,omitempty"`
	Attempts            int64    `json:"attempts"`
	Conflicts           int64    `json:"conflicts"` // k: the queens step 1 left, of the last run
	Swaps               int64    `json:"swaps"`
	FailedSwaps         int64    `json:"failed_swaps"`
	Restarts            int64    `json:"restarts"`
	Checks              int64    `json:"checks"`
	PlacedChecks        int64    `json:"placed_checks"`
	ScanChecks          int64    `json:"scan_checks"`
	InitialPlacedChecks int64    `json:"initial_placed_checks"`
	InitialScanChecks   int64    `json:"initial_scan_checks"`
}

// localSearchRecorder is the lab.LocalSearchTracer that records a local search and
// counts it from its events alone, as the page does.
type localSearchRecorder struct {
	events
	q     nqueens.Placement
	start nqueens.Placement // the board of every run: the identity, or the custom start's
	free  int               // the rows step 1 fills: n, or those without a fixed queen
	j     int
	runs  int
	out   *localSearchTrace
	bad   error // a solved step whose board is not a solution
}

// newLocalSearchRecorder records a local search of n rows from the queens of fix (nil: the
// empty board): each run starts with the fixed queens in place and the free columns, in
// order, on the free rows (the identity without a fixed queen).
func newLocalSearchRecorder(n int, fix nqueens.Partial, ev events, out *localSearchTrace) *localSearchRecorder {
	t := &localSearchRecorder{events: ev, q: make(nqueens.Placement, n), start: make(nqueens.Placement, n), free: n, out: out}
	used := make([]bool, n)
	for r, c := range fix {
		if c >= 0 {
			t.start[r], used[c] = c, true
			t.free--
		}
	}
	c := 0
	for r := range t.start {
		if fix != nil && fix[r] >= 0 {
			continue
		}
		for used[c] {
			c++
		}
		t.start[r] = int32(c)
		c++
	}
	return t
}

func (t *localSearchRecorder) Run(line int) {
	if t.add(lsRun, int32(line)) {
		if t.runs > 0 {
			t.out.Restarts++
		}
		t.runs++
		copy(t.q, t.start)
		t.j = 0
	}
}

func (t *localSearchRecorder) Try(j, m int, placed bool, scan, line int) {
	if t.add(lsTry, one(j), one(m), flag(placed), int32(scan), int32(line)) {
		t.out.Attempts++
		t.out.PlacedChecks++
		t.out.ScanChecks += int64(scan)
		if t.runs == 1 {
			t.out.InitialPlacedChecks++
			t.out.InitialScanChecks += int64(scan)
		}
		if placed {
			t.q[j], t.q[m] = t.q[m], t.q[j]
			t.j++
		}
	}
}

func (t *localSearchRecorder) Shuffle(i, m, line int) {
	if t.add(lsShuffle, one(i), one(m), int32(line)) {
		t.q[i], t.q[m] = t.q[m], t.q[i]
	}
}

func (t *localSearchRecorder) Final(line int) {
	if t.add(lsFinal, int32(line)) {
		t.out.Conflicts = int64(t.free - t.j)
	}
}

func (t *localSearchRecorder) Swap(i, m int, kept bool, line int) {
	if t.add(lsSwap, one(i), one(m), flag(kept), int32(line)) {
		t.out.Swaps++
		if kept {
			t.q[i], t.q[m] = t.q[m], t.q[i]
		} else {
			t.out.FailedSwaps++
		}
	}
}

func (t *localSearchRecorder) Solved(line int) {
	if t.add(lsSolved, int32(line)) {
		t.bad = verified(t.q, "the local search's replay")
	}
}

func (s *server) traceLocalSearch(p *params) (job, error) {
	n := p.size(s.opt.MaxReplayN)
	check := parsed(p, "check", lab.CheckPlaced, lab.ParseCheck)
	seed := p.seed()
	maxEvents := p.events(s.opt.MaxTraceEvents)
	fix := p.fix(n)
	if err := p.done(); err != nil {
		return nil, err
	}
	code, ok := lab.LocalSearchCode(check)
	if !ok {
		return nil, badRequest("check %s has no replay: it places no queen (want placed or scan)", check)
	}
	return func(ctx context.Context) (any, error) {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		out := &localSearchTrace{traceHead: traceHead{Search: "localsearch", Title: "Sosic–Gu local search, " +
			map[lab.Check]string{lab.CheckPlaced: "O(1) check", lab.CheckScan: "O(j) scan"}[check], Section: "3.6", N: n, Code: code, Kinds: localSearchKinds},
			Check: check.String(), Seed: seed, Fix: fixPairs(fix)}
		t := newLocalSearchRecorder(n, fix, events{max: maxEvents, cancel: cancel}, out)
		var err error
		if fix != nil {
			_, err = lab.LocalSearchRunFrom(sctx, fix, seed, t)
		} else {
			_, err = lab.LocalSearchRun(sctx, n, seed, t)
		}
		if err := t.finished(ctx, err); err != nil {
			return nil, err
		}
		if t.bad != nil {
			return nil, t.bad
		}
		out.Events, out.Stopped, out.Verified = t.list, t.stopped, true
		out.Checks = out.PlacedChecks
		if check == lab.CheckScan {
			out.Checks = out.ScanChecks
		}
		return out, nil
	}, nil
}

// The explicit construction of §3.7.

// constructTrace is the construction of nqueens.Solve (algorithm construct) written row
// by row, as it streams it: each event [0, row, column, line] puts the queen of a row, in
// row order, line naming the case of the construction that gives its column; the last,
// [1, line], says the board is complete and verified. Placed is the rows placed.
type constructTrace struct {
	traceHead
	Placed int `json:"placed"` // the rows placed (rows is a lab table's rows)
}

var constructKinds = []string{"place", "solution"}

// constructRecorder is the lab.ConstructTracer that records the construction.
type constructRecorder struct {
	events
	rows int
}

func (t *constructRecorder) Place(row, col, line int) {
	if t.add(0, one(row), one(col), int32(line)) {
		t.rows++
	}
}

func (t *constructRecorder) Solution(line int) { t.add(1, int32(line)) }

func (s *server) traceConstruct(p *params) (job, error) {
	n := p.size(s.opt.MaxReplayN)
	maxEvents := p.events(s.opt.MaxTraceEvents)
	if err := p.done(); err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) {
		t := &constructRecorder{events: events{max: maxEvents, cancel: func() {}}}
		if _, err := lab.ConstructRun(ctx, n, t); err != nil {
			return nil, err // lab.ConstructRun verifies the placement it writes
		}
		out := constructTrace{traceHead: traceHead{Search: "construct", Title: "explicit construction (Hoffman, Loessi & Moore)",
			Section: "3.7", N: n, Code: lab.ConstructCode(), Kinds: constructKinds, Events: t.list, Stopped: t.stopped, Verified: true},
			Placed: t.rows}
		return out, nil
	}, nil
}
