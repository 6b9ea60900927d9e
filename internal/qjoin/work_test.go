package qjoin

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// workTally is the work of the count kernels over a count, as the plan's probe hears it: the
// East-West pairs compared, the chunk loads made (one a query, chunk and block), and the
// loads that queries sharing a prefix of chunk values would make if the kernel reused
// the AND of the prefix (a trie of the West words walked in sorted order, with the chunks
// in their order or reversed; or two levels, the prefix of h chunks ANDed once per
// group and block, kept in a scratch block, then one load of it and k−h loads a query).
//
// The prefixes are counted on one call in sampleEvery (sorting the queries costs far
// more than the kernel), their loads compared with those of the same calls; the calls
// of the prefix kernels (which share the first two chunks: matcher.prefixQueries) are
// counted apart, their loads as made.
type workTally struct {
	mu                 sync.Mutex
	calls, queries     uint64
	pairs, loads       float64
	sampled            float64 // the loads of the calls whose prefixes are counted
	trie, trieReversed float64
	twoLevel           [maxChunks + 1]float64
	keys, top          []uint64
	qnb                float64
	prefixed           float64 // the query-blocks counted by the prefix kernels
	prefixed2          float64 // of them, the query-blocks of two prefix fields
}

// sampleEvery is the share of the kernel calls whose prefixes BenchmarkWork counts.
const sampleEvery = 64

func (w *workTally) probe(c *kernelCall) {
	nb, k, halves, qs, runs := c.nb, c.k, c.halves, c.qs, c.runs
	w.mu.Lock()
	defer w.mu.Unlock()
	var n int
	for _, r := range runs {
		n += int(r.n)
	}
	q := float64(n)
	w.calls++
	w.queries += uint64(n)
	w.pairs += q * float64(nb*halves)
	w.qnb += q * float64(nb)
	if c.pw() > 0 {
		// A prefix kernel: k-1 loads a query and block, and its prefix
		// tables' build two a slot and block. Its queries' low bits are
		// slots: no prefixes to count.
		f := c.slots.fields()
		w.prefixed += q * float64(nb)
		if f == 2 {
			w.prefixed2 += q * float64(nb)
		}
		w.loads += q*float64(nb*(k-f)) + float64(2*nb*(c.slots.a+c.slots.b))
		return
	}
	w.loads += q * float64(nb*k)
	if w.calls%sampleEvery != 1 {
		return
	}
	w.sampled += q * float64(nb*k)
	w.keys = w.keys[:0]
	for _, r := range runs {
		w.keys = append(w.keys, qs[r.class&3][r.off:r.off+r.n]...)
	}
	chunk := func(x uint64, j int) uint64 { return x >> (5 * j) & 31 }
	// Chunk 0 first: the key with chunk 0 most significant.
	w.top = append(w.top[:0], w.keys...)
	top := w.top
	for i, x := range w.keys {
		var key uint64
		for j := range k {
			key = key<<5 | chunk(x, j)
		}
		top[i] = key
	}
	slices.Sort(top)
	trie, distinct := prefixLoads(top, k)
	w.trie += trie * float64(nb)
	for h := 1; h <= maxChunks; h++ { // h ≥ k: no prefix shared, k loads a query
		loads := q * float64(k)
		if h < k {
			loads = distinct[h]*float64(h) + q*float64(k-h+1)
		}
		w.twoLevel[h] += loads * float64(nb)
	}
	// Chunk k−1 first: the chunks as the word holds them.
	for i, x := range w.keys {
		top[i] = x & (1<<(5*k) - 1)
	}
	slices.Sort(top)
	trie, _ = prefixLoads(top, k)
	w.trieReversed += trie * float64(nb)
}

