// Package lab is the teaching side of nqueens: the classic algorithms instrumented with
// exact counters, reproducing the published figures (docs/algorithms.md §3), the tables
// of the experiments and their figures. "nqueens lab" and the web board run it, and only
// print or draw what it computes: the same table, with the same JSON, comes out of both.
//
// Each experiment is one function with one options struct and one result type, whose
// JSON is what "nqueens lab … --json" prints and the web board's /api/lab/… endpoints
// answer; its Table method lays it out as typed cells for text or CSV (Table), its Plot
// method draws its figure (PNG or SVG):
//
//   - Backtrack (§3.1–3.4): the four teaching searches (Searches), their counters, times
//     and ratios to the row DFS, in a BacktrackTable. Each Search also runs alone, with
//     an optional Tracer that receives every place, remove, conflict and solution in
//     search order, for an animation.
//   - LasVegas (§3.5): random queens, then backtracking; the cost against the number m of
//     random queens (the U-shaped curve), sampled or computed exactly for small boards
//     (Brassard & Bratley's table), in a LasVegasTable whose optimum follows one rule for
//     each Objective (by default the expected nodes explored, their t).
//   - LocalSearch (§3.6): Sosic–Gu's local search over a range of n, in a
//     LocalSearchTable, with its initial search timed with the O(j) scan of the original
//     program against the solver's O(1) check (InitialSearch runs one alone).
//
// Every experiment reports its progress through the hook of every long run of nqueens, a
// func(nqueens.Progress) in its options, and estimates its cost before it runs
// (EstimateBacktrack, EstimateLasVegas).
package lab
