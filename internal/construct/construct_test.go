package construct

import (
	"testing"
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
