package nqueens_test

import (
	"context"
	"fmt"
	"os"

	"github.com/nqueens/nqueens"
)

func ExampleCount() {
	r, err := nqueens.Count(context.Background(), 8, nqueens.CountOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Total, r.Unique)
	// Output: 92 12
}

func ExampleSolve() {
	r, err := nqueens.Solve(context.Background(), 8, nqueens.SolveOptions{Algorithm: nqueens.Backtrack})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Placement)
	// Output: 1 5 8 6 3 7 2 4
}

func ExampleVerify() {
	p, _ := nqueens.ParsePlacement("2 4 1 3")
	fmt.Println(nqueens.Verify(p))
	p, _ = nqueens.ParsePlacement("1 3 2 4")
	fmt.Println(nqueens.Verify(p))
	// Output:
	// <nil>
	// queens at row 2, column 3 and row 3, column 2 share an anti-diagonal
}

func ExampleWrite() {
	cols, _ := nqueens.Construction(context.Background(), 6)
	nqueens.Write(context.Background(), os.Stdout, nqueens.Board, 6, cols)
	// Output:
	// . Q . . . .
	// . . . Q . .
	// . . . . . Q
	// Q . . . . .
	// . . Q . . .
	// . . . . Q .
}

func ExampleCanonical() {
	p, _ := nqueens.ParsePlacement("3 1 4 2")
	c, size := nqueens.Canonical(p)
	fmt.Println(c, size)
	// Output: 2 4 1 3 2
}
