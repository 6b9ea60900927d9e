package nqueens

import (
	"fmt"

	"github.com/nqueens/nqueens/internal/rules"
)

// ErrNoSolution says that the board has no solution (n = 2 and n = 3), or that a partial
// placement cannot be completed. Every algorithm returns this very error.
var ErrNoSolution = rules.ErrNoSolution

// SizeError reports a board size that is out of range for what was asked.
type SizeError struct {
	N        int    // the size asked for (from ParseSize: 0 below 1, Max+1 above Max)
	Min, Max int    // the accepted range
	What     string // what has the limit, e.g. "backtracking"
	Given    string // ParseSize: the size as it was written
}

func (e *SizeError) Error() string {
	switch {
	case e.Given != "" && e.N < e.Min:
		return fmt.Sprintf("invalid board size %q: n must be at least %d", e.Given, e.Min)
	case e.Given != "" && e.What != "" && e.What != "any board":
		return fmt.Sprintf("board size %q is too large for %s (at most %d)", e.Given, e.What, e.Max)
	case e.Given != "":
		return fmt.Sprintf("board size %q is too large (at most %d)", e.Given, e.Max)
	case e.N < e.Min:
		return fmt.Sprintf("n must be at least %d, got %d", e.Min, e.N)
	}
	return fmt.Sprintf("n = %d is too large for %s (at most %d)", e.N, e.What, e.Max)
}

// ParseError reports malformed input, with the position where it was found.
type ParseError struct {
	Line int    // 1-based line, 0 if unknown
	Msg  string // what is wrong
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// ConflictKind says why a placement is invalid.
type ConflictKind int

// The kinds of conflict, in the order Verify tests them for each row.
const (
	OffBoard     ConflictKind = iota + 1 // a column outside 1..n
	SameColumn                           // two queens in one column
	SameDiagonal                         // two queens with equal row − column
	SameAnti                             // two queens with equal row + column
	WrongLength                          // fewer or more rows than the board has
)

var kindNames = map[ConflictKind]string{
	OffBoard: "off-board", SameColumn: "column", SameDiagonal: "diagonal",
	SameAnti: "anti-diagonal", WrongLength: "length",
}

// String returns a short name: "column", "diagonal", "anti-diagonal", "off-board", "length".
func (k ConflictKind) String() string { return kindNames[k] }

func (k ConflictKind) article() string {
	if k == SameAnti {
		return "an " + k.String()
	}
	return "a " + k.String()
}

// ConflictError names the first attacking pair of an invalid placement: the first row
// (Row2) whose queen attacks a queen of an earlier row (Row1), on the first shared line in
// the order column, diagonal, anti-diagonal. Rows and columns are 0-based here; Error
// prints them 1-based. For OffBoard and WrongLength only Row2/Col2 (and N) are meaningful.
type ConflictError struct {
	Kind       ConflictKind
	N          int // the board size (for WrongLength, the expected size)
	Row1, Col1 int // the earlier queen; Row1 is -1 when it could not be located
	Row2, Col2 int // the later queen
}

func (e *ConflictError) Error() string {
	switch e.Kind {
	case OffBoard:
		return fmt.Sprintf("row %d: column %d is off the board (n = %d)", e.Row2+1, e.Col2+1, e.N)
	case WrongLength:
		return fmt.Sprintf("expected %d rows, got %d", e.N, e.Row2)
	}
	if e.Row1 < 0 {
		return fmt.Sprintf("the queen at row %d, column %d shares %s with an earlier queen", e.Row2+1, e.Col2+1, e.Kind.article())
	}
	return fmt.Sprintf("queens at row %d, column %d and row %d, column %d share %s",
		e.Row1+1, e.Col1+1, e.Row2+1, e.Col2+1, e.Kind.article())
}
