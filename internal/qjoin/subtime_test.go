package qjoin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestSubTimes times a few random row sets of n (ST_N) on one worker, with
// the plan's cost of each and the peak heap.
func TestSubTimes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ST_N"))
	if n == 0 {
		t.Skip()
	}
	k, _ := strconv.Atoi(os.Getenv("ST_K"))
	p, err := NewPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	var ms runtime.MemStats
	for i := 0; i < k; i++ {
		id := 2 + rng.IntN(p.Len()-2)
		start := time.Now()
		r, err := p.SolveSub(context.Background(), id, KernelAuto)
		d := time.Since(start)
		runtime.ReadMemStats(&ms)
		fmt.Printf("n=%d sub %d class %d cost %d (mean %.0f): %v total %d err %v heap %d MB\n", n, id, p.class(p.rows[id-2]), p.Cost(id), float64(p.TotalCost)/float64(p.Len()), d, r.Total, err, ms.HeapSys>>20)
	}
}
