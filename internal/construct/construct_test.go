package construct

import (
	"testing"

	"github.com/nqueens/nqueens/internal/pseudo"
)

// attacks is an O(n²) checker, independent of the project's O(n) Verify.
func valid(q []int) bool {
	for i := range q {
		if q[i] < 0 || q[i] >= len(q) {
			return false
		}
		for j := range i {
			d := q[i] - q[j]
			if d == 0 || d == i-j || d == j-i {
				return false
			}
		}
	}
	return true
}

func TestSmallBoards(t *testing.T) {
	for n := 4; n <= 300; n++ {
		q := make([]int, 0, n)
		for c := range Columns(n) {
			q = append(q, c)
		}
		if len(q) != n || !valid(q) {
			t.Fatalf("n=%d: construction %v is not a solution", n, q)
		}
	}
}

func TestClassicLists(t *testing.T) {
	// 1-based lists as printed in the literature.
	want := map[int][]int{
		4: {2, 4, 1, 3},
		8: {2, 4, 6, 8, 3, 1, 7, 5},
		9: {4, 6, 8, 2, 5, 7, 9, 1, 3},
		6: {2, 4, 6, 1, 3, 5},
	}
	for n, w := range want {
		for r := range n {
			if got := Column(n, r) + 1; got != w[r] {
				t.Errorf("n=%d row %d: got column %d, want %d", n, r+1, got, w[r])
			}
		}
	}
}

// TestLine: the line that Line names for each row is the case of the program whose
// formula gives Column's column, and the rows' lines, then the last, are a path through
// the program.
func TestLine(t *testing.T) {
	h := func(n int) int { return n / 2 }
	// The formula of each line that places a queen, for 1-based r.
	formula := map[int]func(n, r int) int{
		5: func(n, r int) int { return 2 * r }, 6: func(int, int) int { return 3 }, 7: func(int, int) int { return 1 },
		8: func(int, int) int { return 5 }, 9: func(n, r int) int { return 2*(r-h(n)) + 1 },
		11: func(n, r int) int { return 2*r + 2 }, 12: func(int, int) int { return 2 }, 13: func(int, int) int { return 1 },
		14: func(int, int) int { return 3 }, 15: func(n, r int) int { return 2*(r-h(n)) + 3 },
		17: func(n, r int) int { return 2 * r }, 18: func(n, r int) int { return 2*(r-h(n)) - 1 },
	}
	for _, l := range Code.Events("place") {
		if formula[l] == nil {
			t.Fatalf("line %d places a queen but has no formula here", l)
		}
	}
	for n := 1; n <= 300; n++ {
		if n == 2 || n == 3 {
			continue
		}
		var steps []pseudo.Step
		for r := range n {
			l := Line(n, r)
			f := formula[l]
			if f == nil || f(n, r+1) != Column(n, r)+1 {
				t.Fatalf("n=%d row %d: line %d, column %d", n, r+1, l, Column(n, r)+1)
			}
			steps = append(steps, pseudo.Step{Kind: "place", Line: l})
		}
		steps = append(steps, pseudo.Step{Kind: "solution", Line: SolutionLine})
		if err := Code.Walk(steps, true); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}
