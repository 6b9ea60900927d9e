package qjoin

import (
	"math"
	"math/bits"
)

// The matcher counts, for the West words w of a row set, the East words e
// with e & w == 0 on the crossing-line bits, each East word weighted by its
// class (a "Four Russians" bit matrix):
//
//   - the East words are cut into blocks of 256 or 512 halves (the kernel's
//     block), and each block is transposed: for each line ℓ, a vector V_ℓ of
//     the halves of the block that do not use ℓ;
//   - the lines are cut into chunks of chunkBits (5) consecutive lines; for
//     each chunk j and each subset s of its lines, the chunk table holds
//     T_j[s] = AND of V_ℓ over ℓ in s (T_j[0] = the valid halves);
//   - a West word w picks s_j = its bits in chunk j; the halves of the block
//     compatible with w are AND_j T_j[s_j], counted by a popcount. That is K
//     loads per block, whatever the number of lines w uses.
//
// Classes. An East word carries the flags b and c (bits 62, 63); its class
// b + c weighs 2^(b+c), but class 0, which weighs the east–west weight
// (setWeights). A block is 4 or 8 lanes of 64 halves (one word of a chunk
// table's entry, which every build keeps apart); the words of each class
// stand in lanes of their own, a class taking the same lanes in every
// block of its group (laneSplit), and the kernels shift each lane's count
// by its class's weight. (Blocks of one class each, as before, left a
// padded tail per class and group: at n = 25 a third of the halves
// compared were padding, a sixth with the classes sharing blocks.)
//
// Cut lines. The top c line bits of the words (the lines most used by both
// halves, see cutRank) are not matched but sorted on: the East words are
// grouped by their class and cut bits g, each group in whole blocks of its
// own, and the West words are sorted by their cut bits u. A query with cut
// bits u meets only the groups with g & u == 0. The more lines are cut, the
// fewer blocks a query meets and the fewer chunks a block has, but the
// groups get smaller and their padding grows. The matcher picks c for each
// row set from the histograms of the two sides (choose), so that the
// modelled work is least.
//
// Layout: the chunk tables of block b are blockWords(k) words from
// b*blockWords(k); word ((j*32 + s)*lanes + lane) of a block is word lane
// of T_j[s], lanes being the block's halves / 64. Every kernel reads this
// layout with its own block size.

const (
	chunkBits = 5
	chunkSize = 1 << chunkBits // entries of a chunk table
	minChunks = 4              // fewer lines are padded to 4 chunks
	maxChunks = 8              // bits 0..39: the kernels' limit
	// maxMatched is the number of low line bits the chunk tables can
	// match; the line bits above it must be cut.
	maxMatched = maxChunks * chunkBits
	// maxCut is the largest number of cut lines.
	maxCut = 16
	// classes is the number of weight classes of the East words.
	classes = 3
)

// flagMask is the flags of an East word.
const flagMask = 1<<flagN | 1<<flagS

// classOf is the class of an East word: b + c, its flags.
func classOf(e uint64) int { return int(e>>flagN&1 + e>>flagS) }

// chunksFor is the number K of chunks covering L lines.
func chunksFor(lines int) int { return max(minChunks, (lines+chunkBits-1)/chunkBits) }

// lineSets is, per line ℓ < 40, the set of the halves of a block of 256 that
// do not use ℓ, and at index 40 the valid halves; see buildAVX2.
type lineSets [maxMatched + 1][256 / 32]uint32

// laneShifts is the weight shift of each lane of a block for a query with
// flags f (bits 62, 63): shifts[f][lane]. The kernels load one row a run;
// the AVX2 and Go kernels, with 4 lanes a block, read the first four.
type laneShifts [4][8]uint64

// qrun is a run of queries: qs[class][off:off+n], whose flags (bits 62,
// 63) are all flags: the kernels weigh the run's counts once, by
// shifts[flags]; or, flags perQuery in every run of a call, of any flags,
// each query's counts weighed by its own. The kernels read it as four
// uint32.
type qrun struct {
	off, n, class, flags uint32
}

// perQuery is qrun.flags of runs whose queries' flags differ.
const perQuery = 4

// kernelCall is one call of a count kernel (a countFunc's arguments, its
// chunks k, its block's halves and the sum it returned), as a matcher's
// probe hears it.
type kernelCall struct {
	tab    []uint64
	nb, k  int
	halves int
	qs     *[4][]uint64
	runs   []qrun
	shifts *laneShifts
	// pre are a prefix kernel's prefix tables, of its prefix fields'
	// slots (none for a plain kernel).
	pre   []uint64
	slots preSlots
	sum   uint64
}

// pw is the words a block of the call's prefix tables: 0 for a plain
// kernel.
func (c *kernelCall) pw() int { return c.slots.words(c.halves / 64) }

// countFunc adds up, over the runs r, their queries (in qs) and the nb
// blocks of tab, the number of compatible table words, those of lane l
// weighted by 2^shifts[r.flags][l], by the queries' flags and the lane's
// class.
type countFunc func(tab []uint64, nb int, qs *[4][]uint64, runs []qrun, shifts *laneShifts) uint64

// countPFunc is a countFunc for queries whose low 10 bits (their first two
// chunks) are a slot of the prefix tables pre, pw words a block: entry s
// of block b, at pre[b·pw+s·lanes:], is the AND of the block's chunk 0 and
// chunk 1 entries of the chunk values of slot s (matcher.prefixQueries);
// with two fields, bits 10..19 (chunks 2 and 3) are a slot too, its entry
// at pre[b·pw+(preMax+s)·lanes:].
type countPFunc func(tab []uint64, nb int, qs *[4][]uint64, runs []qrun, shifts *laneShifts, pre []uint64, pw int) uint64

