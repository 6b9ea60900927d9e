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
// # Lines: listing at the speed of the output (lines.go, lister.go, mirror.go, tail.go)
//
// Each and EachParallel call back once per solution; WriteLines is the fast path of
// `nqueens list` without --unique: it formats every solution straight into 64 KiB
// buffers (tokens of at most 8 bytes are one unaligned 8-byte store each) and hands
// whole buffers to a single writer. Three things make the search cheap enough that
// printing, not searching, is the cost (at n = 14 the output is 12.8 MB):
//
//   - The tail: the last five rows are not searched. Once row n−6 is placed, five columns
//     c0 < … < c4 are left; a permutation p of them (numbered in lexicographic order, so
//     in the order of the solutions) is a solution iff no c_i lands on a row attacked
//     from above and no two of the five attack each other. The first test is one table
//     lookup per column (indexed by the 5 rows attacked in it, read off the masks), the
//     second one lookup by the gaps between the columns (capped at 5), and a solution set
//     is the AND of six 120-bit masks: no branch per candidate. At n = 14 this replaces
//     20 M of the 27 M squares tried by 3.7 M lookups.
//   - The mirror: q → n−1−q maps the solutions starting with row prefix t onto those
//     starting with the mirror prefix, in reverse lexicographic order. Work is split in
//     tasks, the valid placements of the first 2 rows (3 from n = 15), in lexicographic
//     order; task i and task T−1−i are mirror images. A task of the left half keeps its
//     solutions in a store (the rows below its prefix, 4 bits a column, so n ≤ 16); its
//     mirror task prints them backwards, mirrored, without searching. The stores share a
//     budget (DefaultMirrorBytes, 8 MiB): the whole left half up to n = 14 (1.1 MB), most
//     of it at n = 15 (6.8 MB), a sixth at n = 16; a task whose store does not fit drops
//     it, and its mirror task searches. Memory stays flat.
//   - Workers: tasks are claimed in order by Workers goroutines, each with its own buffers
//     and search state; each task sends its chunks on its own channel, and the writer
//     drains the channels in task order, so the bytes do not depend on the schedule. At
//     most 2·Workers tasks are claimed and not yet written, and a task channel holds 8
//     chunks (a whole task up to n = 14): at most 2·Workers·9 chunks of 64 KiB exist.
//
// The limit is applied by the writer, which cuts the last chunk after the limit's
// solution (it counts newlines: every solution has the same number).
//
// # Legend
//
//	n     board size          d     current row (depth)
//	full  mask of n ones      q     the placement being built, 0-based
//	f     untried squares of row d
package enumerate
