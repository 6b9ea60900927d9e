package qjoin

import (
	"context"
	"testing"
)

// Known counts, OEIS A000170 and A002562, index n.
var knownTotal = []uint64{0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
	2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884, 314666222712}

var knownUnique = []uint64{0, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
	1846955, 11977939, 83263591, 621012754, 4878666808, 39333324973}

func TestQuick(t *testing.T) {
	for n := MinN; n <= 14; n++ {
		for _, cut := range []bool{false, true} {
			p, err := newPlan(n, cut)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []Kernel{KernelGo, KernelAVX2} {
				if !k.Available() {
					continue
				}
				r, err := p.Count(context.Background(), Options{Workers: 1, Kernel: k})
				if err != nil {
					t.Errorf("n=%d: %v", n, err)
				}
				if r.Total != knownTotal[n] || r.Unique != knownUnique[n] {
					t.Errorf("%v cut=%v n=%d: got %d/%d want %d/%d", k, cut, n, r.Total, r.Unique, knownTotal[n], knownUnique[n])
				}
			}
		}
	}
}