// The prefix kernels (issue 38) load the AND of a query's first two
// chunks as one entry, built once per block and distinct value of those
// chunks, so k-1 loads a query and block instead of k: where the queries
// take at most preMax such values, and the table has preMinBlocks blocks
// or more. At n = 22 a query list takes 128 such values (the median; 208
// at the 90th percentile) and a query meets 52 blocks, so the list's
// rewrite and the tables' build (0.03 entries a query and block) cost
// little. On a Zen 4 VM (pairs of processes, 1 worker, 10 rounds) with
// AVX-512: shard 17 of 512 at n = 22 took 1.021 times less CPU with at
// most 128 values, and 256 a further 1.014 times less than 128; shard
// 42420 of 10^5 at n = 25 1.05 times less; n = 18,
// whose tables are of a few blocks and whose queries meet 6 blocks each,
// 0.92 without the bound on the blocks, even with it. The AVX2 and pure-Go
// kernels, bound by their ALU work rather than by their loads, lost with
// them (0.97 to 0.99, 0.95) and have none.
//
// A second field does the same for chunks 2 and 3 (their 10 bits take 400
// to 800 values a list at n = 22 and 25, at most 1,024 by their width):
// k-2 loads. Its slots start at entry preMax of a block's prefix table, a
// constant displacement for the kernels, so a block's table is up to 80 KB
// and the tile of these kernels is sized by the L2 (avx512PreTile). On the
// Zen 4 VM, against one field: shard 42420 of 10^5 at n = 25 1.137 times
// less CPU, shard 1234567 of 10^7 at 27 1.053, shard 17 of 512 at 22 even
// (0.996; 0.942 with the 48 KB tile, one block a tile). A list takes it
// only with preSecondPer queries a value: at n = 18 the lists that take
// the first field hold 6 to 9 queries a value of the second (1,500 queries,
// 250 values, 8 to 10 blocks, no cut line), and with the bound count 18 -w
// 1 took 1.058 times less CPU (pairs of 20), shard 17 of 512 at 22 1.022.
//
// The prefix tables are built group by group into a worker's scratch,
// matcher.preBytes at most (a group of more blocks is counted in pieces):
// 1 MB a worker, within the memory bound's slack.
const (
	preMax           = 256
	preMinBlocks     = 8
	defaultPreBytes  = 1 << 20
	defaultPreFields = 2
	// preSecondPer is the fewest queries a list needs per value of its
	// chunks 2 and 3 for the second field: each value's entries are built
	// in every block, and a query saves a load in the blocks it meets.
	preSecondPer = 32
)

// sampleStep is the step at which choose samples the queries.
const sampleStep = 8

// linearMax is the number of East words up to which the queries are
// compared with them one by one instead of through chunk tables.
const linearMax = 24

// pad is the word of a padding slot: it uses every line, and no East word
// equals it (East words have no flag bits).
const pad = ^uint64(0)

// matcher holds one row set's table words (those of one half), grouped by
// their class and cut bits, and their chunk tables, and counts the words
// of the other half against them.
type matcher struct {
	im         *impl
	lines      int // L
	cmin, cmax int // the range of cut lines
	mask       uint64
	// forceCut, if ≥ 0, is the number of cut lines to use whatever the
	// cost model says (within cmin..cmax); the tests set it.
	forceCut int
	// smallEast is the number of table words up to which no line is cut
	// (but cmin): choosing the lines and grouping the words by them costs
	// more than the cut saves on so few (measured: 8% faster at n = 17, 11%
	// at n = 18 with the AVX-512 kernel). The tests set it to 0, so that
	// the choice runs at small n.
	smallEast int
	// cutBeyond is how many cut lines beyond log2 of a table's blocks
	// choose weighs (cutRange): cutBeyondFor(n).
	cutBeyond int
	// rangeWords, if more than a table's words, is the number of words
	// whose range of cut lines choose weighs for it (cutRange): that of
	// the whole West batch for each of its pieces (westTable).
	rangeWords int
	// stepPairs is the number of query × block pairs a kernel call counts
	// at most before stop is polled again: some 20 to 50 ms.
	stepPairs int
	// preBytes is the most bytes of prefix tables built at once
	// (defaultPreBytes; the tests set less).
	preBytes int
	// preFields is the most prefix fields prefixQueries makes: 1 or 2
	// (defaultPreFields; the tests set both).
	preFields int

	// The current row set.
	linear bool     // few table words: compared one by one
	table  []uint64 // the table words (for the linear scan)
	// flaggedTable tells whether the table is the flagged half, whose
	// words weigh by their class; else the queries are.
	flaggedTable bool
	c, k         int // cut lines and chunks
	// first[g] is the first block of group g, and first[1<<c] the number
	// of blocks; laneCls[g] the class of each of its lanes, two bits a
	// lane from bit 0 (laneFree: no class, padding).
	first   []int32
	laneCls []uint16
	words   []uint64 // the table words grouped and padded
	tab     []uint64 // the chunk tables (not built where lazy)
	// lazy: countWith builds each group's chunk tables as it comes to
	// them, into its scratch (buildOnce).
	lazy  bool
	count countFunc
	// probe, when set (by a benchmark, through the plan's options), hears every
	// call of count once it has returned (kernelCall). Nil outside the tests:
	// the kernel is then called directly.
	probe func(*kernelCall)
	v     lineSets // the AVX2 build's scratch

	// Scratch.
	hist   []uint32    // histograms of choose
	sos    []float64   // subset sums of choose
	counts []uint32    // counting sort of the table words
	slots  []groupSlot // group's slots
	// counted is the number of cut lines whose exact histogram of the
	// table words choose left in counts for group (-1: none), so that
	// the table is read once for both.
	counted int
	qs      queryScratch
	weights [classes]uint8 // shift of the weight of each class
}

// queryScratch is the memory of a count of queries against a built
// matcher: a worker's own, so that several count against one matcher.
type queryScratch struct {
	sorted [4][]uint64 // the queries sorted by u (in sorted[0])
	ends   []uint32    // the end of each u in sorted[0]
	runs   []qrun
	// shifts is the lanes' weight shifts by the queries' flags, on a heap
	// object of its own: 256 bytes, a size class whose objects are 256-byte
	// aligned, so that a kernel's load of a row never splits a cache line
	// (in a field of queryScratch, count 18 -w 1 took 5% more CPU).
	shifts *laneShifts
	// tab and v are the chunk tables of the group being counted, and the
	// build's scratch, where the matcher is lazy (buildOnce).
	tab []uint64
	v   lineSets
	// The prefix kernels' tables of the group being counted, the chunk
	// values of each slot and the slot of each value (prefixQueries).
	pre      []uint64
	preVals  []uint16
	preRank  []uint16
	preValsB []uint16
	preRankB []uint16
}

// defaultCutBeyond is matcher.cutBeyond but where cutBeyondFor widens it.
const defaultCutBeyond = 2

// defaultSmallEast is matcher.smallEast outside the tests.
const defaultSmallEast = 8192

