package lab

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/construct"
	"github.com/nqueens/nqueens/internal/lasvegas"
	"github.com/nqueens/nqueens/internal/localsearch"
	"github.com/nqueens/nqueens/internal/pseudo"
)

// The programs of the searches, as the web board shows them beside a replay: short
// pseudo-code close to the classic write-ups, its comments in English and Simplified
// Chinese, rows and columns 1-based. Every step a tracer receives names the line of its
// search's program that reports it, and the lines of a run are a path through the
// program (Code.Walk checks one).

// Code is the program of a search: its Lines (Lines[0] is line 1), each with its code, its
// comment in both languages (Text) and the kind of step it reports, if any.
type Code = pseudo.Code

// CodeLine is one line of a Code.
type CodeLine = pseudo.Line

// Text is a comment in English (En) and Simplified Chinese (Zh).
type Text = pseudo.Text

// Step is a step of a trace for Code.Walk: its kind ("place", "conflict"…) and line.
type Step = pseudo.Step

// LasVegasCode returns the program of the Las Vegas hybrid's variant.
func LasVegasCode(v Variant) Code {
	if v == Row {
		return lasvegas.RowCode
	}
	return lasvegas.CellCode
}

// LocalSearchCode returns the program of the local search with the collision check of
// step 1 (CheckPlaced, the solver's O(1) one, or CheckScan, the O(j) scan): the two share
// their line numbers. There is none for CheckAllQueens.
func LocalSearchCode(c Check) (Code, bool) {
	switch c {
	case CheckPlaced:
		return localsearch.PlacedCode, true
	case CheckScan:
		return localsearch.ScanCode, true
	}
	return Code{}, false
}

// ConstructCode returns the program of the explicit construction (docs/algorithms.md §3.7).
func ConstructCode() Code { return construct.Code }

// ConstructTracer receives the rows of the explicit construction in order, 0-based, each
// with the line of ConstructCode that places its queen, then the end of the program.
type ConstructTracer interface {
	Place(row, col, line int)
	Solution(line int)
}

// ConstructRun writes the explicit construction of nqueens.Solve (algorithm construct)
// for n to tr, row by row, and returns its placement. n must be 1 or at least 4.
func ConstructRun(ctx context.Context, n int, tr ConstructTracer) (nqueens.Placement, error) {
	if err := nqueens.Construct.CheckSize(n); err != nil {
		return nil, err
	}
	q := make(nqueens.Placement, n)
	for r := range n {
		if r&(1<<16-1) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		q[r] = int32(construct.Column(n, r))
		if tr != nil {
			tr.Place(r, int(q[r]), construct.Line(n, r))
		}
	}
	if tr != nil {
		tr.Solution(construct.SolutionLine)
	}
	if err := nqueens.Verify(q); err != nil {
		return nil, fmt.Errorf("internal error: the construction of %d: %w", n, err)
	}
	return q, nil
}
