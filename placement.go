package nqueens

import (
	"iter"
	"strconv"
	"strings"
)

// Placement puts one queen in each row: p[r] is the 0-based column of the queen in 0-based
// row r. Columns are int32 so that a placement of 10^9 queens takes 4 bytes per queen.
type Placement []int32

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