// newMatcher returns a matcher for words of L line bits with the kernel
// im.
func newMatcher(L int, im *impl) *matcher {
	return &matcher{
		im:        im,
		lines:     L,
		cmin:      max(0, L-maxMatched),
		cmax:      min(L, maxCut),
		mask:      1<<uint(L) - 1,
		forceCut:  -1,
		counted:   -1,
		smallEast: defaultSmallEast,
		cutBeyond: defaultCutBeyond,
		stepPairs: defaultStepPairs,
		preBytes:  defaultPreBytes,
		preFields: defaultPreFields,
	}
}

// build prepares the table words of a row set (flagged: the words of the
// flagged half, weighted by their classes), with c cut lines, or if c < 0
// those that choose picks from the histograms of the table and of the
// query words sample (any part of the row set's queries, to estimate their
// spread over the cut bits; it may be empty), and builds their chunk
// tables: the matcher may then be counted against any number of times, by
// several workers at once.
func (m *matcher) build(table, sample []uint64, flagged bool, c int) {
	if m.layout(table, sample, flagged, c) {
		m.buildTables()
	}
}

// buildOnce is build for a matcher that one countWith counts against, and
// no other: the chunk tables of each group are built as countWith comes to
// it, into the worker's scratch, and only for the groups that some query
// meets. The tables of a group are then in the core's caches when the
// kernel reads them, and no store of the build goes to memory that the
// caches let go since the last row set (on a Zen 4 core, 70% of the
// build's time was on its stores, the table of a row set of n = 22 being
// 6 MB on average against an L2 of 1 MB).
//
// With no cut line (one group, every row set up to 8,192 table words) the
// tables are built up front, as build does: every query meets the one
// group, and the lazy build took 1.02 times the CPU at n = 18.
func (m *matcher) buildOnce(table, sample []uint64, flagged bool, c int) {
	if !m.layout(table, sample, flagged, c) {
		return
	}
	if m.c == 0 {
		m.buildTables()
		return
	}
	m.lazy = true
}

// buildTables builds the chunk tables of every block.
func (m *matcher) buildTables() {
	m.tab = m.tablesInto(m.tab, m.words, m.nb(), &m.v)
}

// tablesInto builds the chunk tables of the nb blocks of words into buf,
// grown if it is too small, and returns them.
func (m *matcher) tablesInto(buf, words []uint64, nb int, v *lineSets) []uint64 {
	need := nb * m.im.blockWords(m.k)
	if cap(buf) < need {
		buf = make([]uint64, need, need+need/4)
	}
	buf = buf[:need]
	m.im.build(words, nb, buf, m.k, v)
	return buf
}

// layout is build but the chunk tables: the cut lines, the words grouped
// and padded, and the kernel; false if the table is compared word by word
// (linear).
func (m *matcher) layout(table, sample []uint64, flagged bool, c int) bool {
	m.table = table
	m.flaggedTable = flagged
	m.counted = -1 // (cost may have left another table's)
	m.lazy = false
	m.linear = len(table) <= linearMax
	if m.linear {
		return false
	}
	if c < 0 {
		if lo, hi := m.cutRange(max(len(table), m.rangeWords)); lo == hi {
			c = lo // nothing to choose: no need of the histograms
		} else {
			c, _ = m.choose(table, sample)
		}
	}
	m.c = c
	m.k = chunksFor(m.lines - m.c)
	m.group(table)
	m.count = m.im.count(m.k)
	if probe := m.probe; probe != nil {
		count, k, halves := m.count, m.k, m.im.halves
		m.count = func(tab []uint64, nb int, qs *[4][]uint64, runs []qrun, shifts *laneShifts) uint64 {
			sum := count(tab, nb, qs, runs, shifts)
			probe(&kernelCall{tab: tab, nb: nb, k: k, halves: halves, qs: qs, runs: runs, shifts: shifts, sum: sum})
			return sum
		}
	}
	return true
}

// cost is the modelled work of matching the queries q against the table
// words with the best number of cut lines (chooseStep).
func (m *matcher) cost(table, q []uint64) float64 {
	if len(table) <= linearMax {
		return float64(len(table)) * float64(len(q)) * linearPair
	}
	_, cost := m.chooseStep(table, q, max(1, len(table)/costWords))
	return cost
}

// costWords is about the number of table words whose histogram cost reads:
// every k-th word of a larger table, each counting for k. The choice
// between two tables needs no more (with AVX-512 the exact histograms of
// both halves of the row sets of n = 18 took a tenth of the count), and
// the build chooses the cut lines of the table taken from all its words.
const costWords = 2048

// classWords is about the number of table words whose classes cost reads
// for a table that cuts no line.
const classWords = 256

// linearPair is the cost of comparing two words in countLinear, in the
// units of impl's constants.
const linearPair = 0.4

// nb is the number of blocks.
func (m *matcher) nb() int { return int(m.first[len(m.first)-1]) }

// choose returns the number of cut lines with the least modelled work, and
// the work: for each group (class, g) of table words (padded to whole
// blocks) and the queries that meet it (those whose cut bits u are a
// subset of ~g), the kernel's cost per query and block and chunk, plus a
// cost per query and group met, plus the build of the chunk tables; and
// the grouping of the table and the sorting of the queries.
func (m *matcher) choose(table, sample []uint64) (int, float64) {
	return m.chooseStep(table, sample, 1)
}

// chooseStep is choose from the histogram of every step-th table word.
func (m *matcher) chooseStep(table, sample []uint64, step int) (int, float64) {
	lo, hi := m.cutRange(max(len(table), m.rangeWords))
	all := float64(len(sample))
	if hi == 0 {
		return 0, m.noCutCost(table, all, step) + m.im.delta*float64(len(table)) + m.im.epsilon*all
	}
	size := 1 << uint(hi)
	scale, all := m.histograms(table, sample, hi, step)
	hist, hW := m.hist[:(classes+1)*size], m.hist[classes*size:(classes+1)*size]
	best, bestCost := hi, math.Inf(1)
	for c := hi; c >= lo; c-- {
		n := 1 << uint(c)
		// The histograms fold onto c bits in place: entry g of c bits is
		// the sum of the entries 2g, 2g+1 of c+1 bits.
		if c < hi {
			for cl := 0; cl <= classes; cl++ {
				h := hist[cl*size:]
				for g := 0; g < n; g++ {
					h[g] = h[2*g] + h[2*g+1]
				}
			}
		}
		if cost := m.cutCost(hist, hW, size, c, scale, step); cost < bestCost {
			best, bestCost = c, cost
			if step == 1 {
				m.keepHistogram(hist, size, c)
			}
		}
	}
	return best, bestCost + m.im.delta*float64(len(table)) + m.im.epsilon*all
}

