package nqueens_test

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens"
)

func ExampleFindCompletion() {
	p, _ := nqueens.ParsePartial("1:1, 2:5", 8)
	r, err := nqueens.FindCompletion(context.Background(), p, nqueens.CompletionOptions{})
	fmt.Println(r.Placement, err)
	p, _ = nqueens.ParsePartial("1:1, 2:3", 8)
	_, err = nqueens.FindCompletion(context.Background(), p, nqueens.CompletionOptions{})
	fmt.Println(err)
	// Output:
	// 1 5 8 6 3 7 2 4 <nil>
	// no completion exists: no solution exists
}

func ExampleCountCompletions() {
	p, _ := nqueens.ParsePartial("1:1", 8)
	res, _ := nqueens.CountCompletions(context.Background(), p, nqueens.CompletionOptions{})
	fmt.Println(res.Total, res.Status)
	p, _ = nqueens.ParsePartial("1:1, 2:2", 8)
	res, err := nqueens.CountCompletions(context.Background(), p, nqueens.CompletionOptions{})
	fmt.Println(res.Status, err)
	// Output:
	// 4 complete
	// failed queens at row 1, column 1 and row 2, column 2 share a diagonal
}

func ExampleEnumerate() {
	nqueens.Enumerate(context.Background(), 6, nqueens.EnumerateOptions{Unique: true},
		func(p nqueens.Placement, classSize int) bool {
			fmt.Println(p, classSize)
			return true
		})
	// Output: 2 4 6 1 3 5 4
}

func ExampleGenerateInstance() {
	p, _ := nqueens.GenerateInstance(context.Background(), 8, 3, nqueens.FromSolution, 1)
	r, err := nqueens.FindCompletion(context.Background(), p, nqueens.CompletionOptions{})
	fmt.Println(err == nil && nqueens.Verify(r.Placement) == nil)
	// Output: true
}
