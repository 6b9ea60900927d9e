package enumerate

import (
	"context"
	"fmt"
	"math/bits"
)

// MaxN is the largest board accepted: one bit per column in a uint64 mask, and enumerating
// beyond 32 would not finish anyway.
const MaxN = 32

// pollMask sets how often the context is polled: every pollMask+1 nodes.
const pollMask = 1<<16 - 1

// Stats are the counters of one enumeration.
type Stats struct {
	Nodes     uint64 // squares tried (placements of a queen), the root not included
	Solutions uint64 // solutions yielded
	Total     uint64 // solutions represented: equal to Solutions, or the sum of class sizes in unique mode
}

// Each calls yield for every solution of the n×n board in lexicographic order, with q the
// 0-based columns (a buffer reused from call to call: copy it to keep it) and the class
// size (1 unless unique is set). In unique mode only the canonical representative of each
// symmetry class is yielded, with the size of its class. Each stops early when yield
// returns false, and returns ctx.Err() when ctx is cancelled (polled every 65536 nodes).
func Each(ctx context.Context, n int, unique bool, yield func(q []int32, classSize int) bool) (Stats, error) {
	if n < 1 || n > MaxN {
		return Stats{}, fmt.Errorf("enumeration handles n from 1 to %d, not %d", MaxN, n)
	}
	st, _, err := search(ctx, n, unique, nil, yield)
	return st, err
}

// frame is search's state of one row: the masks entering the row and its untried squares.
type frame struct{ cols, dl, dr, free uint64 }

// enterPrefix places the queens of prefix in q and returns the squares allowed in each row
// (unique mode prunes some: see setBorderMasks) and the frame of row len(prefix); ok is
// false if the prefix is not allowed (no solution starts with it).
func enterPrefix(n int, unique bool, prefix []int32, q []int32) (rowMask [MaxN]uint64, fr frame, ok bool) {
	full := uint64(1)<<uint(n) - 1
	for r := range rowMask {
		rowMask[r] = full
	}
	if unique {
		rowMask[0] = full & (uint64(1)<<uint((n-1)/2+1) - 1)
		if len(prefix) > 0 {
			if rowMask[0]&(1<<uint(prefix[0])) == 0 {
				return rowMask, fr, false
			}
			setBorderMasks(&rowMask, n, int(prefix[0]), full)
		}
	}
	var cols, dl, dr uint64
	for r, c := range prefix {
		bit := uint64(1) << uint(c)
		if (rowMask[r]&^(cols|dl|dr))&bit == 0 {
			return rowMask, fr, false
		}
		q[r] = c
		cols, dl, dr = cols|bit, (dl|bit)<<1, (dr|bit)>>1
	}
	return rowMask, frame{cols, dl, dr, rowMask[len(prefix)] &^ (cols | dl | dr)}, true
}

// search enumerates the solutions whose first rows are prefix (len(prefix) ≤ n−2, or the
// empty prefix for any n), in lexicographic order. It reports whether yield stopped it.
//
// Its loop is one function on purpose: it is the hot loop of Each (every node of the
// search); only the entry into the prefix is apart (enterPrefix).
func search(ctx context.Context, n int, unique bool, prefix []int32, yield func(q []int32, classSize int) bool) (Stats, bool, error) {
	var st Stats
	full := uint64(1)<<uint(n) - 1
	q := make([]int32, n)
	if n == 1 {
		st.Solutions, st.Total, st.Nodes = 1, 1, 1
		return st, !yield(q, 1), nil
	}
	var stack [MaxN]frame
	rowMask, first, ok := enterPrefix(n, unique, prefix, q)
	if !ok {
		return st, false, nil
	}
	var sc canonScratch
	if unique {
		sc = newCanonScratch(n)
	}
	base := len(prefix)
	stack[base] = first
	done := ctx.Done()
	nodes := uint64(0)
	last := n - 2 // the last row with a choice: row n−1 has at most one free square
	stopped := false
	d := base
	for {
		fr := &stack[d]
		f := fr.free
		if f == 0 {
			if d == base {
				break
			}
			d--
			continue
		}
		bit := f & -f // lowest set bit: the leftmost untried column
		fr.free = f ^ bit
		q[d] = int32(bits.TrailingZeros64(bit))
		nodes++
		if nodes&pollMask == 0 {
			select {
			case <-done:
				st.Nodes = nodes
				return st, false, ctx.Err()
			default:
			}
		}
		nc, nl, nr := fr.cols|bit, (fr.dl|bit)<<1, (fr.dr|bit)>>1
		if d == last {
			lf := rowMask[n-1] &^ (nc | nl | nr)
			if lf == 0 {
				continue
			}
			nodes++
			q[n-1] = int32(bits.TrailingZeros64(lf))
			size := 1
			if unique {
				if size = sc.classSize(q); size == 0 {
					continue
				}
			}
			st.Solutions++
			st.Total += uint64(size)
			if !yield(q, size) {
				stopped = true
				break
			}
			continue
		}
		if unique && d == 0 {
			setBorderMasks(&rowMask, n, int(q[0]), full)
		}
		nf := rowMask[d+1] &^ (nc | nl | nr)
		if nf == 0 {
			continue // dead end: no need to enter the next row
		}
		d++
		stack[d] = frame{nc, nl, nr, nf}
	}
	st.Nodes = nodes
	return st, stopped, nil
}

// setBorderMasks closes the border squares closer than q0 to a corner (see the package
// comment): in a canonical solution no border queen is nearer a corner than the queen of
// row 0 is.
func setBorderMasks(rowMask *[MaxN]uint64, n, q0 int, full uint64) {
	edges := uint64(1) | uint64(1)<<uint(n-1)
	for r := 1; r < n; r++ {
		m := full
		if r < q0 || r > n-1-q0 {
			m &^= edges
		}
		rowMask[r] = m
	}
	// Last row: the queen must lie in [q0, n−1−q0].
	lo := uint64(1)<<uint(q0) - 1
	hi := full &^ (uint64(1)<<uint(n-q0) - 1)
	rowMask[n-1] &^= lo | hi
}

// canonScratch holds the inverse permutation used to build the rotated images.
type canonScratch struct{ inv []int32 }

func newCanonScratch(n int) canonScratch { return canonScratch{inv: make([]int32, n)} }

// classSize returns the size of q's symmetry class if q is the lexicographically smallest
// of its images, else 0.
//
// With inv the inverse permutation (inv[c] = row of the queen in column c) and m = n−1,
// the 7 other images are, row by row:
//
//	rotate 90°           m − inv[i]     mirror               m − q[i]
//	rotate 180°          m − q[m−i]     mirror, rotate 90°   m − inv[m−i]
//	rotate 270°          inv[m−i]       mirror, rotate 180°  q[m−i]
//	                                    mirror, rotate 270°  inv[i]
func (s *canonScratch) classSize(q []int32) int {
	n := len(q)
	m := int32(n - 1)
	inv := s.inv
	for r, c := range q {
		inv[c] = int32(r)
	}
	stab := 1 // the identity
	for k := range 7 {
		cmp := 0
		for i := range n {
			var v int32
			j := int(m) - i
			switch k {
			case 0:
				v = m - inv[i]
			case 1:
				v = m - q[j]
			case 2:
				v = inv[j]
			case 3:
				v = m - q[i]
			case 4:
				v = m - inv[j]
			case 5:
				v = q[j]
			case 6:
				v = inv[i]
			}
			if v != q[i] {
				if v < q[i] {
					return 0 // a smaller image exists: q is not canonical
				}
				cmp = 1
				break
			}
		}
		if cmp == 0 {
			stab++
		}
	}
	return 8 / stab
}