// keepHistogram copies the exact histogram hist of the table words by
// class and c cut bits (class cl at cl*size) into counts, laid out as
// group reads it (cl<<c | g), and sets counted to c.
func (m *matcher) keepHistogram(hist []uint32, size, c int) {
	n := 1 << uint(c)
	m.growCounts(c)
	for cl := range classes {
		copy(m.counts[cl<<uint(c):(cl+1)<<uint(c)], hist[cl*size:cl*size+n])
	}
	m.counted = c
}

// growCounts gives counts room for group's arrays with c cut lines.
func (m *matcher) growCounts(c int) {
	if room := 3 * classes << uint(c); cap(m.counts) < room {
		m.counts = make([]uint32, room, 2*room)
	}
}

// noCutCost is choose's work for a table that cuts no line, but for the
// grouping and the sorting: the classes' blocks, each met by every one of
// all queries.
func (m *matcher) noCutCost(table []uint64, all float64, step int) float64 {
	bh := m.im.halves
	var cnt [classes]int
	if step > 1 || len(table) > 4*classWords {
		// (Only cost comes here, build does not: about classWords
		// words tell the classes' blocks well enough.)
		step = max(step, len(table)/classWords)
		for i := 0; i < len(table); i += step {
			cnt[classOf(table[i])] += step
		}
	} else {
		cnt = classCounts(table)
	}
	k := float64(chunksFor(m.lines))
	blocks, _ := laneSplit(cnt, bh/64)
	nb := float64(blocks)
	return all*(nb*k*m.im.alpha+m.im.beta) + nb*k*m.im.gamma
}

// histograms fills m.hist, for the hi top cut lines, with the histogram of
// every step-th table word by class and cut bits (hist[cl<<hi | g]) and,
// after them (at classes<<hi), that of the sample's cut bits; it returns
// the queries each query of the sample stands for and the queries: those of
// the sample, or without a sample size of them, spread evenly.
func (m *matcher) histograms(table, sample []uint64, hi, step int) (scale, all float64) {
	size := 1 << uint(hi)
	if cap(m.hist) < (2*classes+1)*size {
		m.hist = make([]uint32, (2*classes+1)*size) // the table's, the queries', the table's second
		m.sos = make([]float64, size)
	}
	clear(m.hist[:(2*classes+1)*size])
	hW := m.hist[classes*size : (classes+1)*size]
	sh := uint(m.lines - hi)
	top := uint64(size - 1)
	tableHistogram(m.hist[:(2*classes+1)*size], table, uint(hi), sh, top, step)
	// Every sampleStep-th query of a large sample, every query of a small
	// one; without a sample the queries count as spread evenly.
	step = sampleStep
	if len(sample) < 64*sampleStep {
		step = 1
	}
	var wq float64
	for i := 0; i < len(sample); i += step {
		hW[sample[i]>>sh&top]++
		wq++
	}
	if wq == 0 {
		for i := range hW {
			hW[i] = 1
		}
		return 1, float64(size)
	}
	all = float64(len(sample))
	return all / wq, all
}

// cutCost is choose's work with c cut lines, but for the grouping and the
// sorting, from the histograms folded onto c bits: hist by class (each
// count standing for tstep table words) and hW the queries', each standing
// for scale queries.
func (m *matcher) cutCost(hist, hW []uint32, size, c int, scale float64, tstep int) float64 {
	lanes := m.im.halves / 64
	n := 1 << uint(c)
	// sos[u]: the queries whose cut bits are a subset of u.
	sos := m.sos[:n]
	for u := range sos {
		sos[u] = float64(hW[u])
	}
	for b := 1; b < n; b <<= 1 {
		for base := 0; base < n; base += 2 * b {
			without, with := sos[base:base+b], sos[base+b:base+2*b]
			for u := range with {
				with[u] += without[u]
			}
		}
	}
	k := float64(chunksFor(m.lines - c))
	var cost float64
	for g := 0; g < n; g++ {
		cnt := [classes]int{int(hist[g]) * tstep, int(hist[size+g]) * tstep, int(hist[2*size+g]) * tstep}
		blocks, _ := laneSplit(cnt, lanes)
		if blocks == 0 {
			continue
		}
		nb := float64(blocks)
		cost += sos[(n-1)&^g]*scale*(nb*k*m.im.alpha+m.im.beta) + nb*k*m.im.gamma
	}
	return cost
}

// cutRange is the range of cut lines choose weighs for a table of n
// words: up to about log2 of the blocks and m.cutBeyond more; none (but
// cmin) for one block or up to smallEast words.
func (m *matcher) cutRange(n int) (lo, hi int) {
	if m.forceCut >= 0 {
		c := min(max(m.forceCut, m.cmin), m.cmax)
		return c, c
	}
	bh := m.im.halves
	if n <= max(bh, m.smallEast) {
		return m.cmin, m.cmin
	}
	return m.cmin, max(m.cmin, min(m.cmax, bits.Len(uint(n/bh))+m.cutBeyond))
}

// classCounts is the number of table words of each class: sums of the
// flag bits (a histogram's increments would wait on one another).
func classCounts(table []uint64) [classes]int {
	var a, b, ab uint64
	for _, x := range table {
		a += x >> flagN & 1
		b += x >> flagS
		ab += x >> flagN & (x >> flagS)
	}
	return [classes]int{len(table) - int(a+b-ab), int(a + b - 2*ab), int(ab)}
}

// tableHistogram adds to hist[cl<<hi | g] the table words of class cl and
// cut bits g (the bits of x>>sh&top), in two interleaved histograms, the
// second at hist[(classes+1)<<hi:], zero on entry, which it adds to the
// first: neighbouring words often share their bits, and one histogram's
// increments of one slot would wait on one another. With step > 1 it
// counts every step-th word, once each, in the first only.
func tableHistogram(hist []uint32, table []uint64, hi, sh uint, top uint64, step int) {
	n := classes << hi
	h0, h1 := hist[:n], hist[(classes+1)<<hi:][:n]
	if step > 1 {
		// Every step-th word only: few enough not to wait on one another.
		for i := 0; i < len(table); i += step {
			x := table[i]
			h0[classOf(x)<<hi|int(x>>sh&top)]++
		}
		return
	}
	i := 0
	for ; i+1 < len(table); i += 2 {
		x, y := table[i], table[i+1]
		h0[classOf(x)<<hi|int(x>>sh&top)]++
		h1[classOf(y)<<hi|int(y>>sh&top)]++
	}
	if i < len(table) {
		x := table[i]
		h0[classOf(x)<<hi|int(x>>sh&top)]++
	}
	for g, v := range h1 {
		h0[g] += v
	}
}

