// Package fastcount is the fast N-Queens solution counter: it counts the
// total (OEIS A000170) and the unique (A002562) solutions of an n×n board.
//
// # Engines
//
// A Plan belongs to one of two decompositions, picked by NewPlan from n:
//
//   - from 10 to MaxN (29), the quadrant join of internal/qjoin
//     (EngineQJoin, qjoin.go): sub-problems are row sets of the East half
//     plus two Burnside searches, counted by qjoin's own pool; 40 to 130
//     times faster than floor.c's textbook counter from n = 16 to 18, and
//     about 10 times more per step from n = 20 on;
//   - otherwise, the border constellations described below, counted by
//     search (EngineSearch) or by joining half boards (EngineJoin). They
//     count n < 10 and stay the cross-check of the quadrant join
//     (NewPlanEngine forces either; the long tests compare them up to
//     n = 18).
//
// Plan.Version names the engine generation and is part of Plan.Hash. Every
// sub-problem reports its share of the Burnside numerator
// T + S180 + 2·S90 = 8·U (SubResult.Burnside): a constellation 8 times its
// number of classes, a row set of the join its share of T, the two
// searches S180 and 2·S90. The unique count is the sum over 8, which must
// be whole (Unique checks it, at the end of Count and at every merge of
// shards).
//
// # Decomposition (plan.go)
//
// Every solution of an n×n board (n ≥ 4) has exactly one queen in each of the
// four border lines: row 0, row n-1, column 0 and column n-1. At most one
// corner can hold a queen, since any two corners share a line. A plan lists
// one canonical representative of each symmetry class of border queens
// ("constellations", as in the Q27 project):
//
//   - KindCorner: a queen on (0,0), which is the top and the left queen; the
//     bottom queen (n-1,b) and the right queen (d,n-1) with b < d (the
//     transpose swaps them, b = d is an attack). Class size 8.
//   - KindBorder: four distinct queens off the corners, given as the tuple
//     (a,b,c,d) = queens at (0,a), (n-1,b), (c,0), (d,n-1), kept when it is
//     the smallest of its 8 images. Its stabiliser (Sub.Stab) is 1, 2 (half
//     turn) or 4 (quarter turn): no reflection can fix a valid border set.
//
// Each sub-problem counts the solutions with exactly its border queens. Its
// total contribution is that count times the class size 8/Stab. Its unique
// contribution (reported ×8, as its Burnside share) is the number of
// classes among those solutions under the stabiliser (Burnside: (S + S180)/2 or (S + S180 + 2·S90)/4, with S180,
// S90 the solutions fixed by the half and the quarter turn), which is why
// the few symmetric sub-problems run a search that tests every solution for
// symmetry (countSym). Adding up weights instead gives a wrong unique count.
// Boards below 4 are one whole-board sub-problem (small.go).
//
// # Search (spec.go)
//
// A sub-problem is compiled into a spec: the rows without a border queen
// ("free rows", m of them: n-4, or n-3 with a corner queen), the masks at
// the first free row, and a step table. Masks are uint64 bitboards, bit j =
// column j:
//
//   - cols: occupied columns; countFast also sets every bit ≥ n, so that
//     ^(cols|dl|dr) is the free squares with no further mask;
//   - dl: diagonals going down-right, "col-row" lines; bit j at row r is the
//     line col-row = j-r, so the mask shifts left by one per row;
//   - dr: anti-diagonals, "col+row" lines; bit j at row r is the line
//     col+row = j+r, shifting right by one per row.
//
// Border queens are preloaded: their dr lines as bits up to 2n-2 that shift
// into the board, their dl lines at row 0 when col ≥ row, else injected at
// column 0 when the line enters the board (a left shift cannot bring bits in
// from below bit 0). steps[k] gives the row distance from free row k to the
// next one (s1, which skips the border queens' rows) and the bits injected
// on the way (inj1), and the same for the row after (s2, inj2).
//
// Of the 8 images of a sub-problem's border queens, compile searches the one
// expected to give the smallest tree (orient): bottom queen near a corner,
// side queens low. All images have the same solutions up to symmetry.
//
// countFast is an iterative depth-first search over the free rows with an
// explicit stack of frames {cols, dl, dr, free}. Each iteration takes the
// lowest untried square q of the current row (free & -free), computes the
// masks of the next free row, and pushes them only when that row has a free
// square and the row after it is not already fully attacked (two-row
// look-ahead). A non-empty last row is one solution, since one column is
// left. The stop flag is read on backtracking to a shallow depth
// (pollRows), never in the inner loop.
//
// # Join (join.go, leaf.go, layout.go, bitslice.go, batch.go)
//
// From minJoinN on, each sub-problem is counted by meet in the middle: the
// board is cut between two rows, the inner queens above the cut (top half)
// and below it (bottom half) are enumerated separately (the bottom half on
// the vertically mirrored board, so it also runs top-down), bottom halves
// are bucketed by column set, and each top half counts the compatible
// halves of the bucket of the columns it left free, comparing one 52-bit
// word of diagonal lines (bit-sliced, 64 bottom halves at a time, in large
// buckets). Up to maxSharedN the bottom search knows only the border queens
// below the cut, so that the sub-problems of a group (the same border queens
// below the cut, in the image of their border queens chosen by joinLayouts)
// share one enumeration of the bottom halves; the pool hands out a group's
// sub-problems together, and their top halves are joined in batches sorted
// by bucket (countGroup), for the cache. A batch is joined at least every
// reportEvery and its sub-problems are reported at once, so progress and
// checkpoints advance at that grain, not per group; no layout puts a corner
// queen below the cut, whose group would have 3x the bottom halves. Beyond it each sub-problem has its
// own bottom halves, at most 6 rows (splitRows). The last level of each half
// search runs in an inner loop (leafCtx).
//
// # Memory
//
// The search engine needs a few kilobytes per worker. The join needs per
// worker a table of 2^(n-2) 16-byte entries, the bottom halves of one group
// (about 50 bytes each: 5.9 million at most at n=17, a million at n=21) and
// the batch of top halves (32 MB). These engines (EngineJoin, up to
// n = 23, and EngineSearch) count only when asked. The quadrant join,
// which counts from n = 10 to MaxN by default, has its own figures
// (qjoin.EstimateMemory, qjoin.EstimateShardMemory): at n = 29 a shard's
// planning alone takes over 2 GB. See EstimateMemory.
//
// # Pool (count.go)
//
// Count runs the plan on Options.Workers goroutines that take sub-problem
// ids from an atomic counter; each worker has its own scratch (the join
// tables); results land in a slice by id and are summed in id order with
// overflow detection, so totals and node counts do not depend on
// scheduling. Cancellation sets an atomic flag (context.AfterFunc) that the
// searches poll; interrupted sub-problems are dropped, finished ones are
// reported as a partial result.
//
// # Legend for the hot loops
//
//	k            depth: index of the current free row in rows and steps
//	q            the queen being placed, a one-bit mask
//	free         squares of the current row not tried yet
//	nc, nl, nr   cols, dl, dr of the next free row after placing q
//	nf           free squares of the next free row
//	st           &steps[k]; s1/inj1 to the next free row, s2/inj2 one further
//	stk          the explicit stack, one frame per depth
//	xl, xr       a half's own lines (masks minus the border queens' lines)
//	lt, lb       line words of a top and a bottom half
//
// Nodes counts the queens placed by the searches (for the join: the top
// search, the pairs of halves compared and the bottom halves of the group,
// charged to each of its sub-problems so that the sum does not depend on
// scheduling): a measure of work, not a property of the problem.
package fastcount
