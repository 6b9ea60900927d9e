package cluster

import (
	"bytes"
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"slices"

	"github.com/nqueens/nqueens/internal/fastcount"
)

// MaxShards is the largest number of shards of a count: enough for shards
// of a few sub-problems of any plan (155 million at n = 29, where a
// sub-problem is a quarter of a row set), and small enough that a plan or a file naming it cannot make the
// program allocate without bound (a split holds 16 bytes a shard).
const MaxShards = 1 << 26

// maxSubs bounds the sub-problems a checkpoint or result file may claim for
// its plan (every plan has fewer: 155 million at n = 29), for the same
// reason.
const maxSubs = 1 << 28

// split returns the sizes of the k shards of p (see shardIDs).
func split(p *fastcount.Plan, k int) ([]ShardSize, error) {
	out := make([]ShardSize, k)
	err := assign(p, k, func(id, shard int) {
		out[shard].Subs++
		out[shard].Cost += uint64(p.Cost(id))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sizeOf returns the size of shard i of k of p (split's entry i) without a
// list of every shard's size.
func sizeOf(p *fastcount.Plan, k, i int) (ShardSize, error) {
	if i < 0 || i >= k {
		return ShardSize{}, fmt.Errorf("shard %d of %d: shards are numbered 0..%d", i, k, k-1)
	}
	var sz ShardSize
	err := assign(p, k, func(id, shard int) {
		if shard == i {
			sz.Subs++
			sz.Cost += uint64(p.Cost(id))
		}
	})
	return sz, err
}

// shardIDs returns the sub-problems of shard i of k of p, in increasing order.
// The sub-problems are split among the shards balanced by their estimated
// cost: longest first, each to the shard with the least cost so far (ties
// to the lowest shard), so the split depends only on the plan. Since most
// sub-problems weigh the same, consecutive ids land on different shards,
// which also spreads any drift of the estimate along the list.
func shardIDs(p *fastcount.Plan, k, i int) ([]int, error) {
	if i < 0 || i >= k {
		return nil, fmt.Errorf("shard %d of %d: shards are numbered 0..%d", i, k, k-1)
	}
	var ids []int
	err := assign(p, k, func(id, shard int) {
		if shard == i {
			ids = append(ids, id)
		}
	})
	slices.Sort(ids)
	return ids, err
}

// assign calls f with every sub-problem of p and its shard of k, in the
// order of the split: by cost, the largest first, ids in increasing order
// among equal costs; each goes to the shard of least load so far, ties to
// the lowest index.
func assign(p *fastcount.Plan, k int, f func(id, shard int)) error {
	return assignCosts(p.Len(), p.Cost, k, f)
}

// assignCosts is assign for n sub-problems of the given costs. For a plan
// with few distinct costs (every plan of the quadrant join beyond n = 21,
// whose row sets cost their class's mean) it reads the costs once, keeping
// each id's as a byte (the index of its value), goes through those bytes
// once per cost and keeps the shards in bands of equal load (bands): a
// split of n = 29 into 2^26 shards takes seconds, a byte a sub-problem and
// 4 bytes a shard. (It called cost once per id and distinct cost before:
// 0.9 s of a shard of 10^7 at n = 27, 1.7% of it.) Else it sorts the ids
// (4 bytes each) and keeps the shards in a heap.
func assignCosts(n int, cost func(int) uint32, k int, f func(id, shard int)) error {
	if k < 1 || k > MaxShards {
		return fmt.Errorf("shard: %d shards: want 1 to %d", k, MaxShards)
	}
	if values, of, ok := costIndex(n, cost); ok {
		// The values' order: the largest cost first.
		order := make([]int, len(values))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(values[b], values[a]) })
		b := newBands(k)
		for _, v := range order {
			c := values[v]
			for id := 0; id < n; id++ {
				j := bytes.IndexByte(of[id:], byte(v))
				if j < 0 {
					break
				}
				id += j
				f(id, b.give(uint64(c)))
			}
			b.flush()
		}
		return nil
	}
	// The shards by (load, index), least first: a heap, so that a split
	// costs O(subs·log k), not O(subs·k).
	h := make(shardHeap, k)
	for i := range h {
		h[i].shard = i // zero loads in index order: already a heap
	}
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(a, b uint32) int { return cmp.Compare(cost(int(b)), cost(int(a))) })
	for _, id := range order {
		best := &h[0]
		f(int(id), best.shard)
		best.load += uint64(cost(int(id)))
		heap.Fix(&h, 0)
	}
	return nil
}

// bands are the shards of a split grouped by load: each band holds the
// shards of one load in increasing index order, and the bands are sorted
// by load. The next sub-problem goes to the first shard of the first band
// (the least load, the lowest index among equals), so the shards of a band
// take one sub-problem each, in index order, before any other shard does;
// while they do, those served wait in pending, at their new load.
type bands struct {
	list    []band // by load, least first; list[0].next shards already served
	pending band   // the shards served from list[0] at the current cost
	spare   []int32
}

type band struct {
	load   uint64
	shards []int32
	next   int // list[0] only: shards[:next] are in pending
}

func newBands(k int) *bands {
	all := make([]int32, k)
	for i := range all {
		all[i] = int32(i)
	}
	return &bands{list: []band{{shards: all}}}
}

// give returns the shard of the next sub-problem, of cost c.
func (b *bands) give(c uint64) int {
	first := &b.list[0]
	if b.pending.shards == nil {
		b.pending = band{load: first.load + c, shards: b.spare[:0]}
		b.spare = nil
	}
	s := first.shards[first.next]
	first.next++
	b.pending.shards = append(b.pending.shards, s)
	if first.next == len(first.shards) {
		// The band is spent: its slice holds the next pending band.
		b.spare = first.shards
		b.list = b.list[1:]
		b.flush()
	}
	return int(s)
}

// flush puts the pending shards in their band: after the first band is
// spent, or when the cost changes.
func (b *bands) flush() {
	p := b.pending
	if p.shards == nil {
		return
	}
	b.pending = band{}
	if len(b.list) > 0 && b.list[0].next > 0 {
		// The rest of a band stays at its load, ahead of p (whose load is
		// higher): it keeps only its shards not yet served.
		f := &b.list[0]
		f.shards, f.next = f.shards[f.next:], 0
	}
	i, found := slices.BinarySearchFunc(b.list, p.load, func(x band, load uint64) int { return cmp.Compare(x.load, load) })
	if !found {
		b.list = slices.Insert(b.list, i, p)
		return
	}
	// Two bands of one load: merged in index order.
	e := b.list[i].shards
	m := make([]int32, 0, len(e)+len(p.shards))
	x, y := 0, 0
	for x < len(e) && y < len(p.shards) {
		if e[x] < p.shards[y] {
			m = append(m, e[x])
			x++
		} else {
			m = append(m, p.shards[y])
			y++
		}
	}
	m = append(append(m, e[x:]...), p.shards[y:]...)
	b.list[i].shards = m
}

// maxCostValues is the number of distinct costs up to which assign goes
// through the ids once per cost instead of sorting them.
const maxCostValues = 64

// costIndex reads the costs of the n ids once: their distinct values, in
// the order met, and the index of each id's value there, a byte an id; ok
// is false past maxCostValues values.
func costIndex(n int, cost func(int) uint32) (values []uint32, of []byte, ok bool) {
	of = make([]byte, n)
	last, lastIdx := uint32(0), -1
	for id := range n {
		c := cost(id)
		if lastIdx < 0 || c != last {
			lastIdx = slices.Index(values, c)
			if lastIdx < 0 {
				if len(values) == maxCostValues {
					return nil, nil, false
				}
				lastIdx = len(values)
				values = append(values, c)
			}
			last = c
		}
		of[id] = byte(lastIdx)
	}
	return values, of, true
}

// shardHeap orders shards by their load so far, then by index.
type shardHeap []struct {
	load  uint64
	shard int
}

func (h shardHeap) Len() int { return len(h) }
func (h shardHeap) Less(i, j int) bool {
	return h[i].load < h[j].load || h[i].load == h[j].load && h[i].shard < h[j].shard
}
func (h shardHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *shardHeap) Push(any)     { panic("shardHeap: fixed size") }
func (h *shardHeap) Pop() any     { panic("shardHeap: fixed size") }

// indexVars are the environment variables that carry a job array's index, in
// the order indexFromEnv looks at them: Slurm job arrays, Kubernetes Indexed
// Jobs, AWS Batch array jobs.
var indexVars = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"}

// errNoIndex is returned by indexFromEnv when no job-array index is set.
var errNoIndex = errors.New("no job array index: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX is set")

// indexFromEnv returns the shard index of this process from the first of
// indexVars that getenv reports non-empty, and the variable's name. The
// value must be a decimal integer in 0..k-1.
func indexFromEnv(getenv func(string) string, k int) (int, string, error) {
	for _, name := range indexVars {
		v := getenv(name)
		if v == "" {
			continue
		}
		i, err := parseIndex(v)
		if err != nil {
			return 0, name, fmt.Errorf("%s=%q: %v", name, v, err)
		}
		if i >= k {
			return 0, name, fmt.Errorf("%s=%d is not a shard of %d: shards are numbered 0..%d (Slurm: --array=0-%d)", name, i, k, k-1, k-1)
		}
		return i, name, nil
	}
	return 0, "", errNoIndex
}

// parseIndex reads a non-negative decimal index.
func parseIndex(s string) (int, error) {
	if len(s) > 9 {
		return 0, errors.New("not a shard index")
	}
	i := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, errors.New("not a shard index (want 0, 1, 2...)")
		}
		i = 10*i + int(c-'0')
	}
	return i, nil
}
