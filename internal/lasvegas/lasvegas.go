package lasvegas

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens/internal/rules"
)

// Variant selects how the random queens are put on the board.
type Variant int

const (
	// Cell draws cells uniformly from the whole board (seed 001).
	Cell Variant = iota
	// Row picks a free column uniformly in each of the first m rows
	// (Brassard & Bratley's QueensLV).
	Row
)

// String returns "cell" or "row".
func (v Variant) String() string {
	switch v {
	case Cell:
		return "cell"
	case Row:
		return "row"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// MarshalText writes the variant by name, as in JSON output.
func (v Variant) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Rand is the source of randomness. *math/rand/v2.Rand satisfies it.
type Rand interface {
	// IntN returns a uniform integer in [0, n); n > 0.
	IntN(n int) int
}

// MaxN is the largest board accepted.
const MaxN = 1 << 16

// PollInterval is the number of backtracking nodes between two polls of
// the context.
const PollInterval = 1 << 12

// pollAttempts is the number of failed attempts between two polls of the
// context, for attempts that never reach the backtracking.
const pollAttempts = 1 << 8

// pollRows and pollDraws are the rows and the draws of the random phase of one attempt
// between two polls of the context (an attempt of n = 65,536 checks up to n² squares).
const (
	pollRows = 1 << 6
	// pollEveryRowN is the board from which every random row is polled: a row costs n
	// checks there, far more than a poll, and 64 rows of n = 65536 took 100 ms under
	// the race detector (the estimate's pilots stop on time).
	pollEveryRowN = 1 << 12
	pollDraws     = 1 << 12
)

var (
	// ErrBudget reports a run stopped because it reached Options.MaxChecks.
	ErrBudget = errors.New("lasvegas: budget of checks exhausted")
	// ErrArgs reports invalid arguments (board size, m, variant).
	ErrArgs = errors.New("lasvegas: invalid arguments")
)

// Options configures one run. The zero value is plain first-fit
// backtracking of the cell variant with no budget.
type Options struct {
	// Variant selects cell or row random placement.
	Variant Variant
	// M is the number of random queens, 0..n.
	M int
	// MaxDraws bounds the draws of one attempt (cell variant only);
	// 0 means n².
	MaxDraws int
	// MaxChecks bounds the checks of one run (Stats.Checks, summed over
	// its attempts: every draw and every square tried, so a proxy for
	// time); 0 means no bound. A run that reaches it stops with
	// ErrBudget.
	MaxChecks int64
	// Tracer, if not nil, receives every step of the run, in order, for a
	// replay (trace.go). A nil Tracer costs the run one branch per attempt.
	Tracer Tracer
}

// Stats are the counters of one run, summed over its attempts.
type Stats struct {
	// Attempts is the number of attempts, the successful one included.
	Attempts int64
	// Draws counts the cells drawn (cell variant), rejected ones included.
	Draws int64
	// Random counts the queens placed at random.
	Random int64
	// Nodes counts calls of the backtracking function, one root per
	// attempt that reached backtracking included.
	Nodes int64
	// Checks counts square tests: every draw, n per random row, every
	// square tried while backtracking.
	Checks int64
	// Explored is Brassard & Bratley's "nodes explored": per attempt,
	// 1 + queens placed at random + backtracking nodes other than the
	// root.
	Explored int64
}

// Add adds the counters of o to s.
func (s *Stats) Add(o Stats) {
	s.Attempts += o.Attempts
	s.Draws += o.Draws
	s.Random += o.Random
	s.Nodes += o.Nodes
	s.Checks += o.Checks
	s.Explored += o.Explored
}

// Result is the outcome of one run.
type Result struct {
	// Solution holds the 0-based column of the queen of each row, or nil
	// if the run stopped early.
	Solution []int
	// Stats are the counters of the run.
	Stats Stats
}

// Solve runs the Las Vegas algorithm on an n×n board until the first
// solution. It stops early with ErrBudget when opt.MaxChecks is reached, and
// with ctx.Err() when the context is cancelled; the counters reached so far
// are returned in both cases. rng may be nil when opt.M is 0.
func Solve(ctx context.Context, n int, opt Options, rng Rand) (Result, error) {
	if err := checkArgs(n, opt); err != nil {
		return Result{}, err
	}
	if rng == nil && opt.M > 0 {
		return Result{}, fmt.Errorf("%w: nil random source with m=%d", ErrArgs, opt.M)
	}
	s := newSolver(ctx, n, opt, rng)
	for {
		var ok bool
		if s.tr != nil {
			ok = s.attemptTraced()
		} else {
			ok = s.attempt()
		}
		if s.err == nil && !ok {
			switch {
			case s.maxChecks > 0 && s.st.Checks >= s.maxChecks:
				s.err = ErrBudget
			case s.st.Attempts&(pollAttempts-1) == 0:
				s.poll()
			}
		}
		if s.err != nil {
			return Result{Stats: s.st}, s.err
		}
		if ok {
			return Result{Solution: append([]int(nil), s.q...), Stats: s.st}, nil
		}
	}
}

func checkArgs(n int, opt Options) error {
	switch {
	case n < 1 || n > MaxN:
		return fmt.Errorf("%w: n=%d, want 1..%d", ErrArgs, n, MaxN)
	case opt.M < 0 || opt.M > n:
		return fmt.Errorf("%w: m=%d, want 0..%d", ErrArgs, opt.M, n)
	case opt.Variant != Cell && opt.Variant != Row:
		return fmt.Errorf("%w: unknown variant %d", ErrArgs, int(opt.Variant))
	case opt.MaxDraws < 0 || opt.MaxChecks < 0:
		return fmt.Errorf("%w: negative MaxDraws or MaxChecks", ErrArgs)
	case n == 2 || n == 3:
		return fmt.Errorf("%w: n=%d", rules.ErrNoSolution, n)
	}
	return nil
}

// board is a set of non-attacking queens with O(1) square tests.
type board struct {
	n                    int
	q                    []int // column of the queen of each row, -1 if none
	col, diag, anti, row []bool
}

func newBoard(n int) board {
	b := board{n: n, q: make([]int, n), col: make([]bool, n), diag: make([]bool, 2*n), anti: make([]bool, 2*n), row: make([]bool, n)}
	for i := range b.q {
		b.q[i] = -1
	}
	return b
}

// open reports whether (r, c) is attacked by no queen and its row is empty.
func (b *board) open(r, c int) bool {
	return !b.row[r] && !b.col[c] && !b.diag[r-c+b.n] && !b.anti[r+c]
}

func (b *board) set(r, c int, on bool) {
	b.row[r], b.col[c], b.diag[r-c+b.n], b.anti[r+c] = on, on, on, on
	if on {
		b.q[r] = c
	} else {
		b.q[r] = -1
	}
}

func (b *board) clear() {
	for r, c := range b.q {
		if c >= 0 {
			b.set(r, c, false)
		}
	}
}

// solver holds the scratch memory of one run, reused by every attempt.
type solver struct {
	board
	m, maxDraws int
	variant     Variant
	maxChecks   int64
	rng         Rand
	ctx         context.Context
	done        <-chan struct{}
	rows        []int // rows left to backtrack over, in increasing order
	free        []int // scratch: free columns of a row
	st          Stats
	err         error
	tr          Tracer // the replay's, or nil
}

func newSolver(ctx context.Context, n int, opt Options, rng Rand) *solver {
	s := &solver{
		board: newBoard(n), m: opt.M, variant: opt.Variant, maxDraws: opt.MaxDraws,
		maxChecks: opt.MaxChecks, rng: rng, ctx: ctx, done: ctx.Done(),
		rows: make([]int, 0, n), free: make([]int, 0, n), tr: opt.Tracer,
	}
	if s.maxDraws == 0 {
		s.maxDraws = n * n
	}
	return s
}

// attempt runs one attempt from an empty board and reports success. On
// success s.q holds the solution.
func (s *solver) attempt() bool {
	s.clear()
	s.st.Attempts++
	var placed int
	if s.variant == Row {
		placed = s.randomRows()
	} else {
		placed = s.randomCells()
	}
	if placed < s.m {
		s.st.Random += int64(placed)
		s.st.Explored += 1 + int64(placed)
		return false
	}
	s.st.Random += int64(placed)
	s.rows = s.rows[:0]
	for r := 0; r < s.n; r++ {
		if !s.row[r] {
			s.rows = append(s.rows, r)
		}
	}
	before := s.st.Nodes
	ok := s.backtrack(0)
	s.st.Explored += 1 + int64(placed) + (s.st.Nodes - before - 1)
	return ok
}

// randomRows is the random phase of the row variant: it returns the number
// of queens placed, less than m if some row had no free column.
func (s *solver) randomRows() int {
	n := s.n
	for r := 0; r < s.m; r++ {
		if (r&(pollRows-1) == pollRows-1 || n >= pollEveryRowN) && s.poll() {
			return r // one attempt of a large board checks m·n squares: stop on time
		}
		s.st.Checks += int64(n)
		s.free = s.free[:0]
		for c := 0; c < n; c++ {
			if s.open(r, c) {
				s.free = append(s.free, c)
			}
		}
		if len(s.free) == 0 {
			return r
		}
		s.set(r, s.free[s.rng.IntN(len(s.free))], true)
	}
	return s.m
}

// randomCells is the random phase of the cell variant: it returns the
// number of queens placed, less than m if the draws ran out.
func (s *solver) randomCells() int {
	n := s.n
	placed := 0
	for t := 0; placed < s.m && t < s.maxDraws; t++ {
		if t&(pollDraws-1) == pollDraws-1 && s.poll() {
			return placed // up to n² draws per attempt: stop on time
		}
		s.st.Draws++
		s.st.Checks++
		k := s.rng.IntN(n * n)
		if r, c := k/n, k%n; s.open(r, c) {
			s.set(r, c, true)
			placed++
		}
	}
	return placed
}

// backtrack is first-fit backtracking over s.rows[i:], columns in
// increasing order. It stops at the first solution.
func (s *solver) backtrack(i int) bool {
	s.st.Nodes++
	if s.st.Nodes&(PollInterval-1) == 0 && s.poll() {
		return false
	}
	if s.maxChecks > 0 && s.st.Checks >= s.maxChecks && i < len(s.rows) {
		s.err = ErrBudget
		return false
	}
	if i == len(s.rows) {
		return true
	}
	r := s.rows[i]
	for c := 0; c < s.n; c++ {
		s.st.Checks++
		if !s.open(r, c) {
			continue
		}
		s.set(r, c, true)
		if s.backtrack(i + 1) {
			return true
		}
		s.set(r, c, false)
		if s.err != nil {
			return false
		}
	}
	return false
}

func (s *solver) poll() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		s.err = s.ctx.Err()
		return true
	default:
		return false
	}
}
