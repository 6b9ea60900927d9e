// Package qjoin is the quadrant-join counter: it counts the total (OEIS
// A000170) and the unique (A002562) solutions of an n×n board for
// 4 ≤ n ≤ MaxN by listing the partial placements of the four quadrants and
// joining them, instead of searching the whole tree. From n = 10 on it is
// what internal/fastcount runs; the constellation engine there stays as the
// cross-check.
//
// # Decomposition (geom.go, plan.go)
//
// Cut the columns at h = ⌊n/2⌋: West = columns [0,h), East = [h,n) (one
// wider for odd n); cut the rows at h too: North = [0,h), South = [h,n).
// The quadrants NW, NE, SW, SE are h×h, h×(n-h), (n-h)×h, (n-h)×(n-h).
// Each half holds exactly one queen per column, so a solution is a pair
// (East half, West half) whose queens stand in complementary row sets: R
// (|R| = n-h) in the East, the others in the West. A half is in turn a pair
// of quarter placements, North and South, in complementary column sets.
//
// A sub-problem is one East row set R, canonical under the north–south
// mirror (R ≤ reverse(R)), listed in colex order; two more sub-problems
// count S180 and S90 (burnside.go). Sub-problems are independent and
// deterministic, so ids are stable and a count can be sharded,
// checkpointed and merged (package cluster).
//
// # Weights: why Σ weights = T
//
// Call a and b the segments of the main diagonal in NW and SE, c and d
// those of the anti-diagonal in NE and SW (for odd n the centre square,
// which lies on both, belongs to neither: it is in SE and allowed). A
// solution has at most one queen on each long diagonal. The anti-transpose
// (r,c) → (n-1-c, n-1-r) maps solutions to solutions, fixes every square of
// the anti-diagonal and swaps a with b; the transpose fixes the main
// diagonal and swaps c with d. So the number N(a,b,c,d) of solutions with
// given segment occupations is symmetric in a↔b and in c↔d, and
//
//	T = Σ N = N(0000) + 2·N(1000) + 2·N(0001) + 4·N(1001) + (odd n: centre)
//	  = Σ over the solutions with b = c = 0 of 2^(a+d)
//	  = Σ over the solutions with a = d = 0 of 2^(b+c).
//
// Hence one half, the restricted one, is listed without its queens on the
// long diagonals (the quarter tables forbid those squares), and the other,
// the flagged one, carries a flag per quarter that holds a queen there,
// its weight 2 to the number of flags. Which half is restricted is a
// choice of the plan (geom.go): the East for odd n and even n < 20, the
// West from n = 20 on for even n.
//
// The north–south mirror maps East halves to East halves (R to
// reverse(R)), a to d and b to c, so it keeps the restricted set and the
// weights: a canonical R with R ≠ reverse(R) stands for both (weight 2).
// For even n the east–west mirror maps the solutions with no queen on
// either long diagonal (a = b = c = d = 0) and East rows R to those with
// East rows ~R; their share is counted in the smaller of R and
// canon(~R) = min(~R, reverse(~R)) with weight 2, in the other with 0
// (eastWestWeight): the flagged half's class 0. For odd n the halves
// differ in width: no such rule. TestRowSets checks every sub-problem
// against these weights applied to every solution, for n = 5..11 and
// either half restricted.
//
// Unique counts come from Burnside's lemma: U = (T + S180 + 2·S90)/8, as no
// reflection fixes a solution for n > 1. Every sub-problem reports its share
// of the numerator T + S180 + 2·S90 (Result.Burnside): a row set its share
// of T, the two searches S180 and 2·S90. The sum must be a multiple of 8,
// which Count checks, and package cluster at every merge.
//
// # Data layout
//
// An entry word describes the queens of one quarter placement (geom.go):
//
//   - bits 0..L-1: the East–West crossing lines it uses, the diagonals and
//     anti-diagonals with squares in both halves (2(n-1) of them, less the
//     two long ones, which the restricted half never uses: L = 2n-4; for
//     odd n with the East restricted, one more, bit 0, for the centre,
//     which the restricted East may hold and the flagged West meets on
//     either long diagonal), ordered so that the lines most worth cutting
//     (see below) are the top bits;
//   - for odd n, the bits of the lines that join the North and South
//     quarters of the East half without crossing the East–West cut: the
//     East diagonal r-c = -h (extra) and, with the West restricted, the
//     anti-diagonal (anti: NE's segment c and the centre);
//   - bits 62, 63: the flags of the flagged half, of its North quarter and
//     of its South quarter.
//
// Two quarters of a half are compatible when x&y is 0 on pairMask: every
// line that joins a North and a South quarter of a half crosses the row
// cut inside the half, and every such line crosses the East–West cut too,
// but the East lines above. (In the West, the centre bit stands for two
// lines that no two quarters share, so the West test leaves it out.) So an
// entry is one word for every n ≤ MaxN: L+2 is 56 bits at n = 29.
//
// quadTable (table.go) holds one word per partial placement of a quadrant
// (0..h queens, at most one per row and column), sorted by cell (row set,
// column set of the same size) and flag, with a compact index: cell =
// base[rows] + colex rank of cols. The entries of the four quadrants, 2.7
// million at n=18 and 73 million at n=21, are counted by NewPlan (for the
// cost estimates) and filled once per plan, one quadrant per worker.
//
// # Joining (solve.go)
//
// For a row set R, the East halves are the compatible pairs of NE cell
// (R∩N, C) × SE cell (R∩S, ~C) over the column sets C; their words x|y go
// to a buffer, written branch-free (AVX2: VPERMD packing, pairsAVX2). The
// West halves come the same way from NW × SW. The halves of the flagged
// half fall in three classes by their flags, weighing 2^(flags), but class
// 0, which weighs the east–west weight (and is left out where that is 0).
//
// # Matcher (match.go, kernel*.go, count_amd64.s)
//
// A "Four Russians" bit matrix: the table words (the halves of one side)
// are cut into blocks of 256 (512 for AVX-512); per block and per line ℓ,
// the set of the halves that do not use ℓ; per chunk of 5 lines and each of
// its 32 subsets s, the AND of the sets of s. A query (a half of the other
// side) picks one entry per chunk with its own bits and counts the AND of
// the K entries: K loads and a popcount per block, whatever the query. The
// kernels run all the queries of a group against a tile of blocks (24 KB,
// 48 KB for AVX-512) before the next, so that the tables stay in the
// fastest caches. A block is 4 or 8 lanes of 64 halves, and each lane's
// count is shifted by a weight of its own: a query's by the weight of its
// flags; a table of the flagged half gives each class of a group whole
// lanes, the same in every block of the group (laneSplit), shifted by the
// class's weight, so that the classes share blocks and pad one tail per
// group, not one per class.
//
// Which half is the table: the East as a rule; but a row set whose halves
// fit in one part and one batch (and, with the assembly kernels, number
// more than 16,384: on fewer the choice costs more than it saves) takes
// the half that the cost model gives the least work (the larger one, as a rule, when there are enough queries
// to pay for its tables: at n = 20 that made the kernel's loads 1.7 times
// fewer).
//
// Cut lines: for each row set the matcher takes the top c line bits out of
// the matching (0 ≤ c ≤ 16; at least L-40, the tables matching 40 lines):
// the table words are grouped by their cut bits g, each group in whole
// blocks, and the queries sorted by their cut bits u; a query meets only
// the groups with g & u == 0, which are the subsets of ~u. The lines on top
// are the ones most used by both halves (cutRank), so that a cut skips the
// most pairs. More cut lines mean fewer blocks per query and fewer chunks,
// but smaller groups with more padding and more group visits per query;
// the matcher picks c per row set by a cost model over the histograms of
// both sides (choose), weighing up to log2 of the table's blocks plus 2
// lines (4 for even n ≥ 26: cutBeyondFor). At n = 21 it picks 4 to 9 lines;
// on a part of n = 28 (2^21 East halves) 16, the most (maxCut).
//
// Kernels, chosen at run time (Kernel, KernelAuto; the command's
// NQUEENS_KERNEL is passed in as the counter's option):
//
//   - avx512 (count_amd64.s, amd64 with AVX-512F and VPOPCNTDQ): blocks of
//     512 halves, its chunks ANDed three at a time (VPTERNLOGQ) and a
//     VPOPCNTQ per block;
//   - avx2 (count_amd64.s, amd64 with AVX2, BMI2, POPCNT): blocks of 256,
//     one VPAND chain per block, a nibble-table VPSHUFB popcount;
//   - go (kernel_go_gen.go, match.go): blocks of 256 in plain Go, 64
//     halves per word, and a 64×64 bit transpose for the tables; it runs
//     everywhere, and is the only one built with the purego tag.
//
// KernelAuto takes the widest the CPU runs unless the first count of the
// process, timing each on the same random words (autokernel.go), finds
// another at least 1.5 times faster: a net for vector code that runs
// slower than its width promises (it caught a legacy SSE instruction in
// the kernels' loop, which made them ten times slower on an Intel VM).
//
// The count kernels of all three and the Go declarations of the assembly
// ones are generated by gen_kernels.go, one per number of chunks (`make
// lint` checks that they are what it writes). The table build (a byte
// shuffle network and VPMOVMSKB instead of a bit transpose: the halves of a
// block come out permuted, the same way for every line, which is all
// counting needs) and the pair join are AVX2 code (kernel_amd64.s), shared
// by both assembly kernels.
//
// # Tables or slices (table.go, slice.go)
//
// Up to n = 21 (tablesMaxN) the workers share the four quarter tables,
// built once per plan (22 MB at n=18, 190 MB at n=20, 600 MB at n=21).
// Beyond, they would not fit (1.6 GB at n = 22, some 350 GB at n = 27), and a
// row set needs only a sliver of them: NE(rn, ·), SE(rs, ·), NW(~rn, ·),
// SW(~rs, ·), 0.1% of the tables at n = 21. So each worker builds the four
// slices of its row set by a search restricted to the rows of the set (two
// passes: count per cell, then store; 10 to 50 ns per entry) and keeps each
// while the next row set shares its part. Row sets come in colex order, in
// which the South part changes slowest, so the South slices are built once
// per group of row sets; the North ones, the smaller, once per row set: a
// few per cent of the join at n = 22, less beyond.
//
// A row set's halves may be many (about 10^7 East halves at n = 25, 10^8 at
// n = 27): the East halves are matched in parts of at most eastCap (2^21),
// each part against all the West halves, which are generated again per part
// and counted in batches of at most westCap (2^22). A worker thus holds at
// most a part, a batch and four slices, whatever n. A row set with more
// East halves than eastCap is split by the cut lines of their NE quarters
// (eastSplit): the NE entries of each cell sorted by their top 16 line bits
// v, one pass counts the halves of each v, and each part takes the halves
// of a run of neighbouring v (or of one v and a run of cells), generated
// from its own NE entries only. The matcher groups a part's halves as it
// would group them all, and a West half that meets the bits common to a
// part is dropped before the matching.
//
// # Boards of 28 and 29 (shared.go)
//
// From n = 28 (sharedMinN) a row set holds hundreds of megabytes of slices
// and takes minutes of a core, so the workers share it: one, the lead,
// builds its slices, East halves and each part's matcher, and all of them
// count the West halves of some of the West North quarter's column sets
// against it, each with its own scratch. A shard's memory is then one row
// set's slices however many workers run, and a shard of a few row sets
// keeps every core busy. At n = 29 (piecesMinN) each row set is also cut
// into 4 sub-problems, its pieces: piece j takes the East halves whose NE
// quarter's column set has a colex rank in the j-th quarter of the range
// (Plan.piece), so a sub-problem is a quarter of a row set's work and the
// plan has 155 million of them. The sums of one n may pass 2^64 (Q(29) is
// about 3·10^19): results are added in 128 bits (internal/u128).
//
// # Cost and memory (plan.go, memory.go)
//
// The time of a row set is modelled by rowCost from the quarter pairs tried
// on each side, e and w: 2 ns per pair plus 0.04·(e·w)^0.75 ns for the
// matching (the cut lines take a larger share out of the larger row sets,
// hence the power); fitted on n = 20 and 21. Up to countedMaxN the plan
// counts the entries of every cell of the quarter tables and computes e and
// w exactly for every row set; beyond, it measures a few row sets of each
// class (the number of rows in the North: the classes differ by 10^4 in
// cost, their members by a few times) from their slices and gives every
// member its class's mean (the sampled row sets' slices are counted, not
// stored). EstimateMemory and EstimateShardMemory bound a count's memory
// from the tables' sizes, the exact largest slices (quadSlices,
// rowSetSlices: a search over every row subset of each quadrant), measured
// maxima of the halves, and the caps above.
//
// # Pool (count.go)
//
// CountSubs builds the tables (in parallel) once per plan, then runs the
// sub-problems on workers that take ids from an atomic counter, each with
// its own scratch (solver); results are reported in any order and summed by
// the caller in id order. Cancellation is polled per sub-problem, per
// column set inside a row set, between kernel calls of at most stepPairs
// query-blocks, every few thousand placements in the table builds and the
// Burnside searches, and by NewPlanContext.
//
// # Legend for the hot loops
//
//	R, W         East row set, West row set (~R)
//	rn, rs       R's rows in the North and South quadrants (local bits)
//	C            a column set of the North quadrant of a half
//	x, y         entry words of a North and a South quarter
//	e, east      East words (x|y) of the current row set
//	q, qs        West words (or queries)
//	k            chunks per block (K)
//	cl           class of a flagged half: its flags, weight 2^cl (class 0: ewf)
//	s_j, o_j     bits of a query in chunk j, and their table offset
//	g, u         cut bits of an East word (its group), of a query
//	nb, tile     blocks, blocks per tile
//
// Nodes counts the quarter pairs tried plus the East–West pairs compared
// (queries × East halves) plus the orbits placed by the Burnside searches:
// a measure of work, not a property of the problem.
package qjoin
