package qjoin

import "github.com/nqueens/nqueens/internal/pool"

// tableEntries is the number of quarter-table entries for n = 0..MaxN (the
// counting pass of NewPlan gives them exactly; kept here so that memory can
// be estimated before planning).
var tableEntries = [MaxN + 1]uint64{4: 16, 5: 34, 6: 58, 7: 140, 8: 276, 9: 662, 10: 1394,
	11: 3612, 12: 7920, 13: 21787, 14: 50214, 15: 146476, 16: 352172, 17: 1076302,
	18: 2689350, 19: 8552774, 20: 22019328, 21: 73222544}

// maxEast bounds the number of East halves of one row set: measured for
// n ≤ 20; for 21 the largest number of East quarter pairs of a row set
// (681k; the halves are 33% to 44% of the pairs for n = 16..20).
var maxEast = [MaxN + 1]uint64{16: 878, 17: 4761, 18: 4996, 19: 30261, 20: 32870, 21: 681000}

// EstimateMemory is an upper bound, in bytes, of the memory a count of the
// n×n board needs with the given number of workers (0 means GOMAXPROCS):
// the quarter tables (8 bytes per entry and a 4-byte index slot per cell
// key, plus the fill cursors of two quadrants at once), the plan, and per
// worker the East halves of the largest row set with their copies and
// chunk tables (at most 100 bytes per half, with a quarter for slice
// growth) and the West batches; and a quarter more for the garbage
// collector.
func EstimateMemory(n, workers int) uint64 {
	if n < MinN || n > MaxN {
		return 0
	}
	workers = pool.Default(workers)
	g := newGeom(n)
	var index, largest uint64
	for _, q := range g.quads {
		k := 2*combinations(q.rows+q.cols, q.rows) + 1 // keys (see quadTable)
		index += k
		largest = max(largest, k)
	}
	const base = 16 << 20 // runtime, code
	tables := 8*tableEntries[n] + 4*index + 2*4*largest
	subs := uint64(combinations(n, n-n/2)) * 64 // plan, results, checkpoint sets
	perWorker := uint64(1<<20) + 125*max(maxEast[n], 512)
	// A quarter on top for the garbage collector's headroom: measured peak
	// RSS at n=20 with 2 workers is 217 MB, this says 268 MB.
	return (base + tables + subs + uint64(workers)*perWorker) * 5 / 4
}

// combinations is the binomial coefficient C(n, k).
func combinations(n, k int) uint64 {
	c := uint64(1)
	for i := 1; i <= k; i++ {
		c = c * uint64(n-k+i) / uint64(i)
	}
	return c
}
