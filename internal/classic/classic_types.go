package classic

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens/internal/pseudo"
)

// PollInterval is the number of nodes between two polls of the context.
const PollInterval = 1 << 12

const pollMask = PollInterval - 1

// MaxN is the largest board the teaching searches accept. The cell searches
// need O(n²) memory and all of them need time exponential in n, so larger
// boards are refused rather than left to run forever.
const MaxN = 64

// ErrSize reports a board size outside 1..MaxN.
var ErrSize = errors.New("classic: board size out of range")

// Stats holds the exact counters of one complete (or cancelled) search.
// Counters that a search does not define stay zero.
type Stats struct {
	// N is the board size.
	N int
	// Solutions is the number of complete placements found.
	Solutions int64
	// Nodes counts calls of the recursive search function, root and
	// leaves included (the "calls" of Backtrack in §3.1).
	Nodes int64
	// Checks counts calls of the square test, whatever they return
	// (the "place calls" of §3.1).
	Checks int64
	// LoopIterations counts executions of the body of Place's loop
	// (§3.1 only).
	LoopIterations int64
	// Skipped counts nodes entered while a row before row pos/n is still
	// empty (§3.3 only).
	Skipped int64
	// Dead counts skipped nodes with pos == n*n (§3.3 only).
	Dead int64
}

// Tracer receives the events of a teaching search in the order they happen.
// Rows and columns are 0-based. Every event names the line of the search's
// program (Algorithm.Code, 1-based) that reports it. Implementations must not
// retain the search goroutine for long: every event is on the hot path.
type Tracer interface {
	// Place is called when a queen is put on (row, col) and the search
	// descends.
	Place(row, col, line int)
	// Remove is called when the search comes back and takes the queen
	// on (row, col) off the board.
	Remove(row, col, line int)
	// Conflict is called when a check of (row, col) fails.
	Conflict(row, col, line int)
	// Solution is called when the queens on the board form a solution.
	Solution(line int)
	// Prune is called when a node of the cell search with the row pruning
	// (§3.4) returns at once because row, above its first cell, is empty.
	Prune(row, line int)
}

// LoopTracer is a Tracer that also sees the loop of Place (§3.1, Classic only): the O(k)
// check that the other searches do in O(1), shown one comparison at a time.
type LoopTracer interface {
	Tracer
	// Compare is called for each iteration of Place's loop: the queen of row, in col,
	// compared with the queen of row j < row, in colJ; attacks says whether that queen
	// shares its column or a diagonal (Place then returns false, and Conflict follows).
	Compare(row, col, j, colJ int, attacks bool, line int)
}

// Func is the signature shared by the four searches. tr may be nil.
type Func func(ctx context.Context, n int, tr Tracer) (Stats, error)

// FromFunc is a search from a partial board (ClassicFrom, RowDFSFrom): fixed[r] ≥ 0 the
// column row r must hold, −1 a free row.
type FromFunc func(ctx context.Context, n int, fixed []int, tr Tracer) (Stats, error)

// Algorithm names a search and gives its entry point.
type Algorithm struct {
	// Name is the short identifier used on command lines and in
	// benchmark names: "classic", "row", "cell" or "cellprune".
	Name string
	// Title is a one-line human description.
	Title string
	// Section is the docs/algorithms.md section that defines the search.
	Section string
	// Run runs the search.
	Run Func
	// Code is its program, whose lines the Tracer events name.
	Code pseudo.Code
	// From runs it from a partial board; nil for the cell searches, whose program has
	// no place for a fixed queen.
	From FromFunc
}

// Algorithms returns the four searches in the order of docs/algorithms.md. The slice is a
// fresh copy that the caller may modify.
func Algorithms() []Algorithm {
	return []Algorithm{
		{"classic", "classic backtracking, O(k) Place", "3.1", Classic, ClassicCode, ClassicFrom},
		{"row", "row DFS, O(1) arrays", "3.2", RowDFS, RowCode, RowDFSFrom},
		{"cell", "cell DFS", "3.3", CellDFS, CellCode, nil},
		{"cellprune", "cell DFS with row pruning", "3.4", CellDFSPruned, CellPruneCode, nil},
	}
}

// Lookup returns the algorithm with the given name.
func Lookup(name string) (Algorithm, bool) {
	for _, a := range Algorithms() {
		if a.Name == name {
			return a, true
		}
	}
	return Algorithm{}, false
}

// checkFixed checks n and a partial board for it: nil, or n columns each −1 or on the
// board.
func checkFixed(n int, fixed []int) error {
	if err := checkN(n); err != nil {
		return err
	}
	if fixed != nil && len(fixed) != n {
		return fmt.Errorf("classic: a partial board of %d rows for n = %d", len(fixed), n)
	}
	for r, c := range fixed {
		if c < -1 || c >= n {
			return fmt.Errorf("classic: row %d fixed in column %d, off the board", r+1, c+1)
		}
	}
	return nil
}

// columns is the range of columns a row-by-row search tries in row r: all of them, or
// the fixed queen's.
func columns(fixed []int, r, n int) (lo, hi int) {
	if fixed != nil && fixed[r] >= 0 {
		return fixed[r], fixed[r] + 1
	}
	return 0, n
}

func checkN(n int) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("%w: n=%d, want 1..%d", ErrSize, n, MaxN)
	}
	return nil
}

// poller polls a context every PollInterval nodes.
type poller struct {
	ctx  context.Context
	done <-chan struct{}
	err  error
}

func newPoller(ctx context.Context) poller {
	return poller{ctx: ctx, done: ctx.Done()}
}

// stop polls the context and reports whether the search must stop.
func (p *poller) stop() bool {
	if p.done == nil {
		return false
	}
	select {
	case <-p.done:
		p.err = p.ctx.Err()
		return true
	default:
		return false
	}
}
