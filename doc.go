// Package nqueens counts, finds, verifies and transforms solutions of the n-queens problem:
// n queens on an n×n board, no two in the same row, column or diagonal.
//
// A [Placement] holds one queen per row: p[r] is the 0-based column of the queen in
// 0-based row r. Text meant for people uses 1-based columns instead (docs/algorithms.md §1): the two
// solutions of n = 4 print as "2 4 1 3" and "3 1 4 2".
//
// Its entry points are [Count] (every solution: total and unique), [Solve] (one valid
// placement), [Enumerate] and [WriteSolutions] (every solution), and [FindCompletion]
// and [CountCompletions] (boards with queens already placed); counts too big for one
// run are the package cluster's. [Verify] checks any placement in O(n) and names the first attacking pair; every
// placement the nqueens command prints has passed it. [Write] and [WritePlacement] write,
// and [Placements], [ParsePlacement] and [ReadBinary] read, the 1-based text line, the
// board drawing, JSON and a streamed little-endian binary form meant for placements of up
// to 10^9 queens ([VerifyPlacements] and [VerifyBinary] check them while they read).
//
// Every long-running entry point reports its progress through one hook, a
// func([Progress]) in its options; board sizes written by people are read by
// [ParseSize]; docs/vocabulary.md gives the one name of each concept, in Go, JSON, text
// and flags.
//
// The algorithms live in internal packages named for what they are; this package picks
// between them.
package nqueens
