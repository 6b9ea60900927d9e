package nqueens

import (
	"iter"
	"strconv"
	"strings"
)

// Placement puts one queen in each row: p[r] is the 0-based column of the queen in 0-based
// row r. Columns are int32 so that a placement of 10^9 queens takes 4 bytes per queen.
type Placement []int32

// N returns the size of the board.
func (p Placement) N() int { return len(p) }

// Columns streams the 0-based columns in row order.
func (p Placement) Columns() iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, c := range p {
			if !yield(int(c)) {
				return
			}
		}
	}
}

// String returns the 1-based text form, e.g. "2 4 1 3".
func (p Placement) String() string {
	var b strings.Builder
	buf := make([]byte, 0, 12)
	for i, c := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.Write(strconv.AppendInt(buf[:0], int64(c)+1, 10))
	}
	return b.String()
}

// Clone returns a copy of p.
func (p Placement) Clone() Placement { return append(Placement(nil), p...) }

// Equal reports whether p and q place the same queens.
func (p Placement) Equal(q Placement) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// Less orders placements lexicographically by row (shorter boards first).
func (p Placement) Less(q Placement) bool {
	if len(p) != len(q) {
		return len(p) < len(q)
	}
	for i := range p {
		if p[i] != q[i] {
			return p[i] < q[i]
		}
	}
	return false
}