// prefixLoads returns, for the sorted keys of k chunks of 5 bits (the first chunk most
// significant), the loads of a trie walk (each distinct prefix loaded once) and the
// number of distinct prefixes of each length h.
func prefixLoads(keys []uint64, k int) (float64, [maxChunks + 1]float64) {
	var distinct [maxChunks + 1]float64
	if len(keys) == 0 {
		return 0, distinct
	}
	loads := float64(k)
	for h := 1; h <= k; h++ {
		distinct[h] = 1
	}
	for i := 1; i < len(keys); i++ {
		d := keys[i-1] ^ keys[i]
		if d == 0 {
			continue // the same query again: no load
		}
		first := (bits.LeadingZeros64(d) - (64 - 5*k)) / 5 // the first chunk that differs
		loads += float64(k - first)
		for h := first + 1; h <= k; h++ {
			distinct[h]++
		}
	}
	return loads, distinct
}

// workBoards are the boards BenchmarkWork measures: whole counts up to 18, a sample of
// row sets beyond (drawn by a fixed seed), so that it takes seconds to a minute a board.
var workBoards = []struct{ n, subs int }{{16, 0}, {18, 0}, {20, 400}, {22, 60}, {23, 30}, {24, 16}, {25, 8}, {26, 3}, {27, 2}}

// BenchmarkWork measures what a count does per solution: the East-West pairs compared
// and the kernel's loads, and the loads a kernel that shares the prefixes of sorted
// queries would make (issue 38): `go test -run XXX -bench Work -benchtime 1x
// ./internal/qjoin` (add `/n=22` and so on for one board). ns/solution is timed in a
// pass without the probe, on one worker, with the fastest kernel of the CPU.
func BenchmarkWork(b *testing.B) {
	for _, wb := range workBoards {
		b.Run(fmt.Sprintf("n=%d", wb.n), func(b *testing.B) {
			p, err := NewPlan(wb.n)
			if err != nil {
				b.Fatal(err)
			}
			var ids []int
			if wb.subs > 0 {
				rng := rand.New(rand.NewPCG(uint64(wb.n), 38))
				for len(ids) < wb.subs {
					if id := 2 + rng.IntN(p.Len()-2); !slices.Contains(ids, id) {
						ids = append(ids, id)
					}
				}
			} else {
				for i := range p.Len() {
					ids = append(ids, i)
				}
			}
			p.buildTables(1, nil)
			count := func() uint64 {
				var total uint64
				if _, err := p.CountSubs(context.Background(), ids, Options{Workers: 1}, func(_ int, r Result) { total += r.Total }); err != nil {
					b.Fatal(err)
				}
				return total
			}
			var sols uint64
			var took time.Duration
			for range b.N {
				start := time.Now()
				sols = count()
				took = time.Since(start)
			}
			b.StopTimer()
			w := &workTally{}
			p.o.probe = w.probe
			if count() != sols {
				b.Fatal("the probed count differs")
			}
			s := float64(sols)
			b.ReportMetric(float64(took.Nanoseconds())/s, "ns/solution")
			b.ReportMetric(w.pairs/s, "pairs/solution")
			b.ReportMetric(w.loads/s, "loads/solution")
			b.ReportMetric(w.trie/w.sampled, "trie/loads")
			b.ReportMetric(w.trieReversed/w.sampled, "trie-reversed/loads")
			best, bestH := w.sampled, 0
			for h := 1; h <= maxChunks; h++ {
				if w.twoLevel[h] > 0 && w.twoLevel[h] < best {
					best, bestH = w.twoLevel[h], h
				}
			}
			b.ReportMetric(best/w.sampled, "two-level/loads")
			b.ReportMetric(float64(bestH), "two-level-h")
			b.ReportMetric(float64(w.queries)/float64(max(w.calls, 1)), "queries/call")
			b.ReportMetric(w.qnb/float64(w.queries), "blocks/query")
			b.ReportMetric(w.prefixed/w.qnb, "prefixed")
			b.ReportMetric(w.prefixed2/w.qnb, "prefixed2")
		})
	}
}
