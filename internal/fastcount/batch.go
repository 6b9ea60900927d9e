package fastcount

import "time"

// Joining a group's top halves in batches.
//
// The bottom halves of a group take tens of megabytes from n=16 on, and a
// top half reads a few blocks of one bucket: joined as they come, the top
// halves of a group make a cache miss or more each. countGroup instead runs
// the top searches of all the group's sub-problems, collects their leaves,
// sorts them by bucket (a counting sort) and joins them bucket by bucket,
// so that each bucket's blocks are read from memory once per batch.

// topRec is a top half waiting to be joined: its line word, the index of
// the bucket of its complementary column set, and its sub-problem's index
// in the group.
type topRec struct {
	lt          uint64
	bucket, sub uint32
}

// batchMax is the number of top halves joined at once (16 bytes each).
const batchMax = 1 << 20

// reportEvery bounds the time a finished top search waits in the batch
// before countGroup joins it and reports its sub-problem: finished work
// reaches the caller (progress, checkpoints) at this grain whatever the size
// of the group, and an interrupted group loses at most this much of it plus
// the bottom halves being built. Shorter batches cost a little cache reuse.
const reportEvery = 20 * time.Millisecond

// countGroup counts the sub-problems ls (one group: the same key, so the
// same bottom halves) by joining half boards, and calls report(i, sols,
// nodes) with the solutions and the work of ls[i] (nodes as for joinCount)
// as soon as they are final, in the order of ls. The totals do not depend
// on when the batch is joined. ok is false if stop was seen set; the
// sub-problems reported until then are exact.
func (j *joiner) countGroup(n int, ls []layout, stop func() bool, report func(i int, sols, nodes uint64)) (ok bool) {
	if len(ls) == 1 {
		s, nd, ok := j.joinCount(n, ls[0], stop)
		if ok {
			report(0, s, nd)
		}
		return ok
	}
	j.gSols = append(j.gSols[:0], make([]uint64, len(ls))...)
	j.gPairs = append(j.gPairs[:0], make([]uint64, len(ls))...)
	sols := append(j.gOwn[:0], make([]uint64, len(ls))...)
	nodes := append(j.gNodes[:0], make([]uint64, len(ls))...)
	j.gOwn, j.gNodes = sols, nodes
	j.batch = j.batch[:0]
	j.batching = true
	defer func() { j.batching = false }()
	reported := 0 // ls[:reported] went to report
	// flushed joins the batch and reports ls[reported:upTo], whose top
	// halves are then all joined.
	flushed := func(upTo int) {
		j.flush()
		for ; reported < upTo; reported++ {
			report(reported, sols[reported]+j.gSols[reported], nodes[reported]+j.gPairs[reported])
		}
	}
	last := time.Now()
	for i, l := range ls {
		if j.haveKey && j.key != l.key {
			// Not one group after all: join what waits on the old
			// bottom halves first.
			flushed(i)
		}
		if stop() {
			return false
		}
		j.sub = uint32(i)
		// Small buckets are joined at once (sols); others wait in batch.
		s, nd, ok := j.joinCount(n, l, stop)
		if !ok {
			return false
		}
		sols[i], nodes[i] = s, nd
		if now := time.Now(); len(j.batch) >= batchMax || now.Sub(last) >= j.reportEvery {
			flushed(i + 1)
			last = now
		}
	}
	flushed(len(ls))
	return true
}

// flush joins the waiting top halves with the bottom halves in the table,
// bucket by bucket, into gSols and gPairs.
func (j *joiner) flush() {
	if len(j.batch) == 0 {
		return
	}
	// Counting sort by bucket.
	nb := len(j.touched)
	j.starts = append(j.starts[:0], make([]uint32, nb+1)...)
	for _, t := range j.batch {
		j.starts[t.bucket+1]++
	}
	for i := 1; i <= nb; i++ {
		j.starts[i] += j.starts[i-1]
	}
	if cap(j.batchTmp) < len(j.batch) {
		j.batchTmp = make([]topRec, len(j.batch), cap(j.batch))
	}
	sorted := j.batchTmp[:len(j.batch)]
	for _, t := range j.batch {
		sorted[j.starts[t.bucket]] = t
		j.starts[t.bucket]++
	}
	lc := leafCtx{planes: j.planes, wp: uint32(j.wp), cells: j.cells, cut: j.cut,
		linear: j.linear, sorted: j.sorted, rings: lineRings(j.n)}
	for _, t := range sorted {
		b := &j.table[j.touched[t.bucket]]
		s, p := lc.scan(b, t.lt)
		j.gSols[t.sub] += s
		j.gPairs[t.sub] += p
	}
	j.batch = j.batch[:0]
}
