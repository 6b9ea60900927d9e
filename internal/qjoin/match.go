package qjoin

import (
	"math"
	"math/bits"
)

// The matcher counts, for the West words w of a row set, the East words e
// with e & w == 0 on the crossing-line bits (a "Four Russians" bit matrix):
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
// Cut lines. The top c line bits of the words (the lines most used by both
// halves, see cutRank) are not matched but sorted on: the East words are
// grouped by their cut bits g, each group in whole blocks of its own, and
// the West words are sorted by their cut bits u. A query with cut bits u
// meets only the groups with g & u == 0. The more lines are cut, the fewer
// blocks a query meets and the fewer chunks a block has, but the groups get
// smaller and their padding grows. The matcher picks c for each row set
// from the histograms of the two sides (choose), so that the modelled work
// is least.
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
)

// smallEast is the number of East words up to which the matcher cuts no
// lines (or cmin): choosing the lines and grouping the words by them costs
// more than the cut saves on so few (most row sets up to n = 18; measured:
// 8% faster at n = 17, 11% at n = 18 with the AVX-512 kernel). The tests
// set it to 0, so that the choice runs at small n.
var smallEast = 8192

// chunksFor is the number K of chunks covering L lines.
func chunksFor(lines int) int { return max(minChunks, (lines+chunkBits-1)/chunkBits) }

// lineSets is, per line ℓ < 40, the set of the halves of a block of 256 that
// do not use ℓ, and at index 40 the valid halves; see buildAVX2.
type lineSets [maxMatched + 1][256 / 32]uint32

// qrun is a run of queries of one class: the queries qs[class][off:off+n],
// which count 2^shift each. The kernels read it as four uint32.
type qrun struct {
	off, n, shift, class uint32
}

// countFunc adds up, over the queries of the runs (in qs, by class) and the
// nb blocks of tab, the number of compatible East halves, each query
// weighted by its run's 2^shift.
type countFunc func(tab []uint64, nb int, qs *[4][]uint64, runs []qrun) uint64

// sampleStep is the step at which choose samples the queries.
const sampleStep = 8

// linearMax is the number of East words up to which the queries are
// compared with them one by one instead of through chunk tables.
const linearMax = 24

// pad is the word of a padding slot: it uses every line, and no East word
// equals it (East words have no flag bits).
const pad = ^uint64(0)

// matcher holds one row set's East words, grouped by their cut bits, and
// their chunk tables, and counts West words against them.
type matcher struct {
	im         *impl
	lines      int // L
	cmin, cmax int // the range of cut lines
	mask       uint64
	// forceCut, if ≥ 0, is the number of cut lines to use whatever the
	// cost model says (within cmin..cmax); the tests set it.
	forceCut int

	// The current row set.
	linear bool     // few East words: compared one by one
	east   []uint64 // the East words (for the linear scan)
	c, k   int      // cut lines and chunks
	first  []int32  // first block of group g, 2^c+1 entries
	words  []uint64 // the East words grouped and padded
	tab    []uint64 // the chunk tables
	count  countFunc
	v      lineSets // the AVX2 build's scratch

	// Scratch.
	hist    []uint32    // histograms of choose
	sos     []float64   // subset sums of choose
	sorted  [4][]uint64 // the queries of each class sorted by u
	ends    [4][]uint32 // the end of each u in sorted
	runs    []qrun
	counts  []uint32 // counting sort of the East words
	weights [4]uint  // shift of the weight of each class
}

// newMatcher returns a matcher for words of L line bits with the kernel
// im.
func newMatcher(L int, im *impl) *matcher {
	return &matcher{
		im:       im,
		lines:    L,
		cmin:     max(0, L-maxMatched),
		cmax:     min(L, maxCut),
		mask:     1<<uint(L) - 1,
		forceCut: -1,
	}
}