// laneFree is the class of a lane that holds no words, in laneCls.
const laneFree = 3

// laneSplit returns the fewest blocks of lanes lanes (64 halves each) that
// hold cnt[cl] words of each class cl in lanes of its own, the same lanes
// in every block, and the lanes of each class then.
func laneSplit(cnt [classes]int, lanes int) (nb int, a [classes]int) {
	total := cnt[0] + cnt[1] + cnt[2]
	if total == 0 {
		return 0, a
	}
	for nb = (total + 64*lanes - 1) / (64 * lanes); ; nb++ {
		used := 0
		for cl, c := range cnt {
			a[cl] = (c + 64*nb - 1) / (64 * nb)
			used += a[cl]
		}
		// (At nb ≥ every cnt/64 each class takes a lane at most.)
		if used > lanes {
			continue
		}
		for cl, c := range cnt {
			if c == total { // one class: every lane, its slots in a row
				a[cl] = lanes
			}
		}
		return nb, a
	}
}

// group lays the table words out in m.words by their cut bits g (the top
// m.c line bits), each group in whole blocks, its classes in lanes of
// their own (laneSplit), without their flags (the tables read bit 63 as
// the padding's mark), and sets m.first and m.laneCls.
func (m *matcher) group(table []uint64) {
	bh := m.im.halves
	lanes := bh / 64
	c := uint(m.c)
	n := 1 << c
	// counts holds the class counts (classes<<c, with room for
	// tableHistogram's second histogram).
	room := 3 * classes << c
	if cap(m.first) < n+1 {
		m.first = make([]int32, n+1, 2*n+1)
		m.laneCls = make([]uint16, n, 2*n)
	}
	m.growCounts(int(c))
	m.first, m.laneCls = m.first[:n+1], m.laneCls[:n]
	cnt := m.counts[:classes<<c]
	counted := m.counted == int(c)
	m.counted = -1
	if counted {
		clear(m.counts[classes<<c : room])
	} else {
		clear(m.counts[:room])
	}
	sh := uint(m.lines) - c
	top := uint64(1)<<c - 1
	flagged := m.flaggedTable
	switch {
	case counted:
		// choose's histogram, in counts already.
	case flagged && c == 0:
		for cl, k := range classCounts(table) {
			cnt[cl] = uint32(k)
		}
	case flagged || c > 0:
		// (The words of a table that is not the flagged half have no
		// flags: class 0.)
		tableHistogram(m.counts[:room], table, c, sh, top, 1)
	default:
		cnt[0] = uint32(len(table))
	}
	// The blocks and lanes of each group, and the slots of each class and
	// group (groupSlot).
	if cap(m.slots) < classes<<c {
		m.slots = make([]groupSlot, classes<<c, 2*classes<<c)
	}
	slots := m.slots[:classes<<c]
	m.first[0] = 0
	for g := 0; g < n; g++ {
		k := [classes]int{int(cnt[g]), int(cnt[1<<c|g]), int(cnt[2<<c|g])}
		nb, a := laneSplit(k, lanes)
		m.first[g+1] = m.first[g] + int32(nb)
		base := uint32(int(m.first[g]) * bh)
		var cls uint16
		lane := 0
		for cl := range classes {
			cur := base + uint32(lane*64)
			span := uint32(a[cl] * 64)
			slots[cl<<c|g] = groupSlot{cur: cur, end: cur + span, skip: uint32(bh) - span}
			for range a[cl] {
				cls |= uint16(cl) << (2 * lane)
				lane++
			}
		}
		for ; lane < lanes; lane++ {
			cls |= laneFree << (2 * lane)
		}
		m.laneCls[g] = cls
	}
	size := int(m.first[n]) * bh
	if cap(m.words) < size {
		m.words = make([]uint64, size, size+size/4)
	}
	w := m.words[:size]
	m.words = w
	switch {
	case flagged:
		scatterFlagged(w, table, slots, c, sh, top, uint32(bh))
	case c > 0:
		// One class: its lanes are every lane, its slots those of its
		// blocks in a row.
		scatterOne(w, table, slots, sh, top)
	default:
		copy(w, table)
		slots[0].cur = uint32(len(table))
	}
	// The padding: the slots left in each class's lanes, and the free
	// lanes, which follow the classes' in every block.
	bw := uint32(bh)
	for g := 0; g < n; g++ {
		end := uint32(int(m.first[g+1]) * bh)
		used := 0
		for cl := range classes {
			s := slots[cl<<c|g]
			span := bw - s.skip
			if span == 0 {
				continue
			}
			if span == bw {
				fillPad(w[s.cur:end])
			} else {
				for s.cur < end {
					fillPad(w[s.cur:s.end])
					s.cur, s.end = s.end+s.skip, s.end+bw
				}
			}
			used += int(span) / 64
		}
		if used < lanes {
			for b := int(m.first[g]) * bh; b < int(end); b += bh {
				fillPad(w[b+used*64 : b+bh])
			}
		}
	}
}

// groupSlot is the next slot of a class and group of group's table
// (cur), the end of the class's lanes in cur's block (end), and the slots
// from there to its lanes in the next block (skip: the other lanes).
type groupSlot struct{ cur, end, skip uint32 }

// scatterFlagged puts each word of table, its flags cleared, in the next
// slot of its class and group (its top c of sh+c line bits), stepping to
// the class's lanes in the next block (bh slots on) when those of this
// one are full. (A function of its own, so that its loop keeps its
// variables in registers: inlined in group, they spilled.)
//
//go:noinline
func scatterFlagged(w, table []uint64, slots []groupSlot, c, sh uint, top uint64, bh uint32) {
	c, sh = c&63, sh&63
	for _, x := range table {
		s := &slots[(x>>flagN&1+x>>flagS)<<c|x>>sh&top]
		cur := s.cur
		w[cur] = x &^ flagMask
		cur++
		if cur == s.end {
			// The class's lanes of this block are full: those of the next.
			cur += s.skip
			s.end += bh
		}
		s.cur = cur
	}
}

