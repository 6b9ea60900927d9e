package fastcount

import "testing"

// TestJoinMatchesSearch checks the half-board join against the plain search
// on every sub-problem of small boards, for every split point.
func TestJoinMatchesSearch(t *testing.T) {
	never := func() bool { return false }
	for n := 5; n <= 11; n++ {
		p, _ := NewPlan(n)
		j := newJoiner(n)
		for i, s := range p.Subs {
			qs := orient(n, s.queens(n))
			sp := compileQueens(n, qs)
			want, _, _ := countFast(sp, never)
			for h := 1; h < sp.m; h++ {
				got, _, ok := j.joinCount(n, qs, h, never)
				if !ok || got != want {
					t.Fatalf("n=%d sub %d %+v h=%d: join %d, search %d", n, i, s, h, got, want)
				}
			}
		}
	}
}
