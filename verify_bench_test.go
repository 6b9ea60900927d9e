package nqueens

import (
	"context"
	"testing"
)

// BenchmarkVerifyInPlace: the two exact passes of VerifyInPlace on a valid placement
// below the bucketed check's threshold (2^22 queens, the construction's), in ns per queen.
func BenchmarkVerifyInPlace(b *testing.B) {
	const n = 1 << 22
	res, err := Solve(context.Background(), n, SolveOptions{Algorithm: Construct})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := VerifyInPlace(res.Placement); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/queen")
}