// build prepares the East words e of a row set, choosing the cut lines
// from the histograms of e and of the West words sample (by class: any part
// of the row set's West words, to estimate their spread over the cut bits;
// it may be empty). Only the line bits of e matter.
func (m *matcher) build(e []uint64, sample *[4][]uint64) {
	m.east = e
	m.linear = len(e) <= linearMax
	if m.linear {
		return
	}
	m.c = m.choose(e, sample)
	m.k = chunksFor(m.lines - m.c)
	m.group(e)
	bw := m.im.blockWords(m.k)
	if need := m.nb() * bw; cap(m.tab) < need {
		m.tab = make([]uint64, need, need+need/4)
	}
	m.tab = m.tab[:m.nb()*bw]
	m.im.build(m.words, m.nb(), m.tab, m.k, &m.v)
	m.count = m.im.count(m.k)
}

// nb is the number of blocks.
func (m *matcher) nb() int { return int(m.first[len(m.first)-1]) }

// choose returns the number of cut lines with the least modelled work:
// for each group g of East halves (padded to whole blocks) and the queries
// that meet it (those whose cut bits u are a subset of ~g), the kernel's
// cost per query and block and chunk, plus a cost per query and group met,
// plus the build of the chunk tables.
func (m *matcher) choose(e []uint64, sample *[4][]uint64) int {
	bh := m.im.halves
	if m.forceCut >= 0 {
		return min(max(m.forceCut, m.cmin), m.cmax)
	}
	// Lines worth cutting: about log2 of the blocks, and two more to see
	// the minimum. One block gains nothing.
	hi := max(m.cmin, min(m.cmax, bits.Len(uint(len(e)/bh))+2))
	if hi == m.cmin || len(e) <= max(bh, smallEast) {
		return m.cmin
	}
	size := 1 << uint(hi)
	if cap(m.hist) < 2*size {
		m.hist = make([]uint32, 2*size)
		m.sos = make([]float64, size)
	}
	hE, hW := m.hist[:size], m.hist[size:2*size]
	clear(hE)
	clear(hW)
	sh := uint(m.lines - hi)
	top := uint64(size - 1)
	for _, x := range e {
		hE[x>>sh&top]++
	}
	// Every sampleStep-th query of the sample; without one the queries
	// count as spread evenly.
	var wq, all float64
	for _, q := range sample {
		for i := 0; i < len(q); i += sampleStep {
			hW[q[i]>>sh&top]++
			wq++
		}
		all += float64(len(q))
	}
	if wq == 0 {
		for i := range hW {
			hW[i] = 1
		}
		wq, all = float64(size), float64(size)
	}
	scale := all / wq // queries per query of the sample
	best, bestCost := hi, math.Inf(1)
	for c := hi; c >= m.cmin; c-- {
		n := 1 << uint(c)
		// hE, hW fold onto c bits in place: entry g of c bits is the sum
		// of the entries 2g, 2g+1 of c+1 bits.
		if c < hi {
			for g := 0; g < n; g++ {
				hE[g] = hE[2*g] + hE[2*g+1]
				hW[g] = hW[2*g] + hW[2*g+1]
			}
		}
		sos := m.sos[:n]
		for u := range sos {
			sos[u] = float64(hW[u])
		}
		for b := 1; b < n; b <<= 1 {
			for u := range sos {
				if u&b != 0 {
					sos[u] += sos[u^b]
				}
			}
		}
		k := float64(chunksFor(m.lines - c))
		var cost float64
		for g := 0; g < n; g++ {
			if hE[g] == 0 {
				continue
			}
			nb := float64((int(hE[g]) + bh - 1) / bh)
			cost += sos[(n-1)&^g]*scale*(nb*k*m.im.alpha+m.im.beta) + nb*k*m.im.gamma
		}
		if cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// group lays the East words e out in m.words by their cut bits g (the top
// m.c line bits), each group padded to whole blocks, and sets m.first.
func (m *matcher) group(e []uint64) {
	bh := m.im.halves
	n := 1 << uint(m.c)
	if cap(m.first) < n+1 {
		m.first = make([]int32, n+1, 2*n+1)
		m.counts = make([]uint32, n, 2*n)
	}
	m.first = m.first[:n+1]
	cnt := m.counts[:n]
	clear(cnt)
	sh := uint(m.lines - m.c)
	top := uint64(n - 1)
	if m.c == 0 {
		cnt[0] = uint32(len(e))
	} else {
		for _, x := range e {
			cnt[x>>sh&top]++
		}
	}
	m.first[0] = 0
	for g := 0; g < n; g++ {
		m.first[g+1] = m.first[g] + int32((int(cnt[g])+bh-1)/bh)
	}
	total := int(m.first[n]) * bh
	if cap(m.words) < total {
		m.words = make([]uint64, total, total+total/4)
	}
	w := m.words[:total]
	m.words = w
	// cnt becomes the next slot of each group.
	for g := 0; g < n; g++ {
		cnt[g] = uint32(int(m.first[g]) * bh)
	}
	if m.c == 0 {
		copy(w, e)
		cnt[0] = uint32(len(e))
	} else {
		for _, x := range e {
			g := x >> sh & top
			w[cnt[g]] = x
			cnt[g]++
		}
	}
	for g := 0; g < n; g++ {
		for i := int(cnt[g]); i < int(m.first[g+1])*bh; i++ {
			w[i] = pad
		}
	}
}

// setWeights sets the weight of each class of West words (a | d<<1) as a
// power of two: class 0 weighs 2^shift0, classes 1 and 2 weigh 2, class 3
// weighs 4.
func (m *matcher) setWeights(shift0 uint) { m.weights = [4]uint{shift0, 1, 1, 2} }

// countQueries adds up the compatible East halves over the West words qs
// (by class), each weighted by its class (see setWeights). It polls stop
// every few hundred million pairs; ok is false if stop said so.
func (m *matcher) countQueries(qs *[4][]uint64, stop func() bool) (total uint64, ok bool) {
	if len(m.east) == 0 {
		return 0, true
	}
	if m.linear {
		return m.countLinear(qs), true
	}
	if m.c == 0 {
		runs := m.runs[:0]
		for c, q := range qs {
			if len(q) > 0 {
				runs = append(runs, qrun{n: uint32(len(q)), shift: uint32(m.weights[c]), class: uint32(c)})
			}
		}
		m.runs = runs
		return m.countGroup(m.tab, m.nb(), qs, runs, stop)
	}
	n := 1 << uint(m.c)
	sh := uint(m.lines - m.c)
	top := uint64(n - 1)
	// Counting sort of each class by u: ends[c][u] becomes the end of u.
	for c, q := range qs {
		if cap(m.ends[c]) < n+1 {
			m.ends[c] = make([]uint32, n+1, 2*n+1)
		}
		ends := m.ends[c][:n+1]
		m.ends[c] = ends
		clear(ends)
		for _, w := range q {
			ends[w>>sh&top+1]++
		}
		for u := 1; u <= n; u++ {
			ends[u] += ends[u-1]
		}
		if cap(m.sorted[c]) < len(q) {
			m.sorted[c] = make([]uint64, len(q), len(q)+len(q)/4)
		}
		out := m.sorted[c][:len(q)]
		m.sorted[c] = out
		for _, w := range q {
			u := w >> sh & top
			out[ends[u]] = w
			ends[u]++
		}
	}
	bw := m.im.blockWords(m.k)
	for g := 0; g < n; g++ {
		nb := int(m.first[g+1] - m.first[g])
		if nb == 0 {
			continue
		}
		runs := m.runs[:0]
		free := uint32(n-1) &^ uint32(g)
		for c := range qs {
			ends := m.ends[c]
			shift := uint32(m.weights[c])
			for u := free; ; u = (u - 1) & free {
				start := uint32(0)
				if u > 0 {
					start = ends[u-1]
				}
				if end := ends[u]; end > start {
					runs = append(runs, qrun{off: start, n: end - start, shift: shift, class: uint32(c)})
				}
				if u == 0 {
					break
				}
			}
		}
		m.runs = runs
		if len(runs) == 0 {
			continue
		}
		// Each group may be too small for countGroup to poll, and there
		// may be 2^16 of them.
		if stop != nil && stop() {
			return 0, false
		}
		off := int(m.first[g]) * bw
		c, ok := m.countGroup(m.tab[off:off+nb*bw], nb, &m.sorted, runs, stop)
		if !ok {
			return 0, false
		}
		total += c
	}
	return total, true
}

// stepPairs is the number of query × block pairs a kernel call counts at
// most before stop is polled again: some 20 to 50 ms.
var stepPairs = 1 << 24

// countGroup counts the runs against the nb blocks of tab, in calls of at
// most stepPairs query-blocks, polling stop between them (a row set of n =
// 27 may take minutes).
func (m *matcher) countGroup(tab []uint64, nb int, qs *[4][]uint64, runs []qrun, stop func() bool) (uint64, bool) {
	step := uint32(max(1, stepPairs/nb))
	var queries uint64
	for _, r := range runs {
		queries += uint64(r.n)
	}
	if queries <= uint64(step) || stop == nil {
		return m.count(tab, nb, qs, runs), true
	}
	var total uint64
	for _, r := range runs {
		for r.n > 0 {
			if stop() {
				return 0, false
			}
			piece := r
			piece.n = min(r.n, step)
			total += m.count(tab, nb, qs, []qrun{piece})
			r.off += piece.n
			r.n -= piece.n
		}
	}
	return total, true
}

// countLinear compares every query with every East word.
func (m *matcher) countLinear(qs *[4][]uint64) uint64 {
	var n uint64
	for cl, q := range qs {
		var c uint64
		for _, w := range q {
			x := w & m.mask
			for _, e := range m.east {
				c += (e&x - 1) >> 63 // 1 if e&x == 0; x < 2^62
			}
		}
		n += c << m.weights[cl]
	}
	return n
}

// transpose64 transposes the 64×64 bit matrix x in place: afterwards bit i
// of x[j] is what bit j of x[i] was. It swaps ever smaller square blocks
// across the diagonal: 32×32, 16×16, ..., 1×1 (Hacker's Delight, 7-3,
// with bit 0 as the first column). m holds the low half of each block.
func transpose64(x *[64]uint64) {
	m := uint64(0x00000000FFFFFFFF)
	for j := 32; j != 0; j, m = j>>1, m^(m<<uint(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (x[k]>>uint(j) ^ x[k+j]) & m
			x[k] ^= t << uint(j)
			x[k+j] ^= t
		}
	}
}

// buildGo makes the chunk tables of nb blocks of words (each of halves
// words, padded with pad) in the layout of any block size, by 64×64 bit
// transposes.
func buildGo(words []uint64, nb int, tab []uint64, k, halves int) {
	lanes := halves / 64
	bw := k * chunkSize * lanes
	var x [64]uint64
	for b := 0; b < nb; b++ {
		blk := tab[b*bw : (b+1)*bw]
		for lane := 0; lane < lanes; lane++ {
			first := b*halves + lane*64
			valid := ^uint64(0)
			for i := range x {
				x[i] = ^words[first+i]
				if words[first+i] == pad {
					valid &^= 1 << uint(i)
				}
			}
			transpose64(&x)
			// x[ℓ] bit i: half first+i does not use line ℓ.
			for j := 0; j < k; j++ {
				t := blk[j*chunkSize*lanes : (j+1)*chunkSize*lanes]
				v := x[j*chunkBits : j*chunkBits+chunkBits]
				t[lane] = valid
				for s := 1; s < chunkSize; s++ {
					t[s*lanes+lane] = t[(s&(s-1))*lanes+lane] & v[bits.TrailingZeros(uint(s))]
				}
			}
		}
	}
}

// tileBlocks is the number of blocks of bw words in a tile of tileBytes:
// the chunk tables that a kernel runs all the queries of a group against
// before it moves to the next blocks, so that they stay in the fastest
// caches.
func tileBlocks(bw, tileBytes int) int { return max(1, tileBytes/(bw*8)) }
