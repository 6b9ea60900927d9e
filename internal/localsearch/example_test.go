package localsearch_test

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/localsearch"
)

// Solving and verifying a board of a million queens; the scratch is the solver's
// diagonal bitsets, kept for the next solve.
func Example() {
	n := 1_000_000
	scratch := make([]uint64, localsearch.ScratchWords(n))
	q, st, err := localsearch.Solve(context.Background(), n, localsearch.Options{Seed: 1, Scratch: scratch})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(q), nqueens.VerifyInPlace(q), st.K < 200, st.Restarts)
	// Output: 1000000 <nil> true 0
}

func ExampleSolve_noSolution() {
	_, _, err := localsearch.Solve(context.Background(), 3, localsearch.Options{})
	fmt.Println(err)
	// Output: no solution exists
}