// scatterOne puts each word of a table of one class in the next slot of
// its group (its top bits past sh), whose slots follow one another. (Not
// inlined, as scatterFlagged.)
//
//go:noinline
func scatterOne(w, table []uint64, slots []groupSlot, sh uint, top uint64) {
	sh &= 63
	for _, x := range table {
		s := &slots[x>>sh&top]
		w[s.cur] = x
		s.cur++
	}
}

// fillPad sets every word of w to pad.
func fillPad(w []uint64) {
	for i := range w {
		w[i] = pad
	}
}

// setWeights sets the weight of each class of the flagged half's words as
// a power of two: class 0 weighs 2^shift0 (the east–west weight), class 1
// (one flag) 2, class 2 (both) 4.
func (m *matcher) setWeights(shift0 uint) { m.weights = [classes]uint8{uint8(shift0), 1, 2} }

// countQueries adds up the compatible table words over the queries q (of
// the other half), each pair weighted by the class of its flagged word
// (see setWeights). It polls stop every few hundred million pairs; ok is
// false if stop said so.
func (m *matcher) countQueries(q []uint64, stop func() bool) (sum uint64, ok bool) {
	return m.countWith(q, &m.qs, stop)
}

// countWith is countQueries with the scratch memory sc, so that workers
// count against one matcher at once: m is only read. (A lazy matcher,
// buildOnce's, is counted against once, by one worker.)
//
// The loop over the table's groups (up to 2^16 a call) stays in one
// function on purpose: it is on the counting's hot path, each group
// gathering the runs of queries that meet it for the kernels; only the
// sort of the queries is apart (sortQueries).
func (m *matcher) countWith(q []uint64, sc *queryScratch, stop func() bool) (sum uint64, ok bool) {
	if len(m.table) == 0 || len(q) == 0 {
		return 0, true
	}
	if m.linear {
		return m.countLinear(q), true
	}
	// The kernels weigh each lane by the class of its words (a flagged
	// table) or by the query's flags (flagged queries).
	cb := uint(m.c)
	n := 1 << cb
	bw := m.im.blockWords(m.k)
	qs := m.sortQueries(q, sc)
	var d preSlots // the prefix slots: none for the plain kernels
	if m.im.countsP[1][m.k] != nil && m.nb() >= preMinBlocks {
		qs, d = m.prefixQueries(qs, sc)
	}
	ends := sc.ends
	// fs: the flag values apart in ends, 4 where the queries have flags
	// and a cut line; where they have flags and no cut, the runs' are
	// perQuery.
	fs, runFlags := uint32(1), uint32(0)
	switch {
	case !m.flaggedTable && cb > 0:
		fs = 4
	case !m.flaggedTable:
		runFlags = perQuery
	}
	if sc.shifts == nil {
		sc.shifts = new(laneShifts)
	}
	if !m.flaggedTable {
		w := m.weights
		for f, s := range [4]uint8{w[0], w[1], w[1], w[2]} {
			for l := range sc.shifts[f] {
				sc.shifts[f][l] = uint64(s)
			}
		}
	}
	cls := uint16(laneFree) // the lane classes the shifts were set for
	for g := 0; g < n; g++ {
		nb := int(m.first[g+1] - m.first[g])
		if nb == 0 {
			continue
		}
		runs := sc.runs[:0]
		free := uint32(n-1) &^ uint32(g)
		// The subsets u of free in ascending order, so that the runs walk
		// the sorted queries forward and the kernels' prefetch runs ahead.
		for u := uint32(0); ; u = (u - free) & free {
			// The queries of u, by their flags (one run without).
			for f := u * fs; f < (u+1)*fs; f++ {
				start := uint32(0)
				if f > 0 {
					start = ends[f-1]
				}
				if end := ends[f]; end > start {
					runs = append(runs, qrun{off: start, n: end - start, flags: f%fs | runFlags})
				}
			}
			if u == free {
				break
			}
		}
		sc.runs = runs
		if len(runs) == 0 {
			continue
		}
		// Each group may be too small for countGroup to poll, and there
		// may be 2^16 of them.
		if stop != nil && stop() {
			return 0, false
		}
		if m.flaggedTable && m.laneCls[g] != cls {
			cls = m.laneCls[g]
			m.setLaneShifts(sc.shifts, cls)
		}
		var tab []uint64
		if m.lazy {
			h := m.im.halves
			sc.tab = m.tablesInto(sc.tab, m.words[int(m.first[g])*h:int(m.first[g+1])*h], nb, &sc.v)
			tab = sc.tab
		} else {
			off := int(m.first[g]) * bw
			tab = m.tab[off : off+nb*bw]
		}
		c, ok := m.countGroup(sc, tab, nb, qs, runs, stop, d)
		if !ok {
			return 0, false
		}
		sum += c
	}
	return sum, true
}

// setLaneShifts sets the shifts of the lanes of classes cls (laneCls) to
// their classes' weights, for every query (the flagged table's queries
// have no flags); a free lane's count is 0 and its shift too.
func (m *matcher) setLaneShifts(shifts *laneShifts, cls uint16) {
	for l := range shifts[0] {
		var s uint64
		if cl := cls >> (2 * l) & 3; cl != laneFree {
			s = uint64(m.weights[cl])
		}
		for f := range shifts {
			shifts[f][l] = s
		}
	}
}

// sortQueries sorts the queries q by their cut bits u and, where they
// have flags (the table is not the flagged half), by their flags f within
// u (a counting sort into sc.sorted[0] by the key u·4 + f, or u; sc.ends
// the end of each key), and returns them as the kernels take them: in one
// run per key, weighed once a run. With no cut line, q as it is.
func (m *matcher) sortQueries(q []uint64, sc *queryScratch) *[4][]uint64 {
	cb := uint(m.c)
	// The flags are in the key where the queries have them and are sorted
	// anyway: with no cut, a sort by the flags alone cost more than the
	// kernels save by weighing once a run (count 18 -w 1: 1.49 s of CPU
	// against 1.11, a quarter of it in the sort).
	fb := uint(0) // bits of the flags in the key
	if !m.flaggedTable && cb > 0 {
		fb = 2
	}
	n := 1 << (cb + fb)
	if n == 1 {
		sc.ends = append(sc.ends[:0], uint32(len(q)))
		return &[4][]uint64{q}
	}
	sh := uint(m.lines) - cb
	top := uint64(1)<<cb - 1
	key := func(w uint64) uint64 { return (w>>sh&top)<<fb | w>>62&(1<<fb-1) }
	// Counting sort by key: ends[key] becomes the end of key.
	if cap(sc.ends) < n+1 {
		sc.ends = make([]uint32, n+1, 2*n+1)
	}
	ends := sc.ends[:n+1]
	clear(ends)
	for _, w := range q {
		ends[key(w)+1]++
	}
	for u := 1; u <= n; u++ {
		ends[u] += ends[u-1]
	}
	out := sc.sortedOf(len(q))
	for _, w := range q {
		k := key(w)
		out[ends[k]] = w
		ends[k]++
	}
	sc.ends = ends[:n]
	return &sc.sorted
}

