// Package rules holds what every algorithm of nqueens shares about the board itself:
// the errors that say a board has no answer or a count does not fit, defined once so
// that errors.Is recognises them whichever algorithm returned them.
package rules

import "errors"

// ErrNoSolution says that the board has no solution (n = 2 and n = 3), or that a
// partial placement cannot be completed. The root package exports it as
// nqueens.ErrNoSolution.
var ErrNoSolution = errors.New("no solution exists")

// ErrOverflow says that a count, or a sum of partial counts, does not fit in a uint64.
var ErrOverflow = errors.New("the count overflows uint64")
