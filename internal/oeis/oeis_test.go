package oeis

import "testing"

// TestTables checks the tables against each other: for n > 1 every class has 8, 4 or 2
// members, so 2·unique ≤ total ≤ 8·unique, with total = 8·unique − (solutions with a
// symmetry), and totals of n ≥ 4 are even (a solution and its mirror image differ).
func TestTables(t *testing.T) {
	for n := 2; n <= MaxN; n++ {
		tot, u := Total(n), Unique(n)
		if tot > 8*u || tot < 2*u || tot%2 != 0 {
			t.Errorf("n=%d: total %d and unique %d cannot both be right", n, tot, u)
		}
	}
	if Total(1) != 1 || Unique(1) != 1 || Total(8) != 92 || Unique(8) != 12 {
		t.Error("the small values are wrong")
	}
}