// preSlots are the slots of a list's prefix fields (prefixQueries): a of
// its first (chunks 0 and 1), 0 for the plain kernels; b of its second
// (chunks 2 and 3), 0 where it has one.
type preSlots struct{ a, b int }

// fields is the number of prefix fields.
func (d preSlots) fields() int {
	switch {
	case d.b > 0:
		return 2
	case d.a > 0:
		return 1
	}
	return 0
}

// words is the words of a block's prefix table, with lanes words an
// entry: the second field's slots start at entry preMax.
func (d preSlots) words(lanes int) int {
	if d.b > 0 {
		return (preMax + d.b) * lanes
	}
	return d.a * lanes
}

// prefixQueries readies the queries qs[0], as sortQueries returned them,
// for the prefix kernels: if their low 10 bits (their first two chunks)
// take at most preMax values, it returns them in sc.sorted[0] with those
// bits replaced by the value's slot (the values in ascending order, the
// value of slot s in sc.preVals[s]) and the number of slots; else qs and
// none. Where the kernel has them, the next 10 bits (chunks 2 and 3) are
// replaced the same way by their slot (sc.preValsB), at most 1,024. The
// caller's queries are not changed.
func (m *matcher) prefixQueries(qs *[4][]uint64, sc *queryScratch) (*[4][]uint64, preSlots) {
	q := qs[0]
	two := m.preFields > 1 && m.im.countsP[2][m.k] != nil
	var seen, seenB [1024 / 64]uint64
	if two {
		for _, w := range q {
			seen[w>>6&15] |= 1 << (w & 63)
			seenB[w>>16&15] |= 1 << (w >> 10 & 63)
		}
	} else {
		for _, w := range q {
			seen[w>>6&15] |= 1 << (w & 63)
		}
	}
	d := setSize(&seen)
	if d == 0 || d > preMax {
		return qs, preSlots{}
	}
	if sc.preRank == nil {
		sc.preRank = make([]uint16, 1024)
	}
	rank1 := sc.preRank
	sc.preVals = slotsOf(&seen, rank1, sc.preVals[:0])
	two = two && len(q) >= preSecondPer*setSize(&seenB)
	out := sc.sortedOf(len(q))
	if !two {
		for i, w := range q {
			out[i] = w&^1023 | uint64(rank1[w&1023])
		}
		return &sc.sorted, preSlots{a: d}
	}
	if sc.preRankB == nil {
		sc.preRankB = make([]uint16, 1024)
	}
	rank2 := sc.preRankB
	sc.preValsB = slotsOf(&seenB, rank2, sc.preValsB[:0])
	for i, w := range q {
		out[i] = w&^(1<<20-1) | uint64(rank2[w>>10&1023])<<10 | uint64(rank1[w&1023])
	}
	return &sc.sorted, preSlots{a: d, b: len(sc.preValsB)}
}

// sortedOf returns sc.sorted[0] as n words, grown if it has room for
// fewer.
func (sc *queryScratch) sortedOf(n int) []uint64 {
	if cap(sc.sorted[0]) < n {
		sc.sorted[0] = make([]uint64, n, n+n/4)
	}
	sc.sorted[0] = sc.sorted[0][:n]
	return sc.sorted[0]
}

// setSize is the number of values in the set seen.
func setSize(seen *[1024 / 64]uint64) int {
	d := 0
	for _, x := range seen {
		d += bits.OnesCount64(x)
	}
	return d
}

// slotsOf appends the values of the set seen to vals in ascending order,
// and sets rank[v] to each value's slot: its index in vals.
func slotsOf(seen *[1024 / 64]uint64, rank []uint16, vals []uint16) []uint16 {
	for i, x := range seen {
		for ; x != 0; x &= x - 1 {
			v := i*64 + bits.TrailingZeros64(x)
			rank[v] = uint16(len(vals))
			vals = append(vals, uint16(v))
		}
	}
	return vals
}

// defaultStepPairs is matcher.stepPairs outside the tests.
const defaultStepPairs = 1 << 24

// countGroup counts the runs against the nb blocks of tab, in calls of at
// most stepPairs query-blocks, polling stop between them (a row set of n =
// 27 may take minutes); with d > 0 prefix slots (prefixQueries), by the
// prefix kernel, on the prefix tables it builds for these blocks first,
// m.preBytes of them at most at once.
func (m *matcher) countGroup(sc *queryScratch, tab []uint64, nb int, qs *[4][]uint64, runs []qrun, stop func() bool, d preSlots) (uint64, bool) {
	if d.a > 0 {
		lanes := m.im.halves / 64
		pw := d.words(lanes)
		bw := m.im.blockWords(m.k)
		if per := max(1, m.preBytes/(8*pw)); nb > per {
			var total uint64
			for b := 0; b < nb; b += per {
				c := min(per, nb-b)
				sum, ok := m.countGroup(sc, tab[b*bw:(b+c)*bw], c, qs, runs, stop, d)
				if !ok {
					return 0, false
				}
				total += sum
			}
			return total, true
		}
		if cap(sc.pre) < nb*pw {
			sc.pre = make([]uint64, nb*pw)
		}
		sc.pre = sc.pre[:nb*pw]
		for b := range nb {
			blk, pre := tab[b*bw:(b+1)*bw], sc.pre[b*pw:(b+1)*pw]
			m.im.prefix(blk, sc.preVals[:d.a], pre)
			if d.b > 0 {
				m.im.prefix(blk[2*chunkSize*lanes:], sc.preValsB[:d.b], pre[preMax*lanes:])
			}
		}
	}
	step := uint32(max(1, m.stepPairs/nb))
	var queries uint64
	for _, r := range runs {
		queries += uint64(r.n)
	}
	if queries <= uint64(step) || stop == nil {
		return m.kernel(sc, tab, nb, qs, runs, d), true
	}
	var total uint64
	for _, r := range runs {
		for r.n > 0 {
			if stop() {
				return 0, false
			}
			piece := r
			piece.n = min(r.n, step)
			total += m.kernel(sc, tab, nb, qs, []qrun{piece}, d)
			r.off += piece.n
			r.n -= piece.n
		}
	}
	return total, true
}

