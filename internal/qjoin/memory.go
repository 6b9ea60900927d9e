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
// swap. From n = 22 on the parts and batches (eastCap, westCap) bound them.
var (
	maxEast = [MaxN + 1]uint64{16: 878, 17: 4761, 18: 4996, 19: 30261, 20: 32870, 21: 217000,
		22: 213000, 23: 1600000, 24: 1400000, 25: 10400000, 26: 9100000, 27: 68000000,
		28: 60000000, 29: 450000000}
	maxWest = [MaxN + 1]uint64{16: 2956, 17: 3538, 18: 19100, 19: 31600, 20: 145000, 21: 173000,
		22: 899000, 23: 1190000, 24: 5800000, 25: 7700000, 26: 38000000, 27: 50000000,
		28: 250000000, 29: 330000000}
)

// Sizes of the quarter slices (slice.go), exact, for the plans' geometry
// (defaultOptions): counted over every row subset of each quadrant (a
// search that counts the placements of each, 2.5 minutes of a core per
// quadrant at n = 28; TestSliceSizes counts them again up to n = 22, 24
// in the long tests). rowSetSlices is the most entries of the four slices
// of one row set; quadSlices the sum over the four quadrants of the most
// entries of one slice of that quadrant: what slicers that keep their
// largest capacity may hold at once. (The sampled sizes these replace
// were a quarter to a third short at n = 27 and 28.)
var (
	rowSetSlices = [MaxN + 1]uint64{10: 62, 11: 115, 12: 186, 13: 339, 14: 562, 15: 1065,
		16: 1996, 17: 3744, 18: 8068, 19: 15900, 20: 37721, 21: 75683, 22: 196372, 23: 415040,
		24: 1072916, 25: 2399816, 26: 6297434, 27: 14889495, 28: 40902999, 29: 96507495}
	quadSlices = [MaxN + 1]uint64{10: 78, 11: 146, 12: 264, 13: 494, 14: 864, 15: 1790,
		16: 3450, 17: 7398, 18: 15218, 19: 32448, 20: 73066, 21: 159227, 22: 373097, 23: 870345,
		24: 2061716, 25: 5093981, 26: 12384828, 27: 31594514, 28: 79487778, 29: 206706465}
)

// EstimateMemory is an upper bound, in bytes, of the memory a count of the
// n×n board needs with the given number of workers (0 means GOMAXPROCS):
// EstimateShardMemory of every sub-problem, in one shard.
func EstimateMemory(n, workers int) uint64 {
	return estimateMemory(n, workers, 0, 1, defaultOptions(n))
}

// EstimateShardMemory is an upper bound, in bytes, of the memory a count of
// subs of the sub-problems of the n×n board's plan needs with the given
// number of workers, its planning included, when the plan is split into
// shards shards (subs ≤ 0: every sub-problem).
//
// Up to tablesMaxN: the quarter tables (8 bytes per entry and a 4-byte
// index slot per cell key, plus the fill cursors of two quadrants at once)
// and the plan. Beyond: the plan's row sets, 4 bytes each; while planning,
// the split into shards, 24 bytes a shard (the shards' bands, 4 bytes a
// shard, those served and growing, and a band being merged: 23 measured
// at n = 28 and 2^24 shards; the plan's sampled costs count the entries
// of a few row sets' slices without storing them); then the ids of the
// count, 8 bytes each and room for a copy, and the row sets being
// counted. Per worker: the East halves of the largest row set (or of a
// part of eastCap) with their copies and chunk tables, at most 80 bytes
// per half with the padding and slice growth (160 at n = 26 and 28:
// eastBytes), and the counts of a split row set (eastSplit); the West
// halves of a batch, 20 bytes each; and without tables the four slices of
// a row set: 10 bytes per entry (8 and room to grow) of the largest slice
// of each quadrant (quadSlices). With
// shared row sets (from sharedMinN) the workers hold one set of slices,
// each in memory of its own, 8 bytes per entry of one row set
// (rowSetSlices), one part between them, and a batch each. A quarter more
// for the garbage collector.
func EstimateShardMemory(n, workers, subs, shards int) uint64 {
	return estimateMemory(n, workers, subs, shards, defaultOptions(n))
}

// estimateMemory is EstimateShardMemory with the options o.
// tableBudget is the most halves a matcher's table holds by the estimate:
// the East halves of the largest row set, or of a part of eastCap. (A West
// batch takes the table's place only up to it.)
func tableBudget(n int, o planOptions) uint64 {
	mostE := maxEast[n]
	if o.westRestricted {
		mostE = maxWest[n]
	}
	return min(max(mostE, 512), uint64(o.eastCap))
}

// eastBytes is the most bytes a table half takes with its copies, chunk
// tables, padding and slice growth: 80, and 80 more where the matcher may
// cut 16 lines on a part (cutBeyondFor: the groups of the part quarter, and
// pad more): a shard of n = 28 (9418089 of 2^24, 2 workers, its first 7
// minutes) peaked at 978 MB with it, 893 MB without.
func eastBytes(o planOptions) uint64 {
	if o.cutBeyond > defaultCutBeyond {
		return 160
	}
	return 80
}

func estimateMemory(n, workers, subs, shards int, o planOptions) uint64 {
	if n < MinN || n > MaxN {
		return 0
	}
	workers = pool.Default(workers)
	const base = 16 << 20 // runtime, code
	rows := combinations(n, n-n/2)/2 + 1
	all := uint64(max(o.pieces, 1))*rows + 2
	count := all
	if subs > 0 {
		count = min(count, uint64(subs))
	}
	mostE, mostW := maxEast[n], maxWest[n]
	if o.westRestricted {
		mostE, mostW = mostW, mostE
	}
	east := eastBytes(o)*tableBudget(n, o) + 1<<20
	if mostE > uint64(o.eastCap) {
		east += 3 * 8 << splitBits // eastSplit's counts
	}
	west := 20 * min(max(mostW, 4096), uint64(o.westCap))
	slices := 10*quadSlices[n] + 12*collectMax // and the slicers' counting searches' entries
	if o.shared {
		slices = 8*rowSetSlices[n] + 4*8*pairSlack
	}
	var plan uint64
	if !o.slices {
		g := newGeom(n, o.westRestricted)
		var index, largest uint64
		for _, q := range g.quads {
			k := 2*combinations(q.rows+q.cols, q.rows) + 1 // keys (see quadTable)
			index += k
			largest = max(largest, k)
		}
		plan = 8*tableEntries[n] + 4*index + 2*4*largest + 64*all
		slices = 0
	} else {
		plan = 4 * rows
	}
	w := uint64(workers)
	var perRowSets uint64
	if o.shared {
		perRowSets = slices + east + w*west
	} else {
		perRowSets = w * (slices + east + west)
	}
	split := uint64(0)
	if shards > 1 {
		split = 24*uint64(shards) + all // and a byte a sub-problem (assignCosts)
	}
	return (base + plan + max(split, 12*count+perRowSets)) * 5 / 4
}

// combinations is the binomial coefficient C(n, k).
func combinations(n, k int) uint64 {
	c := uint64(1)
	for i := 1; i <= k; i++ {
		c = c * uint64(n-k+i) / uint64(i)
	}
	return c
}
