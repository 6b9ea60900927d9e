package localsearch

import (
	"context"
	"fmt"
	"math"
	"testing"
)

var sinkQ []int32

// BenchmarkSolve times Solve from n = 10^3 to 10^6 (bench/solve.sh goes further, against
// the shuffle yardstick). Each iteration uses a different seed.
func BenchmarkSolve(b *testing.B) {
	for e := 3; e <= 6; e++ {
		n := int(math.Pow10(e))
		b.Run(fmt.Sprintf("n=1e%d", e), func(b *testing.B) {
			var st Stats
			seed := uint64(0)
			for b.Loop() {
				seed++
				q, s, err := Solve(context.Background(), n, Options{Seed: seed})
				if err != nil {
					b.Fatal(err)
				}
				sinkQ = q
				st.Attempts += s.Attempts
				st.K += s.K
				st.FinalSwaps += s.FinalSwaps
				st.Restarts += s.Restarts
			}
			runs := float64(b.N)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/runs/float64(n), "ns/queen")
			b.ReportMetric(float64(st.Attempts)/runs, "attempts/op")
			b.ReportMetric(float64(st.K)/runs, "k/op")
			b.ReportMetric(float64(st.FinalSwaps)/runs, "finalswaps/op")
			b.ReportMetric(float64(st.Restarts)/runs, "restarts/op")
		})
	}
}

// BenchmarkSolveFixed: the completion of a tenth of a solution's queens at n = 10^5, the
// local search of FindCompletion on large boards.
func BenchmarkSolveFixed(b *testing.B) {
	const n = 100_000
	sol, _, err := Solve(context.Background(), n, Options{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	fixed := make([]int32, n)
	for r := range fixed {
		fixed[r] = -1
		if r%10 == 0 {
			fixed[r] = sol[r]
		}
	}
	for b.Loop() {
		if _, _, err := SolveFixed(context.Background(), fixed, Options{Seed: 2}); err != nil {
			b.Fatal(err)
		}
	}
}
