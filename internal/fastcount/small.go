package fastcount

// countWhole counts all solutions of an n×n board by plain row-by-row search
// and the unique ones by Burnside's lemma: every solution adds |stabiliser|,
// and the sum divided by 8 is the number of classes. Used for n below
// minConstellationN only (n ≤ 3), where border constellations do not apply.
func countWhole(n int) (total, unique, nodes uint64) {
	col := make([]int, n)
	full := uint64(1)<<uint(n) - 1
	var stabSum uint64
	var rec func(r int, cols, dl, dr uint64)
	rec = func(r int, cols, dl, dr uint64) {
		if r == n {
			total++
			stabSum += uint64(stabiliser(col))
			return
		}
		for free := ^(cols | dl | dr) & full; free != 0; free &= free - 1 {
			q := free & -free
			nodes++
			c := 0
			for q>>uint(c) != 1 {
				c++
			}
			col[r] = c
			rec(r+1, cols|q, (dl|q)<<1, (dr|q)>>1)
		}
	}
	rec(0, 0, 0, 0)
	return total, stabSum / 8, nodes
}

// stabiliser returns how many of the 8 symmetries of the square map the
// placement col (col[r] = column of row r) to itself.
func stabiliser(col []int) int {
	n := len(col)
	k := 0
	for g := 0; g < 8; g++ {
		img := make([]int, n)
		for r, c := range col {
			s := transform(g, n, square{r, c})
			img[s.r] = s.c
		}
		same := true
		for r := range col {
			if img[r] != col[r] {
				same = false
				break
			}
		}
		if same {
			k++
		}
	}
	return k
}
