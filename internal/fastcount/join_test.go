package fastcount

import "testing"

// TestJoinMatchesSearch checks the half-board join against the plain search
// on every sub-problem of small boards, in every orientation and for every
// cut, with the bottom halves reused from one call to the next whenever the
// group is the same.
func TestJoinMatchesSearch(t *testing.T) {
	never := func() bool { return false }
	for n := 5; n <= 11; n++ {
		p, _ := NewPlanEngine(n, EngineJoin)
		j := newJoiner(n)
		for s := 1; s < n; s++ {
			// Linear scans and every number of cut lines, whatever the
			// buckets' sizes.
			j.forceMode, j.forceCut = true, s%(maxCutBits+2)-1
			for i, sub := range p.Subs {
				qs := sub.queens(n)
				want, _, _ := countFast(compileQueens(n, qs), never)
				for g := 0; g < 8; g++ {
					img := make([]square, len(qs))
					for k, q := range qs {
						img[k] = transform(g, n, q)
					}
					if !joinable(n, img, s) {
						continue
					}
					// The bottom search knowing the queens below the cut
					// (shared groups) or all of them.
					for _, full := range []bool{false, true} {
						key, _ := groupKeyOf(n, img, s, full)
						l := layout{img: img, s: s, key: key, full: full}
						got, _, ok := j.joinCount(n, l, never)
						if !ok || got != want {
							t.Fatalf("n=%d sub %d %+v g=%d s=%d cut %d full %v: join %d, search %d", n, i, sub, g, s, j.forceCut, full, got, want)
						}
					}
				}
			}
		}
	}
}

// TestGroupsMatchSearch checks countGroup, which joins the top halves of a
// group in batches, against the plain search on the pool's groups, with
// every way of storing the bottom halves.
func TestGroupsMatchSearch(t *testing.T) {
	never := func() bool { return false }
	for n := 7; n <= 12; n++ {
		p, _ := NewPlanEngine(n, EngineJoin)
		ids := make([]int, len(p.Subs))
		for i := range ids {
			ids[i] = i
		}
		j := newJoiner(n)
		for gi, g := range p.groups(ids, EngineJoin) {
			ls := make([]layout, len(g))
			for i, id := range g {
				ls[i] = p.joinLayouts()[id]
			}
			if ls[0].img == nil {
				continue
			}
			j.haveKey = false // rebuild with the mode below
			j.forceMode, j.forceCut = true, gi%(maxCutBits+2)-1
			sols, _, ok := j.countGroup(n, ls, never)
			if !ok {
				t.Fatal("stopped")
			}
			for i, id := range g {
				want, _, _ := countFast(compileQueens(n, p.Subs[id].queens(n)), never)
				if sols[i] != want {
					t.Fatalf("n=%d group %d sub %d: %d, search %d", n, gi, id, sols[i], want)
				}
			}
		}
	}
}
