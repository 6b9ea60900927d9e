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
// comment in both languages and the kind of step it reports, if any, and, unexported, its
// control flow, which Walk follows. A Code decoded from JSON has no control flow.
type Code struct {
	Name  string     `json:"name"`
	Lines []CodeLine `json:"lines"`
	flow  pseudo.Code
}

// CodeLine is one line of a Code.
type CodeLine struct {
	// Code is the line as the web board shows it, indented with two spaces a level.
	Code string `json:"code"`
	// Comment explains it; empty for a line that needs none.
	Comment Text `json:"comment"`
	// Event is the kind of step the line reports ("place", "conflict"…), "" for none.
	Event string `json:"event,omitempty"`
}

// Text is a comment in English (En) and Simplified Chinese (Zh).
type Text struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// Step is a step of a run for Code.Walk: its kind ("place", "conflict"…) and its line.
type Step struct {
	Kind string
	Line int
}

// Walk reports whether the steps of a run are a path through the program: from its
// first line, each step's line reachable from the one before through lines that report
// no step, calls and returns matched, and a line that reports that kind of step; when
// complete, the program must then be able to end without another step. It returns nil,
// or an error naming the first step that leaves the program.
func (c Code) Walk(steps []Step, complete bool) error {
	if len(c.flow.Lines) == 0 {
		return fmt.Errorf("lab: the program %q has no control flow (a Code decoded from JSON)", c.Name)
	}
	ps := make([]pseudo.Step, len(steps))
	for i, s := range steps {
		ps[i] = pseudo.Step{Kind: s.Kind, Line: s.Line}
	}
	return c.flow.Walk(ps, complete)
}

// codeOf is the lab's Code of an engine's program.
func codeOf(p pseudo.Code) Code {
	c := Code{Name: p.Name, flow: p}
	for _, l := range p.Lines {
		c.Lines = append(c.Lines, CodeLine{Code: l.Code, Comment: Text{En: l.Comment.En, Zh: l.Comment.Zh}, Event: l.Event})
	}
	return c
}

// LasVegasCode returns the program of the Las Vegas hybrid's variant.
func LasVegasCode(v Variant) Code {
	if v == Row {
		return codeOf(lasvegas.RowCode)
	}
	return codeOf(lasvegas.CellCode)
}

// LocalSearchCode returns the program of the local search with the collision check of
// step 1 (CheckPlaced, the solver's O(1) one, or CheckScan, the O(j) scan): the two share
// their line numbers. There is none for CheckAllQueens.
func LocalSearchCode(c Check) (Code, bool) {
	switch c {
	case CheckPlaced:
		return codeOf(localsearch.PlacedCode), true
	case CheckScan:
		return codeOf(localsearch.ScanCode), true
	}
	return Code{}, false
}

// ConstructCode returns the program of the explicit construction (docs/algorithms.md §3.7).
func ConstructCode() Code { return codeOf(construct.Code) }

// ConstructTracer receives the rows of the explicit construction in order, 0-based, each
// with the line of ConstructCode that places its queen, then the end of the program.
type ConstructTracer interface {
	Place(row, col, line int)
	Solution(line int)
}

// ConstructRun writes the explicit construction of nqueens.Solve (algorithm construct)
// for n to tr, row by row, and returns its placement (Placement, Total 1; it has no
// counters). n must be 1 or at least 4: for n = 2 and 3 it returns an error wrapping
// nqueens.ErrNoSolution.
func ConstructRun(ctx context.Context, n int, tr ConstructTracer) (RunResult, error) {
	res := RunResult{N: n}
	if err := noSolution(n); err != nil {
		return res, err
	}
	if err := nqueens.Construct.CheckSize(n); err != nil {
		return res, err
	}
	q := make(nqueens.Placement, n)
	for r := range n {
		if r&(1<<16-1) == 0 && ctx.Err() != nil {
			return res, ctx.Err()
		}
		q[r] = int32(construct.Column(n, r))
		if tr != nil {
			tr.Place(r, int(q[r]), construct.Line(n, r))
		}
	}
	if tr != nil {
		tr.Solution(construct.SolutionLine)
	}
	return res, res.found(q, "the construction")
}
