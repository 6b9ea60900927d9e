// The mirror: the solutions of the left-half tasks are kept, compactly, and printed
// again mirrored for the right-half tasks instead of searching those.

package enumerate

import "sync/atomic"

// mirror holds the solutions of the left-half tasks for their mirror images: task i <
// tasks/2 fills stores[i]; task tasks−1−i prints it backwards, mirrored. The stores
// share a budget of bytes; a task whose store does not fit drops it and its mirror task
// searches.
type mirror struct {
	stores []mirrorStore // nil: no mirror
	tasks  int
	budget atomic.Int64 // bytes left
}

// mirrorStore holds the solutions of one task in order: the rows below the task's prefix,
// two columns a byte (low nibble first), in blocks of 1, 2, 4, … up to 64 KiB.
type mirrorStore struct {
	done   chan struct{} // closed when the left-half task has ended
	ok     bool          // blocks hold all the task's solutions (set before done closes)
	blocks [][]byte
	bytes  int64 // taken from the budget
}

// keep appends q (the rows below the prefix) to the mirror store being filled, or drops
// the store when the budget is spent.
func (l *lister) keep(q []int32) {
	t := q[l.skip:]
	stride := (len(t) + 1) / 2
	if l.sn+stride > len(l.sb) && !l.newBlock(stride) {
		return
	}
	dst := l.sb[l.sn : l.sn+stride]
	for j := range len(t) / 2 {
		dst[j] = byte(t[2*j]) | byte(t[2*j+1])<<4
	}
	if len(t)%2 == 1 {
		dst[stride-1] = byte(t[len(t)-1])
	}
	l.sn += stride
}

// newBlock starts a new block of the store, twice the size of the last one (up to
// storeBlock), or drops the whole store if the budget cannot pay for it.
func (l *lister) newBlock(stride int) bool {
	s := l.store
	size := 1 << 10
	if l.sb != nil {
		s.blocks = append(s.blocks, l.sb[:l.sn])
		size = min(2*len(l.sb), storeBlock)
	}
	size = max(size/stride, 1) * stride
	if l.mir.budget.Add(-int64(size)) < 0 {
		l.mir.budget.Add(int64(size))
		l.dropStore()
		return false
	}
	s.bytes += int64(size)
	l.sb, l.sn = make([]byte, size), 0
	return true
}

// dropStore gives the store's memory back to the budget and stops filling it.
func (l *lister) dropStore() {
	s := l.store
	l.mir.budget.Add(s.bytes)
	s.blocks, s.bytes = nil, 0
	l.store, l.sb, l.sn = nil, nil, 0
}

// putMirrored prints the mirror images q → n−1−q of the stored solutions, last first (the
// mirror reverses the lexicographic order), below prefix, the mirror of the stored task's.
func (l *lister) putMirrored(blocks [][]byte, prefix []int32) bool {
	n := l.n
	m := int32(n - 1)
	q := l.q[:n]
	copy(q, prefix)
	t := q[len(prefix):]
	stride := (len(t) + 1) / 2
	for k := len(blocks) - 1; k >= 0; k-- {
		if l.stopping() {
			return false
		}
		blk := blocks[k]
		for off := len(blk) - stride; off >= 0; off -= stride {
			src := blk[off : off+stride]
			for j := range len(t) / 2 {
				t[2*j], t[2*j+1] = m-int32(src[j]&15), m-int32(src[j]>>4)
			}
			if len(t)%2 == 1 {
				t[len(t)-1] = m - int32(src[stride-1])
			}
			if !l.put(q) {
				return false
			}
		}
	}
	return true
}
