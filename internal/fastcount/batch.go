package fastcount

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

// countGroup counts the sub-problems ls (one group: the same key, so the
// same bottom halves) by joining half boards. sols[i] and nodes[i] are the
// solutions and the work of ls[i] (nodes as for joinCount). ok is false if
// stop was seen set.
func (j *joiner) countGroup(n int, ls []layout, stop func() bool) (sols, nodes []uint64, ok bool) {
	sols = make([]uint64, len(ls))
	nodes = make([]uint64, len(ls))
	if len(ls) == 1 {
		s, nd, ok := j.joinCount(n, ls[0], stop)
		sols[0], nodes[0] = s, nd
		return sols, nodes, ok
	}
	j.gSols = append(j.gSols[:0], make([]uint64, len(ls))...)
	j.gPairs = append(j.gPairs[:0], make([]uint64, len(ls))...)
	j.batch = j.batch[:0]
	j.batching = true
	defer func() { j.batching = false }()
	for i, l := range ls {
		if j.haveKey && j.key != l.key {
			// Not one group after all: join what waits on the old
			// bottom halves first.
			j.flush()
		}
		j.sub = uint32(i)
		// Small buckets are joined at once (sols); others wait in batch.
		s, nd, ok := j.joinCount(n, l, stop)
		if !ok {
			return nil, nil, false
		}
		sols[i], nodes[i] = s, nd
		if len(j.batch) >= batchMax {
			j.flush()
		}
	}
	j.flush()
	for i := range ls {
		sols[i] += j.gSols[i]
		nodes[i] += j.gPairs[i]
	}
	return sols, nodes, true
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
