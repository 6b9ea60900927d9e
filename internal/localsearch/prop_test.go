package localsearch

import (
	"testing"

	"pgregory.net/rapid"
)

// TestVerifyMatchesChecker: Verify and the test's own checker agree on arbitrary boards
// (random permutations, and arbitrary columns, in range or not).
func TestVerifyMatchesChecker(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 300).Draw(t, "n")
		var q []int32
		if rapid.Bool().Draw(t, "perm") {
			perm := rapid.SliceOfNDistinct(rapid.IntRange(0, n-1), n, n, rapid.ID[int]).Draw(t, "cols")
			for _, c := range perm {
				q = append(q, int32(c))
			}
		} else {
			q = rapid.SliceOfN(rapid.Int32Range(-2, int32(n+1)), n, n).Draw(t, "cols")
		}
		got := Verify(q, nil) == nil
		want := check(q) == ""
		if got != want {
			t.Fatalf("Verify says %v, checker says %q", Verify(q, nil), check(q))
		}
	})
}
