// Package enumerate streams every solution of a small board in lexicographic order, or one
// canonical representative per symmetry class, in constant memory.
//
// # Search
//
// The search is the bitboard depth-first search of Richards (1997), written with an
// explicit stack of one frame per row so that nothing grows with the number of solutions.
// Bit c of a mask stands for column c. For the row being filled,
//
//	free = ^(cols | dl | dr) & full
//
// holds its unattacked squares, where cols marks the columns taken, dl the squares hit by
// a diagonal (row − column) of an earlier queen and dr those hit by an anti-diagonal (row +
// column). Taking the lowest set bit first (x & -x, "Hacker's Delight" §2-1) tries columns
// from left to right, so solutions come out in lexicographic order. Moving down one row
// shifts the diagonals one column: dl' = (dl|bit)<<1, dr' = (dr|bit)>>1.
//
// # Unique mode
//
// A class is the set of the (at most 8) images of a solution under the symmetries of the
// square; its canonical form is the lexicographically smallest image. The unique mode emits
// a solution iff it is its own canonical form, with the class size 8/|stabiliser|, found by
// comparing the 7 other images with the solution row by row (most comparisons stop at row
// 0). No set of seen solutions is kept. Two cheap necessary conditions prune the search:
// the mirror image starts with n−1−q[0], so q[0] ≤ (n−1)/2; and every image starts with
// the distance of a border queen to a corner, so no border queen may be closer than q[0]
// to a corner (columns 0 and n−1 are closed in the rows r < q[0] and r > n−1−q[0], and the
// last row's queen lies in [q[0], n−1−q[0]]).
//
// # Legend
//
//	n     board size          d     current row (depth)
//	full  mask of n ones      q     the placement being built, 0-based
//	f     untried squares of row d
package enumerate
