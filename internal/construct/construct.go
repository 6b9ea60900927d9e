// Package construct builds one n-queens solution for every n ≥ 4 in closed form.
//
// The construction is the classic one of Hoffman, Loessi & Moore (1969), as restated by
// Bernhardsson (1991): list the even columns, then the odd ones (1-based), with two fix-ups.
//
//	n mod 6 ∉ {2, 3}:  2 4 6 … , 1 3 5 …
//	n mod 6 == 2:      2 4 6 … , 3 1 7 9 11 … 5       (swap 1 and 3, move 5 to the end)
//	n mod 6 == 3:      4 6 … 2 , 5 7 9 … 1 3          (move 2, then 1 and 3, to the end)
//
// Column computes the queen of any row in O(1), so a placement of 10^9 queens can be
// streamed without ever being held in memory.
package construct

import "iter"

// Column returns the 0-based column of the queen in 0-based row r of the construction for
// n. It requires n = 1 or n ≥ 4, and 0 ≤ r < n.
func Column(n, r int) int {
	if n == 1 {
		return 0
	}
	half := n / 2 // number of even 1-based columns 2, 4, …, 2·half
	switch n % 6 {
	case 2:
		if r < half {
			return 2*(r+1) - 1 // even 1-based column 2(r+1)
		}
		i := r - half // position in the odd list 3 1 7 9 … 5
		switch {
		case i == 0:
			return 3 - 1
		case i == 1:
			return 1 - 1
		case i == half-1:
			return 5 - 1
		default:
			return 2*i + 3 - 1 // odd 1-based column 2i+3: i=2 → 7, i=3 → 9
		}
	case 3:
		if r < half {
			if r == half-1 {
				return 2 - 1
			}
			return 2*(r+2) - 1 // 4 6 8 …
		}
		i := r - half // position in 5 7 9 … n 1 3
		odds := n - half
		switch {
		case i == odds-2:
			return 1 - 1
		case i == odds-1:
			return 3 - 1
		default:
			return 2*(i+2) + 1 - 1 // 5 7 9 …
		}
	default:
		if r < half {
			return 2*(r+1) - 1
		}
		return 2*(r-half) + 1 - 1
	}
}

// Columns streams the 0-based columns of the construction for n, row by row.
// It requires Check(n) == nil.
func Columns(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for r := range n {
			if !yield(Column(n, r)) {
				return
			}
		}
	}
}
