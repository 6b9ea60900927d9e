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
//     an optional Tracer that receives every place, remove, conflict, solution and
//     (§3.4) pruned node in search order, for an animation.
//   - LasVegas (§3.5): random queens, then backtracking; the cost against the number m of
//     random queens (the U-shaped curve), sampled or computed exactly for small boards
//     (Brassard & Bratley's table), in a LasVegasTable whose optimum follows one rule for
//     each Objective (by default the expected nodes explored, their t).
//   - LocalSearch (§3.6): Sosic–Gu's local search over a range of n, in a
//     LocalSearchTable, with its initial search timed with the O(j) scan of the original
//     program against the solver's O(1) check (InitialSearch runs one alone). The
//     initial search's times and checks (initial_placed_checks, initial_scan_checks) are
//     those of the first run's step 1 only, even when the search restarted; the web
//     board's replay gives them under the same names, and its placed_checks and
//     scan_checks count step 1 over every run.
//
// The runs behind a row (LasVegasRun, LocalSearchRun, Search.Run, ConstructRun) also run
// alone with a tracer, for the web board's replays, and return one result type, RunResult:
// the placement found and the counters, named as the tables' keys. Every step names the line of the
// search's program (Code: LasVegasCode, LocalSearchCode, Search.Code, ConstructCode)
// that reports it, pseudo-code with comments in English and Chinese, and the lines of a
// run are a path through that program (Code.Walk).
//
// Every experiment reports its progress through the hook of every long run of nqueens, a
// func(nqueens.Progress) in its options, and estimates its cost before it runs
// (EstimateBacktrack, EstimateLasVegas).
package lab
