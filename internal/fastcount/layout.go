// Layouts of the join: for each sub-problem, which image of its border queens is
// joined, where the board is cut, and so which group (the shared bottom halves) it
// belongs to.

package fastcount

import "slices"

// flipQueens mirrors the border queens top to bottom.
func flipQueens(n int, qs []square) []square {
	out := make([]square, len(qs))
	for i, q := range qs {
		out[i] = square{n - 1 - q.r, q.c}
	}
	return out
}

// sharedGroups tells whether the sub-problems of an n×n board share bottom
// halves (joinLayouts) or each have their own (fullLayout). Measured at
// n=15..18 against the unshared join: 1.5x fewer instructions at n=15,
// 1.2-1.4x less time at n=16, even at n=17, slower at n=18 (the bottom
// halves of a group, knowing only the border queens below the cut, grow
// about 6x per n).
func sharedGroups(n int) bool { return n <= maxSharedN }

// bottomRows is the largest number of board rows below the cut, row n-1
// included, with shared bottom halves; minBottomRows the smallest (see
// joinLayouts). Measured best at n=15..17 among n-9..n-6.
func bottomRows(n int) int { return max(2, n-7) }

// minBottomRows is the smallest number of board rows below the cut; see bottomRows.
func minBottomRows(n int) int { return max(2, n-9) }

// layout is how a sub-problem is joined: the image of its border queens
// (in board coordinates), the cut s and the group key.
type layout struct {
	img []square
	s   int
	key uint64
	// full: the bottom search knows every border queen, not only those
	// below the cut (the group is then the sub-problem alone).
	full bool
}

// joinLayouts chooses, for every sub-problem of p with a trivial
// stabiliser, the image to count and the cut, so that many sub-problems
// share the same group (the same border queens below the cut) and so the
// same bottom halves: the cut lies between bottomRows(n) and
// minBottomRows(n) rows above the bottom border, preferring images and cuts
// that leave only the bottom queen below the cut (groups then differ only by
// the bottom queen's column and the cut), then the lowest cut, then the
// smallest key. Computed once per plan.
func (p *Plan) joinLayouts() []layout {
	p.layoutOnce.Do(func() {
		n := p.N
		out := make([]layout, len(p.Subs))
		for i, sub := range p.Subs {
			if sub.Kind == KindWhole || sub.Stab != 1 {
				continue
			}
			if sharedGroups(n) {
				out[i] = chooseLayout(n, sub.queens(n))
			} else {
				out[i] = fullLayout(n, sub.queens(n))
			}
		}
		p.layouts = out
	})
	return p.layouts
}

// chooseLayout picks the layout of one sub-problem; see joinLayouts.
func chooseLayout(n int, qs []square) layout {
	var best layout
	bestNK := 0
	for g := 0; g < 8; g++ {
		img := make([]square, len(qs))
		corner := false
		for k, q := range qs {
			img[k] = transform(g, n, q)
			corner = corner || img[k].r == n-1 && (img[k].c == 0 || img[k].c == n-1)
		}
		if corner {
			// A corner queen below the cut leaves the bottom search a
			// free side column: its group has 3x the bottom halves of any
			// other (at n=16: 0.9 M, 0.12 s to build, against 0.3 M), a
			// grain too coarse for progress and checkpoints. The image
			// with the corner on top serves as well.
			continue
		}
		for br := bottomRows(n); br >= minBottomRows(n); br-- {
			s := n - br
			if s < 1 || !joinable(n, img, s) {
				continue
			}
			key, nk := groupKeyOf(n, img, s, false)
			// Fewer queens below the cut first; among those, the most rows
			// below the cut (the key's s is smaller), then the smallest key.
			if best.img == nil || nk < bestNK || nk == bestNK && key < best.key {
				best, bestNK = layout{img: img, s: s, key: key}, nk
			}
		}
	}
	return best
}

// fullLayout is the layout of a sub-problem whose bottom halves are not
// shared: the image of orient (the smallest top-down tree), cut so that the
// bottom half has the free rows of splitRows.
func fullLayout(n int, qs []square) layout {
	img := orient(n, qs)
	sp := compileQueens(n, img)
	if sp.m < 2 {
		return layout{}
	}
	s := int(sp.rows[splitRows(sp.m)])
	key, _ := groupKeyOf(n, img, s, true)
	return layout{img: img, s: s, key: key, full: true}
}

// splitRows is the number of free rows given to the top half when the
// bottom halves are not shared: half of them, but never fewer than m-6, so
// that the bottom half, the one kept in memory, has at most 6 rows.
func splitRows(m int) int { return min(max(1, m/2, m-6), m-1) }

// groupKeyOf encodes s and the queens of img at or below row s, sorted, in
// one word; nk is their number.
func groupKeyOf(n int, img []square, s int, full bool) (key uint64, nk int) {
	var below []int
	for _, q := range img {
		if full || q.r >= s {
			below = append(below, q.r<<5|q.c)
		}
	}
	slices.Sort(below)
	key = uint64(s)
	for _, b := range below {
		key = key<<10 | uint64(b)
	}
	return key | uint64(len(below))<<60, len(below)
}

// joinable reports whether the layout leaves at least one free row on each
// side of the cut, as joinCount needs.
func joinable(n int, img []square, s int) bool {
	above, below := s-1, n-s
	for _, q := range img {
		if q.r == 0 {
			continue
		}
		if q.r < s {
			above--
		} else {
			below--
		}
	}
	return above >= 1 && below >= 1
}
