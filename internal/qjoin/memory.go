package qjoin

import "github.com/nqueens/nqueens/internal/pool"

// tableEntries is the number of quarter-table entries for n = 0..MaxN (the
// counting pass of NewPlan gives them exactly, up to n = 23; kept here so
// that memory can be estimated before planning).
var tableEntries = [MaxN + 1]uint64{4: 16, 5: 34, 6: 58, 7: 140, 8: 276, 9: 662, 10: 1394,
	11: 3612, 12: 7920, 13: 21787, 14: 50214, 15: 146476, 16: 352172, 17: 1076302,
	18: 2689350, 19: 8552774, 20: 22019328, 21: 73222544, 22: 194415634, 23: 671291238}

// Sizes of one row set's parts, for the memory estimates. maxEast and
// maxWest bound the East and West halves of a row set with the East half
// restricted: every row set measured up to n = 20; beyond, 1.5 times the
// most among the 12 row sets with the most quarter pairs (n = 21..23, which
// found two thirds of the true maximum at n = 18 and 20), then 6.5 times
// more every two steps (6.5 and 7.4 from n = 20 and 21 to 22 and 23 for the
// East, 6.2 and 6.9 for the West). With the West restricted (even n from
// westRestrictedMinN on) the halves are the mirror images: East and West
// swap. maxSlice bounds the entries of one row set of a quadrant: every
// 997th row set measured up to n = 25, every 10060th at 27, every 4999th
// at 26 with the West restricted, then 5.8 (even n) and 6 (odd) times
// more every two steps.
var (
	maxEast = [MaxN + 1]uint64{16: 878, 17: 4761, 18: 4996, 19: 30261, 20: 32870, 21: 217000,
		22: 213000, 23: 1600000, 24: 1400000, 25: 10400000, 26: 9100000, 27: 68000000,
		28: 60000000, 29: 450000000}
	maxWest = [MaxN + 1]uint64{16: 2956, 17: 3538, 18: 19100, 19: 31600, 20: 145000, 21: 173000,
		22: 899000, 23: 1190000, 24: 5800000, 25: 7700000, 26: 38000000, 27: 50000000,
		28: 250000000, 29: 330000000}
	maxSlice = [MaxN + 1]uint64{16: 1500, 17: 2300, 18: 5366, 19: 9000, 20: 26548, 21: 62672,
		22: 143140, 23: 334999, 24: 760660, 25: 1780000, 26: 4600000, 27: 9820157,
		28: 26700000, 29: 59000000}
)

// EstimateMemory is an upper bound, in bytes, of the memory a count of the
// n×n board needs with the given number of workers (0 means GOMAXPROCS).
//
// Up to tablesMaxN: the quarter tables (8 bytes per entry and a 4-byte
// index slot per cell key, plus the fill cursors of two quadrants at once)
// and the plan; beyond, the plan only (its row sets, 4 bytes each, and the
// ids of a count, 8 bytes each, and a flag: 16 bytes a sub-problem). Per
// worker: the East halves of the largest row set (or of a part of eastCap)
// with their copies and chunk tables, at most 80 bytes per half with the
// padding and slice growth, and the counts of a split row set (eastSplit);
// the West halves of a batch, 20 bytes each; and without tables the four
// slices of a row set, 8 bytes per entry and room to grow, at most three
// times the largest slice (the four quadrants' are of different sizes).
// With shared row sets (from sharedMinN) the workers hold one set of
// slices and one part between them, and a batch each. A quarter more for
// the garbage collector.
func EstimateMemory(n, workers int) uint64 { return estimateMemory(n, workers, defaultOptions(n)) }

// estimateMemory is EstimateMemory with the options o.
func estimateMemory(n, workers int, o planOptions) uint64 {
	if n < MinN || n > MaxN {
		return 0
	}
	workers = pool.Default(workers)
	const base = 16 << 20 // runtime, code
	subs := combinations(n, n-n/2)/2 + 2
	mostE, mostW := maxEast[n], maxWest[n]
	if o.westRestricted {
		mostE, mostW = mostW, mostE
	}
	east := 80*min(max(mostE, 512), uint64(o.eastCap)) + 1<<20
	if mostE > uint64(o.eastCap) {
		east += 3 * 8 << splitBits // eastSplit's counts
	}
	west := 20 * min(max(mostW, 4096), uint64(o.westCap))
	slices := 30 * maxSlice[n]
	var shared uint64
	if !o.slices {
		g := newGeom(n, o.westRestricted)
		var index, largest uint64
		for _, q := range g.quads {
			k := 2*combinations(q.rows+q.cols, q.rows) + 1 // keys (see quadTable)
			index += k
			largest = max(largest, k)
		}
		shared = 8*tableEntries[n] + 4*index + 2*4*largest + 64*subs
		slices = 0
	} else {
		shared = 16 * subs
	}
	w := uint64(workers)
	var perRowSets uint64
	if o.shared {
		perRowSets = slices + east + w*west
	} else {
		perRowSets = w * (slices + east + west)
	}
	return (base + shared + perRowSets) * 5 / 4
}

// combinations is the binomial coefficient C(n, k).
func combinations(n, k int) uint64 {
	c := uint64(1)
	for i := 1; i <= k; i++ {
		c = c * uint64(n-k+i) / uint64(i)
	}
	return c
}
