// Package oeis holds the known counts of n-queens solutions, the tables every counter of
// nqueens is tested against: OEIS A000170 (all solutions) and A002562 (unique solutions,
// classes under the 8 symmetries of the square), for n = 1..27.
package oeis

// MaxN is the largest n in the tables.
const MaxN = 27

// total[n-1] is A000170(n).
var total = [MaxN]uint64{1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
	2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884, 314666222712,
	2691008701644, 24233937684440, 227514171973736, 2207893435808352, 22317699616364044,
	234907967154122528}

// unique[n-1] is A002562(n).
var unique = [MaxN]uint64{1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
	1846955, 11977939, 83263591, 621012754, 4878666808, 39333324973, 336376244042,
	3029242658210, 28439272956934, 275986683743434, 2789712466510289, 29363495934315694}

// Total is A000170(n), the number of solutions of the n×n board, for 1 ≤ n ≤ MaxN.
func Total(n int) uint64 { return total[n-1] }

// Unique is A002562(n), the number of solutions up to the 8 symmetries of the square,
// for 1 ≤ n ≤ MaxN.
func Unique(n int) uint64 { return unique[n-1] }
