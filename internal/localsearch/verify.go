package localsearch

import (
	"fmt"

	"github.com/nqueens/nqueens/internal/prefetch"
)

// ConflictError describes the first conflict Verify found. Rows and columns are 1-based,
// as in text meant for people (docs/algorithms.md §1).
type ConflictError struct {
	Row1, Row2 int    // 1-based rows, Row1 < Row2; 0 when Why is about one row
	Why        string // "column", "diagonal", "anti-diagonal", "off the board", "length"
}

func (e *ConflictError) Error() string {
	if e.Row1 == 0 {
		return fmt.Sprintf("localsearch: row %d: %s", e.Row2, e.Why)
	}
	return fmt.Sprintf("localsearch: queens of rows %d and %d share a %s", e.Row1, e.Row2, e.Why)
}

// verifyAhead is the number of rows whose bitset words Verify prefetches together.
const verifyAhead = 16

// Verify checks in O(n) time, independently of how q was made, that q (q[r] = 0-based
// column of row r) places len(q) queens that do not attack each other. It returns nil or a
// *ConflictError.
//
// It needs ScratchWords(len(q)) words of scratch: pass the slice given to Solve as
// Options.Scratch to verify without allocating (then solving and verifying together never
// hold more than MemoryBytes(n) bytes). A shorter scratch (nil too) is replaced by a fresh
// allocation. The scratch contents are overwritten.
//
// Columns are checked first, over all rows, then both diagonal families in one pass: a
// column clash is reported before any diagonal one, otherwise the pair reported is the one
// whose later row comes first.
func Verify(q []int32, scratch []uint64) error {
	n := len(q)
	if n == 0 {
		return nil
	}
	if len(scratch) < ScratchWords(n) {
		scratch = make([]uint64, ScratchWords(n))
	}
	// Both passes probe the bitsets at random: the words for the rows one block of
	// verifyAhead rows ahead are prefetched (q is read in order, so their indices cost
	// nothing to compute).
	var idx [2 * verifyAhead]uint32
	// Pass 1: columns, n bits.
	col := scratch[:(n+63)/64]
	clear(col)
	for lo := 0; lo < n; lo += verifyAhead {
		if ahead := q[min(lo+verifyAhead, n):min(lo+2*verifyAhead, n)]; len(ahead) > 0 {
			for i, c := range ahead {
				wi := uint32(c) >> 6
				if int(wi) >= len(col) {
					wi = 0 // a bad column, reported below; the hint must stay in range
				}
				idx[i] = wi
			}
			prefetch.Words(&col[0], idx[:len(ahead)])
		}
		for r := lo; r < min(lo+verifyAhead, n); r++ {
			c := q[r]
			if c < 0 || int(c) >= n {
				return &ConflictError{Row2: r + 1, Why: fmt.Sprintf("column %d off the board", int64(c)+1)}
			}
			w, b := c>>6, uint64(1)<<(c&63)
			if col[w]&b != 0 {
				return pairError(q, r, func(x int32, _ int) bool { return x == c }, "column")
			}
			col[w] |= b
		}
	}
	// Pass 2: diagonals r−c+n−1 and anti-diagonals r+c, 2n−1 bits each, in one array.
	// Every column is now known to be in 0..n−1.
	w := diagWords(n)
	diag, anti := scratch[:w], scratch[w:2*w]
	clear(diag)
	clear(anti)
	for lo := 0; lo < n; lo += verifyAhead {
		if hi := min(lo+2*verifyAhead, n); lo+verifyAhead < hi {
			k := 0
			for r := lo + verifyAhead; r < hi; r++ {
				c := int(q[r])
				idx[k] = uint32((r - c + n - 1) >> 6)
				idx[k+1] = uint32(w + (r+c)>>6)
				k += 2
			}
			prefetch.Words(&scratch[0], idx[:k])
		}
		for r := lo; r < min(lo+verifyAhead, n); r++ {
			c := int(q[r])
			di, ai := r-c+n-1, r+c
			db, ab := uint64(1)<<(di&63), uint64(1)<<(ai&63)
			if diag[di>>6]&db != 0 {
				return pairError(q, r, func(x int32, r2 int) bool { return r2-int(x)+n-1 == di }, "diagonal")
			}
			if anti[ai>>6]&ab != 0 {
				return pairError(q, r, func(x int32, r2 int) bool { return r2+int(x) == ai }, "anti-diagonal")
			}
			diag[di>>6] |= db
			anti[ai>>6] |= ab
		}
	}
	return nil
}

// pairError finds the earlier row that shares a line with row r (the slow path, taken once).
func pairError(q []int32, r int, same func(c int32, row int) bool, why string) error {
	for r2 := 0; r2 < r; r2++ {
		if same(q[r2], r2) {
			return &ConflictError{Row1: r2 + 1, Row2: r + 1, Why: why}
		}
	}
	return &ConflictError{Row2: r + 1, Why: why} // unreachable for a correct caller
}
