package nqueens

import "github.com/nqueens/nqueens/internal/oeis"

// maxKnownN is the largest n whose counts KnownCounts gives (27 today).
const maxKnownN = oeis.MaxN

// KnownCounts returns the published counts of the n×n board, OEIS A000170 (total) and
// A002562 (unique), for 1 ≤ n ≤ 27 (every count published); ok is false for other n. They are what the
// counters are tested against, and what a listing's progress is measured by.
func KnownCounts(n int) (total, unique uint64, ok bool) {
	if n < 1 || n > maxKnownN {
		return 0, 0, false
	}
	return oeis.Total(n), oeis.Unique(n), true
}