// kernel is one kernel call: the plain kernel (d = 0) or the prefix one
// on the prefix tables of d slots in sc.pre.
func (m *matcher) kernel(sc *queryScratch, tab []uint64, nb int, qs *[4][]uint64, runs []qrun, d preSlots) uint64 {
	if d.a == 0 {
		return m.count(tab, nb, qs, runs, sc.shifts)
	}
	pw := d.words(m.im.halves / 64)
	sum := m.im.countsP[d.fields()][m.k](tab, nb, qs, runs, sc.shifts, sc.pre, pw)
	if m.probe != nil {
		m.probe(&kernelCall{tab: tab, nb: nb, k: m.k, halves: m.im.halves, qs: qs, runs: runs, shifts: sc.shifts, pre: sc.pre, slots: d, sum: sum})
	}
	return sum
}

// countLinear compares every query with every table word.
func (m *matcher) countLinear(q []uint64) uint64 {
	var n uint64
	outer, inner := m.table, q // the flagged half's words outside
	if !m.flaggedTable {
		outer, inner = q, m.table
	}
	for _, x := range outer {
		var c uint64
		shift := m.weights[classOf(x)]
		x &= m.mask
		for _, y := range inner {
			c += (x&y - 1) >> 63 // 1 if they share no line; x < 2^62
		}
		n += c << shift
	}
	return n
}

// transpose64 transposes the 64×64 bit matrix x in place: afterwards bit i
// of x[j] is what bit j of x[i] was. It swaps ever smaller square blocks
// across the diagonal: 32×32, 16×16, ..., 1×1 (Hacker's Delight, 7-3,
// with bit 0 as the first column); each stage's mask holds the low half
// of each block.
func transpose64(x *[64]uint64) {
	// The six stages of the butterfly, each with its constant shift and
	// mask (a loop over the stages computed them, and the indices, at run
	// time: a fifth of the Go kernel's table build).
	for k := 0; k < 32; k++ {
		t := (x[k]>>32 ^ x[k+32]) & 0x00000000FFFFFFFF
		x[k] ^= t << 32
		x[k+32] ^= t
	}
	for k0 := 0; k0 < 64; k0 += 32 {
		y := (*[32]uint64)(x[k0 : k0+32])
		for k := 0; k < 16; k++ {
			t := (y[k]>>16 ^ y[k+16]) & 0x0000FFFF0000FFFF
			y[k] ^= t << 16
			y[k+16] ^= t
		}
	}
	for k0 := 0; k0 < 64; k0 += 16 {
		y := (*[16]uint64)(x[k0 : k0+16])
		for k := 0; k < 8; k++ {
			t := (y[k]>>8 ^ y[k+8]) & 0x00FF00FF00FF00FF
			y[k] ^= t << 8
			y[k+8] ^= t
		}
	}
	for k0 := 0; k0 < 64; k0 += 8 {
		y := (*[8]uint64)(x[k0 : k0+8])
		for k := 0; k < 4; k++ {
			t := (y[k]>>4 ^ y[k+4]) & 0x0F0F0F0F0F0F0F0F
			y[k] ^= t << 4
			y[k+4] ^= t
		}
	}
	for k0 := 0; k0 < 64; k0 += 4 {
		y := (*[4]uint64)(x[k0 : k0+4])
		for k := 0; k < 2; k++ {
			t := (y[k]>>2 ^ y[k+2]) & 0x3333333333333333
			y[k] ^= t << 2
			y[k+2] ^= t
		}
	}
	for k := 0; k < 64; k += 2 {
		y := (*[2]uint64)(x[k : k+2])
		t := (y[0]>>1 ^ y[1]) & 0x5555555555555555
		y[0] ^= t << 1
		y[1] ^= t
	}
}

// buildGo makes the chunk tables of nb blocks of 256 words (4 lanes of
// 64, padded with pad), the Go kernel's, by 64×64 bit transposes: entry s
// of lane l of a chunk table is its word s·4+l, so the table is built by
// doubling all four lanes at once, in order.
func buildGo(words []uint64, nb int, tab []uint64, k int) {
	const lanes = 4
	bw := k * chunkSize * lanes
	var x [lanes][64]uint64
	var valid [lanes]uint64
	for b := 0; b < nb; b++ {
		blk := tab[b*bw : (b+1)*bw]
		for l := range x {
			valid[l] = ^transposeLane(&x[l], words[b*256+l*64:])
		}
		for j := 0; j < k; j++ {
			t := blk[j*chunkSize*lanes : (j+1)*chunkSize*lanes]
			copy(t, valid[:])
			for bit := 0; bit < chunkBits; bit++ {
				line := j*chunkBits + bit
				v0, v1, v2, v3 := x[0][line], x[1][line], x[2][line], x[3][line]
				n := lanes << uint(bit)
				lo, hi := t[:n], t[n:2*n]
				hi = hi[:len(lo)]
				for i := 0; i+3 < len(lo); i += lanes {
					hi[i], hi[i+1], hi[i+2], hi[i+3] = lo[i]&v0, lo[i+1]&v1, lo[i+2]&v2, lo[i+3]&v3
				}
			}
		}
	}
}

// transposeLane puts in x the transpose of the complements of the 64
// words of ws: x[ℓ] bit i is set when word i does not use line ℓ. It
// returns the bits of the words that are padding.
func transposeLane(x *[64]uint64, ws []uint64) (padded uint64) {
	for i, w := range (*[64]uint64)(ws[:64]) {
		x[i] = ^w
		padded |= uint64(bits.Len64(w^pad)-1) >> 63 << uint(i) // w == pad
	}
	transpose64(x)
	return padded
}

// tileBlocks is the number of blocks of bw words in a tile of tileBytes:
// the chunk tables that a kernel runs all the queries of a group against
// before it moves to the next blocks, so that they stay in the fastest
// caches.
func tileBlocks(bw, tileBytes int) int { return max(1, tileBytes/(bw*8)) }
