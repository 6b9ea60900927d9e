package nqueens

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
)

// TestListFastEqualsGeneral: without Unique, WriteSolutions takes the fast path
// (enumerate.WriteLines); it must write exactly the bytes of the general path (Enumerate
// and listWriter), in every format, with one worker or several, whole or cut by a limit.
func TestListFastEqualsGeneral(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for _, f := range []Format{Text, Board, JSON} {
			if f == Board && n > 10 && testing.Short() {
				continue
			}
			for _, limit := range []uint64{0, 1, 7, 1000} {
				opt := EnumerateOptions{Limit: limit}
				var want bytes.Buffer
				gres, gerr := writeGeneral(context.Background(), &want, n, f, opt)
				for _, w := range []int{1, 2, 3} {
					opt.Workers = w
					var got bytes.Buffer
					res, err := writeFast(context.Background(), &got, n, f, opt)
					if err != nil || gerr != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Fatalf("n=%d %s limit=%d workers=%d: %d bytes (%v), general path %d bytes (%v)",
							n, f, limit, w, got.Len(), err, want.Len(), gerr)
					}
					if res.Listed != gres.Listed || res.Total != gres.Total || res.Stopped != gres.Stopped || res.Status != gres.Status {
						t.Fatalf("n=%d %s limit=%d workers=%d: %+v, general path %+v", n, f, limit, w, res, gres)
					}
				}
			}
		}
	}
}

// TestSmallChecker: the allocation-free check of WriteSolutions agrees with Verify.
func TestSmallChecker(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := 1 + r.IntN(12)
		p := make(Placement, n)
		for i := range p {
			p[i] = int32(r.IntN(n+1)) - int32(r.IntN(2)) // sometimes off the board
		}
		if r.IntN(4) == 0 {
			p = p[:r.IntN(n+1)]
		}
		if got, want := newSmallChecker(n).valid(p), Verify(p) == nil && len(p) == n; got != want {
			t.Fatalf("n=%d %v: smallChecker %v, Verify %v", n, p, got, want)
		}
	}
}
