// Package localsearch finds one placement of n non-attacking queens for any n up to MaxN
// with the linear-time local search of Sosic and Gu (QS4, 1991), as restated in docs/algorithms.md §3.6.
// It is a pure library: it never prints; Options.Progress is the only way out while it
// runs, and the context is the only way to stop it.
//
// # Phases
//
//  1. Initial search. q starts as the identity permutation (rows and columns never
//     conflict, only diagonals). Row j is filled by attempts: draw m uniformly in
//     [j, n−1]; if the column c = q[m], put in row j, shares no diagonal with the queens
//     already placed (rows 0..j−1), swap it into row j and advance j. The test is O(1):
//     two bits, one per diagonal family, set only for placed queens. (The tutorial of
//     seed 000 kept counters of all queens instead; then every swap from the identity
//     start puts queens j and m on the same anti-diagonal and nothing is ever placed:
//     LabInitialSearch keeps that mistake, bounded, for the lab and a regression test.)
//     At most 3.08·n attempts; k = n − j rows remain, about 20–40 whatever n.
//  2. The k remaining columns are shuffled into rows j..n−1 (Fisher–Yates) and every
//     queen is now counted.
//  3. Final search. Each of rows j..n−1 whose queen conflicts is swapped with random rows
//     (n > 200; the failed swaps of a run share a budget of 7,000) or with rows 0..n−1 in
//     order (n ≤ 200) until both swapped queens are free. A kept swap never creates a
//     conflict, and every conflict involves one of rows j..n−1, so if all of them end
//     free the board is solved. Otherwise the whole search restarts from step 1
//     (Stats.Restarts; Options.FinalRetries can retry step 3 alone first, which was
//     measured not to pay).
//
// # Data layout (4.5 bytes per queen)
//
//	q     []int32   n entries, q[r] = column of row r (the result; 4 bytes per queen)
//	diag  []uint64  two bitsets of 2n−1 bits in one array (half a byte per queen):
//	  a = diag[:w]  anti-diagonals, bit r+c
//	  d = diag[w:]  diagonals,      bit r−c+n−1
//	over  map       per family, queens beyond the first on a diagonal (final search only)
//
// In the initial search a bit means "a placed queen is on this diagonal". From step 2 on
// a diagonal's count is its bit plus its overflow entry (diagSet): only the k unplaced
// queens and the rows they swap with ever share a diagonal, so the maps hold a few dozen
// entries while two int32 counter arrays would cost 16 bytes per queen. A trial swap
// in the final search needs only four bits (see trySwap), the map only when a swap is kept.
//
// Options.Scratch lets the caller own diag (ScratchWords(n) words) and reuse it for
// Verify afterwards, so that solving plus verifying peaks at MemoryBytes(n) =
// 4.5 bytes per queen plus the runtime's constant.
//
// # The prefetching pipeline (n ≥ 2^16)
//
// Each attempt makes three random memory accesses that depend on each other: q[m], then
// the two bitset words of (j, q[m]). On boards far beyond the caches these misses are the
// whole cost. The draws do not depend on the data, so initialPipelined makes them two
// chunks (of 8) ahead: it prefetches the q lines of chunk g, reads the now-cached columns
// of chunk g−1 and prefetches their bitset words, and runs the attempts of chunk g−2
// exactly. A draw made when j was smaller may point at a row placed since (m < j): it is
// discarded, not counted as an attempt, which keeps the attempts exactly uniform on
// [j, n−1]. The prefetch is PREFETCHT0 in prefetch_amd64.s, plain touching loads
// elsewhere. initialPlain is the straightforward loop (used below 2^16, and with
// Options.Plain); the two consume the random stream differently, so a seed gives
// different (equally valid) placements in the two modes, but always the same one for the
// same n, seed and options.
//
// The big arrays get madvise(MADV_HUGEPAGE) on Linux (sysmem.AdviseHuge).
//
// # Randomness
//
// One wyrand generator (rand.go) seeded from Options.Seed through splitmix64; bounded
// draws by Lemire's multiply-shift. No global state.
//
// # Legend of the short names in the hot loops
//
//	n      board size              q    the placement, q[r] = column of row r
//	j      next row to fill        m    row drawn at random, m in [j, n−1]
//	c      column q[m]             att  attempts made in this run
//	A, D   bit words of the anti-diagonals (index r+c) and diagonals (index r−c+n−1)
//	ai, di indices of (j, c) in A and D;  ab, db their bit masks
//	gen, mid, proc  the draws of chunks g, g−1, g−2 of the pipeline
//	words  bitset word indices to prefetch (into diag: A's, then w + D's)
//	i, m (final search)  the conflicting row and its swap partner;  ci, cm their columns
//
// # Fixed queens (fixed.go)
//
// SolveFixed is the same search with some queens fixed in place, for the completion
// problem on large boards: the free rows and the free columns are the slots of the
// permutation, the fixed queens are in the diagonal bits from the start, step 3 swaps
// slots only and its budget grows with the slots step 1 left. It may give up (ErrGaveUp):
// unlike a bare board, a partial one may have no completion.
//
// # For callers (the CLI)
//
// To stay within 4.5 bytes per queen plus a constant while solving, verifying and writing
// the result: check MemoryBytes(n) against the memory available before anything else;
// allocate ScratchWords(n) words once, pass them as Options.Scratch, and give the same
// words to Verify afterwards (Verify needs no other memory); write q without copying it
// into another big buffer: the root package's WriteBinary writes its memory as it is
// (little-endian machines), and text goes through a small buffer.
//
// # Replay (Options.Tracer)
//
// A Tracer receives every step of Solve in order: each run, each attempt of step 1 (with
// what the O(j) check of the original program would cost there), the shuffle of step 2,
// each swap of step 3, the end. The web board replays them. Step 1 is then run by
// initialTraced, a copy of initialPlain with the calls, so that the untraced loop keeps its
// code; TestTracer rebuilds placement and counters from the events and compares them.
//
// # Lab
//
// LabInitialSearch (lab.go) runs step 1 alone, timed, with a choice of collision check:
// the seed's O(j) partial_collision scan, the O(1) placed-only bits, or the tutorial's
// broken all-queens counters (bounded by an attempt limit). The first two follow exactly
// the same path for a seed.
package localsearch
