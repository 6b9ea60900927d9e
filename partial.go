package nqueens

import (
	"fmt"
	"strconv"
	"strings"
)

// Partial is a partial placement, the input of the completion problem: p[r] is the
// 0-based column of the queen already on row r, or -1 when row r is empty.
type Partial []int32

// ParsePartial reads a partial placement of an n×n board (docs/algorithms.md §1). It accepts either
// row:col pairs, 1-based and separated by commas or spaces ("1:2, 5:7"), or a line with one
// entry per row: a 1-based column, or 0 or '.' for an empty row ("2 0 . 4"). n may be 0 for
// the second form, which then sets the size. Queens off the board, a row given twice, or
// a line of the wrong length are errors; queens that attack each other are not (see
// [Partial.Check]).
func ParsePartial(s string, n int) (Partial, error) {
	toks := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\n' || r == '\r' })
	if len(toks) == 0 {
		if n < 1 {
			return nil, &ParseError{Msg: "empty partial placement and no board size"}
		}
		return emptyPartial(n), nil
	}
	if strings.Contains(toks[0], ":") {
		return parsePairs(toks, n)
	}
	cols := make([]int, len(toks)) // 1-based, 0 for an empty row
	for r, t := range toks {
		if t == "." {
			continue
		}
		c, err := strconv.Atoi(t)
		if err != nil {
			return nil, &ParseError{Msg: fmt.Sprintf("%q is neither a column nor 0 or '.' for an empty row", t)}
		}
		cols[r] = c
	}
	if n > 0 && len(toks) != n {
		entries := "entries"
		if len(toks) == 1 {
			entries = "entry"
		}
		return nil, &ParseError{Msg: fmt.Sprintf("partial placement has %d %s, want one per row (%d)", len(toks), entries, n)}
	}
	sized := n > 0
	n = len(toks)
	p := emptyPartial(n)
	for r, c := range cols {
		if c == 0 {
			continue
		}
		if c > n && !sized {
			// The line sets the size: a column past its length says it was cut short.
			return nil, &ParseError{Msg: fmt.Sprintf("row %d has its queen in column %d, but the line has %d entries: one entry per row, so at least %d (is the line cut short?)", r+1, c, n, c)}
		}
		if c < 1 || c > n {
			return nil, &ParseError{Msg: fmt.Sprintf("row %d: column %d is off the board (n = %d)", r+1, c, n)}
		}
		p[r] = int32(c - 1)
	}
	return p, nil
}

func emptyPartial(n int) Partial {
	p := make(Partial, n)
	for i := range p {
		p[i] = -1
	}
	return p
}

func parsePairs(toks []string, n int) (Partial, error) {
	if n < 1 {
		return nil, &ParseError{Msg: "row:col pairs need the board size"}
	}
	p := emptyPartial(n)
	for _, t := range toks {
		rs, cs, ok := strings.Cut(t, ":")
		r, err1 := strconv.Atoi(rs)
		c, err2 := strconv.Atoi(cs)
		if !ok || err1 != nil || err2 != nil {
			return nil, &ParseError{Msg: fmt.Sprintf("%q is not a row:col pair", t)}
		}
		if r < 1 || r > n || c < 1 || c > n {
			return nil, &ParseError{Msg: fmt.Sprintf("queen %d:%d is off the board (n = %d)", r, c, n)}
		}
		if p[r-1] >= 0 {
			return nil, &ParseError{Msg: fmt.Sprintf("row %d holds two queens (%d:%d and %d:%d)", r, r, p[r-1]+1, r, c)}
		}
		p[r-1] = int32(c - 1)
	}
	return p, nil
}

// Check returns a *ConflictError naming the first pair of fixed queens that attack each
// other, or nil.
func (p Partial) Check() error {
	n := len(p)
	v := NewVerifier(n)
	rows := make([]int, 0, n) // rows holding a queen, in order
	for r, c := range p {
		if c < 0 {
			continue
		}
		if c >= int32(n) {
			return &ConflictError{Kind: OffBoard, N: n, Row1: -1, Row2: r, Col2: int(c)}
		}
		// The verifier's row counter must follow the real rows for its diagonals.
		v.row = r
		if err := v.Add(int(c)); err != nil {
			ce := err.(*ConflictError)
			for _, r1 := range rows {
				c1 := int(p[r1])
				if (ce.Kind == SameColumn && c1 == ce.Col2) ||
					(ce.Kind == SameDiagonal && r1-c1 == r-ce.Col2) ||
					(ce.Kind == SameAnti && r1+c1 == r+ce.Col2) {
					ce.Row1, ce.Col1 = r1, c1
					break
				}
			}
			return ce
		}
		rows = append(rows, r)
	}
	return nil
}

// String returns the pairs form, 1-based: "1:2,5:7".
func (p Partial) String() string {
	var parts []string
	for r, c := range p {
		if c >= 0 {
			parts = append(parts, fmt.Sprintf("%d:%d", r+1, c+1))
		}
	}
	return strings.Join(parts, ",")
}
