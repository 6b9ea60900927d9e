package qjoin

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// The unique count by Burnside's lemma: U = (T + S180 + 2·S90) / 8, where
// S180 and S90 count the solutions that the half turn and the quarter turn
// map to themselves (no reflection fixes a solution for n > 1, and the two
// quarter turns fix the same solutions). Such a solution is a union of
// orbits of squares under the rotation, so the search places whole orbits:
// it takes the lowest empty row r, tries each column c, and puts queens on
// every image of (r, c) at once.

// countFixed counts the solutions of an n×n board that the rotation by
// quarter turns turns (1 or 2) maps to themselves. nodes counts the orbits
// placed. It polls stop every few thousand nodes; ok is false if stop said
// so.
func countFixed(n, turns int, stop func() bool) (count, nodes uint64, ok bool) {
	f := fixSearch{n: n, turns: turns, stop: stop}
	f.rec(0, 0, 0, 0)
	return f.count, f.nodes, !f.stopped
}

type fixSearch struct {
	n, turns     int
	stop         func() bool
	count, nodes uint64
	stopped      bool
	// With depth > 0, rec does not go below depth orbits: it keeps the
	// states there in prefixes (countFixedShared's tasks).
	depth    int
	prefixes []fixState
}

// fixState is a state of the search: the rows, columns, diagonals and
// anti-diagonals taken.
type fixState struct {
	rows, cols uint32
	dg, ad     uint64
}

// countFixedShared is countFixed on workers goroutines: the states after
// the first three orbits placed are the tasks, which the workers take in
// turn (S180 takes about an hour at n = 28).
func countFixedShared(n, turns, workers int, stop func() bool) (count, nodes uint64, ok bool) {
	top := fixSearch{n: n, turns: turns, stop: stop, depth: 3}
	top.rec(0, 0, 0, 0)
	if top.stopped {
		return 0, 0, false
	}
	count, nodes = top.count, top.nodes
	var next atomic.Int64
	var mu sync.Mutex
	stopped := false
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			f := fixSearch{n: n, turns: turns, stop: stop}
			for {
				i := int(next.Add(1)) - 1
				if i >= len(top.prefixes) || f.stopped {
					break
				}
				st := top.prefixes[i]
				f.rec(st.rows, st.cols, st.dg, st.ad)
			}
			mu.Lock()
			count, nodes = count+f.count, nodes+f.nodes
			stopped = stopped || f.stopped
			mu.Unlock()
		})
	}
	wg.Wait()
	return count, nodes, !stopped
}

// orbit is the number of squares of an orbit off the centre: 2 for the
// half turn, 4 for the quarter turn.
func (f *fixSearch) orbit() int { return 4 / f.turns }

// rotate moves square (r, c) by one quarter turn clockwise.
func rotate(n, r, c int) (int, int) { return c, n - 1 - r }

func (f *fixSearch) rec(rows, cols uint32, dg, ad uint64) {
	n := f.n
	full := uint32(1)<<uint(n) - 1
	if rows == full {
		f.count++
		return
	}
	if f.stopped {
		return
	}
	if f.depth > 0 {
		if placed := bits.OnesCount32(rows); placed >= f.depth*f.orbit() {
			f.prefixes = append(f.prefixes, fixState{rows, cols, dg, ad})
			return
		}
	}
	r := 0
	for rows>>uint(r)&1 != 0 {
		r++
	}
	for c := 0; c < n; c++ {
		if cols>>uint(c)&1 != 0 {
			continue
		}
		// Place the orbit of (r, c): (r, c) and its images under the
		// rotation by f.turns quarter turns, until it comes back.
		nr, nc, nd, na := rows, cols, dg, ad
		x, y := r, c
		ok := true
		for {
			if nr>>uint(x)&1 != 0 || nc>>uint(y)&1 != 0 ||
				nd>>uint(x-y+n-1)&1 != 0 || na>>uint(x+y)&1 != 0 {
				ok = false
				break
			}
			nr |= 1 << uint(x)
			nc |= 1 << uint(y)
			nd |= 1 << uint(x-y+n-1)
			na |= 1 << uint(x+y)
			for range f.turns {
				x, y = rotate(n, x, y)
			}
			if x == r && y == c {
				break
			}
		}
		if !ok {
			continue
		}
		f.nodes++
		if f.nodes&(1<<12-1) == 0 && f.stop != nil && f.stop() {
			f.stopped = true
			return
		}
		f.rec(nr, nc, nd, na)
		if f.stopped {
			return
		}
	}
}
