package qjoin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// replayCall is a kernel call recorded for replay: its table blocks, its
// queries (the runs' own, in one list of class 0), runs and shifts.
type replayCall struct {
	tab    []uint64
	nb, k  int
	qs     [4][]uint64
	runs   []qrun
	shifts *laneShifts
	pre    []uint64 // a prefix kernel's tables, pw words a block
	pw     int
	fields int // its prefix fields
	sum    uint64
}

// recordCalls counts the sampled row sets of n (as BenchmarkWork draws them)
// with kernel kern and one worker and keeps every every-th kernel call,
// up to maxBytes of tables and queries.
func recordCalls(tb testing.TB, n, subs, every int, maxBytes int, kern Kernel) []replayCall {
	p, err := NewPlan(n)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 38))
	var ids []int
	for len(ids) < subs {
		if id := 2 + rng.IntN(p.Len()-2); !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	var calls []replayCall
	bytes, seen := 0, 0
	p.o.probe = func(c *kernelCall) {
		seen++
		if seen%every != 0 || bytes > maxBytes {
			return
		}
		r := replayCall{tab: slices.Clone(c.tab[:c.nb*kern.impl().blockWords(c.k)]), nb: c.nb, k: c.k, sum: c.sum}
		if c.pw() > 0 {
			r.pre, r.pw, r.fields = slices.Clone(c.pre[:c.nb*c.pw()]), c.pw(), c.slots.fields()
		}
		sh := *c.shifts
		r.shifts = &sh
		var q []uint64
		for _, run := range c.runs {
			src := c.qs[run.class&3][run.off : run.off+run.n]
			r.runs = append(r.runs, qrun{off: uint32(len(q)), n: run.n, flags: run.flags})
			q = append(q, src...)
		}
		r.qs[0] = q
		bytes += 8 * (len(r.tab) + len(q))
		calls = append(calls, r)
	}
	p.buildTables(1, nil)
	if _, err := p.CountSubs(context.Background(), ids, Options{Workers: 1, Kernel: kern}, func(int, Result) {}); err != nil {
		tb.Fatal(err)
	}
	return calls
}

// BenchmarkReplay times the count kernels alone on kernel calls recorded
// from real row sets (every 16th call of the row sets BenchmarkWork draws
// at n = 22, 25 and 27): ns/block is the time per query and block met.
func BenchmarkReplay(b *testing.B) {
	for _, n := range []int{22, 25, 27} {
		subs := map[int]int{22: 20, 25: 2, 27: 1}[n]
		for _, kern := range kernels() {
			if kern == KernelGo {
				continue
			}
			var calls []replayCall
			b.Run(fmt.Sprintf("n=%d/kernel=%v", n, kern), func(b *testing.B) {
				if calls == nil {
					calls = recordCalls(b, n, subs, 16, 1<<30, kern)
				}
				var qb float64
				for _, c := range calls {
					for _, r := range c.runs {
						qb += float64(r.n) * float64(c.nb)
					}
				}
				im := kern.impl()
				b.ResetTimer()
				start := time.Now()
				for range b.N {
					for i := range calls {
						c := &calls[i]
						var got uint64
						if c.pw > 0 {
							got = im.countsP[c.fields][c.k](c.tab, c.nb, &c.qs, c.runs, c.shifts, c.pre, c.pw)
						} else {
							got = im.count(c.k)(c.tab, c.nb, &c.qs, c.runs, c.shifts)
						}
						if got != c.sum {
							b.Fatalf("call %d: %d, recorded %d", i, got, c.sum)
						}
					}
				}
				b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/qb, "ns/block")
				b.ReportMetric(float64(len(calls)), "calls")
			})
		}
	}
}
