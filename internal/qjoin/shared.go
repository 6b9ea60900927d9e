package qjoin

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/nqueens/nqueens/internal/pool"
)

// Shared row sets: from sharedMinN on, a row set holds hundreds of
// megabytes of quarter slices (n = 29: the four of one row set up to 170
// million entries, 1.4 GB) and takes minutes to hours, so the workers no
// longer take a sub-problem each, each with its own slices: they count one
// sub-problem at a time, all of them on it. One worker (the lead) builds
// the row set's slices and East halves, part by part (see eastSplit), and
// the matcher of each part; then every worker counts the West halves of
// some of the West North quarter's column sets against it (westJob), each
// with its own West buffer and query scratch, reading the lead's slices
// and matcher. The memory is then one set of slices, one part and one
// batch per worker, whatever the number of workers, and a shard of a few
// sub-problems keeps every core busy.

// sharedMinN is the smallest n whose counts share their row sets among
// the workers.
const sharedMinN = 28

// westChunks is the number of pieces per worker into which the West column
// sets of a part are cut, so that the workers end a part together.
const westChunks = 8

// countShared is CountSubs for plans with o.shared: the sub-problems ids
// in order, all the workers on each.
func (p *Plan) countShared(ctx context.Context, ids []int, workers int, kern Kernel, done func(id int, r Result)) int {
	stop, release := pool.StopFlag(ctx)
	defer release()
	solvers := make([]*solver, workers)
	for w := range solvers {
		solvers[w] = newSolver(p, kern)
	}
	finished := 0
	for _, id := range ids {
		if stop() {
			break
		}
		sub := p.Sub(id)
		var r Result
		var ok bool
		switch sub.Kind {
		case KindRows:
			var t, nodes uint64
			t, nodes, ok = p.sharedRows(solvers, sub.Rows, sub.Piece, stop)
			r = Result{Total: t, Burnside: t, Nodes: nodes}
		case KindFix180:
			var c uint64
			c, r.Nodes, ok = countFixedShared(p.N, 2, workers, stop)
			r.Burnside = c
		case KindFix90:
			var c uint64
			c, r.Nodes, ok = countFixedShared(p.N, 1, workers, stop)
			r.Burnside = 2 * c
		}
		if !ok {
			break
		}
		finished++
		if done != nil {
			done(id, r)
		}
	}
	return finished
}

// sharedRows is solveRows with every solver on the row set R (its piece):
// solvers[0] leads.
func (p *Plan) sharedRows(solvers []*solver, R uint32, piece uint16, stop func() bool) (total, nodes uint64, ok bool) {
	lead := solvers[0]
	g := p.g
	n, h := g.n, g.h
	nMask := uint32(1)<<uint(h) - 1
	W := ^R & (1<<uint(n) - 1)
	wn, ws := W&nMask, W>>uint(h)
	lead.eastRows = R & nMask
	lead.cells = p.piece(lead.eastRows, piece)
	lead.NE, lead.SE = lead.quarter(qNE, R&nMask), lead.quarter(qSE, R>>uint(h))
	lead.ewf = eastWestWeight(R, n)
	lead.m.setWeights(uint(lead.ewf >> 1))
	for _, s := range solvers[1:] {
		s.eastRows, s.ewf = lead.eastRows, lead.ewf
	}
	sw := &sharedWest{solvers: solvers, NW: lead.quarter(qNW, wn), SW: lead.quarter(qSW, ws)}
	c, ok := lead.eastParts(stop, func(e []uint64, skip uint64) bool { return sw.part(e, skip, stop) })
	if !ok {
		return 0, 0, false
	}
	return mirrorWeight(R, n) * sw.sum, c + sw.cand + sw.pairs, true
}

// sharedWest counts the West halves NW × SW of a row set against its East
// halves, part by part, on every solver: the weighted count, the East–West
// pairs compared and the quarter pairs tried.
type sharedWest struct {
	solvers          []*solver // solvers[0] leads
	NW, SW           cellView
	mu               sync.Mutex
	sum, pairs, cand uint64
	failed           bool // a job saw stop
}

// part counts the West halves against the part e (skip: see eastSplit) on
// every worker; it returns false if stop said so. The lead's first chunk
// builds the matcher, its halves the sample of the cut lines; then the
// workers take the West column sets chunk by chunk.
func (w *sharedWest) part(e []uint64, skip uint64, stop func() bool) bool {
	lead := w.solvers[0]
	sets := lead.westSets()
	chunk := max(1, sets/(westChunks*len(w.solvers)))
	job := westJob{m: lead.m, e: e, NW: w.NW, SW: w.SW, skip: skip}
	first := job
	first.sc, first.r1, first.build = &lead.m.qs, min(chunk, sets), true
	r := lead.westRange(first, stop)
	w.add(r)
	if !r.ok {
		return false
	}
	if !r.built {
		lead.m.build(e, nil, lead.p.g.westRestricted, -1)
	}
	var next atomic.Int64
	next.Store(int64(first.r1))
	var wg sync.WaitGroup
	for _, s := range w.solvers[1:] {
		wg.Go(func() { w.run(s, job, &next, chunk, sets, stop) })
	}
	w.run(lead, job, &next, chunk, sets, stop)
	wg.Wait()
	return !w.failed
}

// run has the solver s count job's column sets chunk by chunk, taking the
// next chunk from next, until they are all taken or stop is seen.
func (w *sharedWest) run(s *solver, job westJob, next *atomic.Int64, chunk, sets int, stop func() bool) {
	for {
		r0 := int(next.Add(int64(chunk))) - chunk
		if r0 >= sets {
			return
		}
		j := job
		j.sc, j.r0, j.r1 = &s.sc, r0, min(r0+chunk, sets)
		r := s.westRange(j, stop)
		w.add(r)
		if !r.ok {
			return
		}
	}
}

// add sums a job's result.
func (w *sharedWest) add(r westResult) {
	w.mu.Lock()
	w.sum, w.pairs, w.cand = w.sum+r.sum, w.pairs+r.pairs, w.cand+r.cand
	w.failed = w.failed || !r.ok
	w.mu.Unlock()
}
