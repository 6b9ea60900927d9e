package qjoin

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
)

func TestSliceSizes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SS_N"))
	if n == 0 {
		t.Skip()
	}
	o := defaultOptions(n)
	g := newGeom(n, o.westRestricted)
	tb := newCellNumbers(g)
	sl := newSlicers(g, tb)
	h := g.h
	var most [4]int
	var mostR [4]uint32
	k := n - h
	i := 0
	step, _ := strconv.Atoi(os.Getenv("SS_STEP"))
	_ = context.Background()
	for R := uint32(1)<<uint(k) - 1; R < 1<<uint(n); R = nextComb(R) {
		if reverse(R, n) < R {
			continue
		}
		i++
		if i%step != 0 {
			continue
		}
		W := ^R & (1<<uint(n) - 1)
		nMask := uint32(1)<<uint(h) - 1
		for q, rows := range [4]uint32{W & nMask, R & nMask, W >> uint(h), R >> uint(h)} {
			v := sl[q].get(rows)
			if len(v.words) > most[q] {
				most[q], mostR[q] = len(v.words), R
			}
		}
	}
	fmt.Printf("n=%d westRestricted=%v sampled %d: max slice entries NW %d NE %d SW %d SE %d\n", n, o.westRestricted, i/step, most[0], most[1], most[2], most[3])
}
