// The page's words, in English and Simplified Chinese: every string the page shows or
// draws comes from STR through tr, the elements of index.html through their data-i18n
// attributes (data-i18n the text, data-i18n-label the aria-label, data-i18n-title the
// title, data-i18n-placeholder the placeholder, data-i18n-group an optgroup's label).
// The programs beside a replay come from the server with their comments in both. A text
// set with setText is a function of the language, written again when it changes; in it a
// part between backticks is code (`Place`), shown in <code>, in no language.
"use strict";

let lang = "en";

// The words of a sentence that change with the kind of attack.
const HOW = {
  en: { row: "in the same row", col: "in the same column", diag: "on a diagonal" },
  zh: { row: "同行", col: "同列", diag: "在同一条对角线上" },
};

const en = {
  title: "nqueens",
  tagline: "Place n queens on an n×n board so that no two share a row, a column or a diagonal.",
  language: "Language",
  copyLink: "Copy link",
  linkLabel: "Link to this moment",
  linkCopied: "copied",
  linkSelect: "selected: press Ctrl+C to copy",
  panels: "Panels",
  tabBoard: "Board",
  tabReplay: "Replay",
  tabLab: "Lab",
  serverError: (e) => e.message,

  // The board.
  boardTitle: "Board",
  boardLabel: "the board",
  algorithm: "algorithm",
  "algo.auto": "auto",
  "algo.backtrack": "backtrack (first in order)",
  "algo.localsearch": "local search (Sosic–Gu)",
  "algo.construct": "construction",
  algoName: (a) => a,
  seed: "seed",
  random: "random",
  solve: "Solve",
  prev: "◀ previous",
  prevTitle: "previous solution in lexicographic order",
  next: "next ▶",
  nextTitle: "next solution in lexicographic order",
  unique: "one per symmetry class",
  stepNote: "◀ ▶ step through the solutions in lexicographic order from solution 1, not from the placement shown.",
  symmetries: "symmetries of the square",
  "sym.rotate90": "rotate 90°",
  "sym.rotate180": "rotate 180°",
  "sym.rotate270": "rotate 270°",
  "sym.mirror": "mirror",
  "sym.mirror+rotate90": "mirror + 90°",
  "sym.mirror+rotate180": "mirror + 180°",
  "sym.mirror+rotate270": "mirror + 270°",
  "sym.canonical": "canonical",
  canonicalTitle: "the class's smallest image",
  tooLarge: "Too large to draw",
  download: "Download the placement (text)",
  columns: "columns: ",
  firstColumns: "first columns: ",
  badN: "n must be a whole number, at least 1",
  enumLimit: (max) => `stepping through the solutions takes n ≤ ${max}`,
  solving: "solving…",
  searching: "searching…",
  solved: (r, k) => `n = ${fmt(r.n)}, ${r.algorithm}${r.algorithm === "localsearch" ? `, seed ${r.seed}` : ""}: ${seconds(r.seconds)}` +
    (k !== undefined ? `, conflicts = ${k}` : "") + (r.verified ? " · verified" : ""),
  enumerated: (n, r, unique, t) => {
    const of = t ? ` of ${fmt(unique ? t.unique : t.total)}` : r.has_next ? "" : ` of ${fmt(r.index + 1)}`;
    const what = unique ? `class ${fmt(r.index + 1)}${of} (${r.class_size} solutions)` : `solution ${fmt(r.index + 1)}${of}`;
    return `n = ${n}: ${what}, lexicographic order · verified`;
  },
  transformed: (sym, size) => `${sym === "canonical" ? "canonical form (smallest image)" : sym} · class of ${size} · verified`,
  sumAlgorithm: "algorithm",
  sumTime: "time",
  sumK: "conflicts (k)",
  sumRestarts: "restarts",
  sumAttempts: "attempts",
  sumSwaps: "final swaps",
  sumVerified: "verified",
  yes: "yes",
  no: "no",
  units: ["µs", "ms", "s"],
  boardText: (n, placed) => n > 40 ? `a board of ${fmt(n)}: ${fmt(placed.length)} queens, drawn as dots` :
    placed.length === 0 ? `an empty board of ${n}` : `a board of ${n}, ${placed.length} queens: ` + placed.map(([r, c]) => `row ${r} column ${c}`).join(", "),
  emptyBoard: "an empty board",

  // The replay.
  replayTitle: "Replay",
  search: "search",
  gBacktracking: "backtracking",
  gLasVegas: "random queens, then backtracking",
  gLocal: "local search",
  gClosed: "closed form",
  "opt.classic": "classic backtracking",
  "opt.row": "row DFS (solve's backtrack)",
  "opt.cell": "cell DFS",
  "opt.cellprune": "cell DFS with row pruning",
  "opt.lasvegas-row": "Las Vegas, row variant",
  "opt.lasvegas-cell": "Las Vegas, cell variant",
  "opt.localsearch": "local search (Sosic–Gu)",
  "opt.construct": "explicit construction",
  until: "until",
  untilFirst: "first solution",
  untilAll: "all solutions",
  mTitle: "queens placed at random",
  check: "check",
  checkPlaced: "O(1): bits of the placed queens",
  checkScan: "O(j): scan the placed queens",
  compare: "side by side with",
  "cmp.none": "nothing",
  "cmp.localsearch-placed": "local search, O(1) check",
  "cmp.localsearch-scan": "local search, O(j) scan",
  load: "Load",
  back: "← back",
  backTitle: "one event back (←)",
  forward: "forward →",
  forwardTitle: "one event forward (→)",
  play: "▶ play",
  pause: "⏸ pause",
  speed: "speed",
  speedText: (v) => `${v} events/s`,
  scrubLabel: "position in the trace",
  scrubText: (i, n) => `event ${fmt(i)} of ${fmt(n)}`,
  keys: "Keys: ← → one event, space play or pause, Home and End the start and the end.",
  jumps: "jump ahead",
  quiz: "quiz: predict the next step",
  quizTitle: "before each queen is placed, or each swap, guess where it goes",
  quizRow: "row",
  quizColumn: "column",
  quizAnswer: "Answer",
  quizShow: "Show me",
  quizAskRow: (r) => `Quiz: where does the queen of row ${r} go? Click its square on the board, or type its column.`,
  quizAskCell: "Quiz: where does the next queen go? Click its square on the board, or type its row and column.",
  quizAskSwap: (i) => `Quiz: the queen of row ${i} is in a collision: which queen does it swap with? Click that queen, or type its row.`,
  quizRight: (r, c) => `Right: row ${r}, column ${c}.`,
  quizWrong: (ar, ac, r, c) => `Not quite: you chose row ${ar}, column ${ac}; the queen goes to row ${r}, column ${c}.`,
  quizShown: (r, c) => `The queen goes to row ${r}, column ${c}.`,
  quizRightSwap: (i, m) => `Right: the queen of row ${i} swaps with the queen of row ${m}.`,
  quizWrongSwap: (a, i, m) => `Not quite: you chose row ${a}; the queen of row ${i} swaps with the queen of row ${m}.`,
  quizShownSwap: (i, m) => `The queen of row ${i} swaps with the queen of row ${m}.`,
  quizInvalid: (n) => `Type a number from 1 to ${n}.`,
  quizScore: (right, wrong) => `Score: ${right} right, ${wrong} wrong.`,
  jumpSolution: "next solution »",
  jumpSolutionTitle: "go on to the next solution",
  jumpStart: "next start »",
  jumpStartTitle: "go on to the next start from the empty board",
  jumpRestart: "next restart »",
  jumpRestartTitle: "go on to the next restart from the identity",
  jumpDeadend: "next dead end »",
  jumpDeadendTitle: "go on to the next dead end: a step back, a pruned node, a failed start",
  cEvent: "event",
  diagLabel: "queens per diagonal",
  replayCurveLabel: "the U curve at the replay's m",
  codeTitle: "The program, the line of the last event lit",
  varsTitle: "Variables",
  stackTitle: "The call stack, the running call last",
  tracing: "tracing…",
  "title.classic": "classic backtracking, O(k) `Place`",
  "title.row": "row DFS, O(1) arrays",
  "title.cell": "cell DFS",
  "title.cellprune": "cell DFS with row pruning",
  "title.lasvegas-row": "Las Vegas: random queens, then backtracking (row variant)",
  "title.lasvegas-cell": "Las Vegas: random queens, then backtracking (cell variant)",
  "title.localsearch-placed": "Sosic–Gu local search, O(1) check",
  "title.localsearch-scan": "Sosic–Gu local search, O(j) scan",
  "title.construct": "explicit construction (Hoffman, Loessi & Moore)",
  traceSummary: (title, t, model) => {
    const why = t.stopped === "" ? "the whole search" : `stopped at the ${t.stopped}`;
    const end = {
      backtrack: () => `${fmt(t.nodes)} nodes, ${fmt(t.checks)} checks`,
      lasvegas: () => `${fmt(t.starts)} starts, ${fmt(t.explored)} nodes explored, ${fmt(t.checks)} checks`,
      localsearch: () => `${fmt(t.attempts)} attempts, conflicts = ${fmt(t.conflicts)}, ${fmt(t.swaps)} swaps, ${fmt(t.restarts)} restarts, ${fmt(t.checks)} checks`,
      construct: () => `${fmt(t.placed)} rows placed${t.verified ? ", verified" : ""}`,
    }[model]();
    return `${title}, n = ${t.n}${t.m !== undefined ? `, m = ${t.m}` : ""}${t.seed !== undefined ? `, seed ${t.seed}` : ""}: ` +
      `${fmt(t.events.length)} events (${why}); at the end ${end}`;
  },
  cDepth: "depth",
  cNodes: "nodes",
  cChecks: "checks",
  cSolutions: "solutions",
  cLoops: "`Place` loop",
  cAttempts: "attempts",
  cStarts: "starts",
  cDraws: "draws",
  cRandom: "random queens",
  cExplored: "explored",
  p: "p",
  s: "s",
  e: "e",
  t: "t",
  cPlaced: "placed (j)",
  cK: "conflicts (k)",
  cCollisions: "collisions",
  cChecksPlaced: "checks, O(1) check",
  cChecksScan: "checks, O(j) scan",
  cOtherScan: "O(j) scan: checks",
  cOtherPlaced: "O(1) check: checks",
  cSwaps: "swaps",
  cFailedSwaps: "failed swaps",
  cRestarts: "restarts",
  cRows: "rows placed",
  vStart: "start",
  vPlaced: "random queens",
  lQueen: "queen",
  lAttacked: "attacked",
  lConflict: "square that failed its check",
  lCurrent: "last placed",
  lAttacker: "the queen that attacks, and its line",
  lCompared: "the queen `Place` compares",
  lRandom: "random queen",
  lBacktracked: "queen placed by backtracking",
  lAttackedSquare: "attacked square (draw rejected, or check failed)",
  lPlaced: "queen placed",
  lWaiting: "not yet placed",
  lInConflict: "queen in a collision, or rejected square",
  lLastMove: "last move",
  lScan: "queens the O(j) scan compares",
  gDiag: "queens per diagonal (r − c)",
  gAnti: "queens per anti-diagonal (r + c)",
  gExploredT: "nodes explored (t)",
  noCurve: (max) => `no U curve here beyond n = ${max} (nqueens lab lasvegas draws it)`,
  computingCurve: "computing the U curve…",
  replayCurveTitle: (exact, trials) => `nodes explored per solution against m, ${exact ? "exact" : `${trials} runs per m`}; the replay's m marked`,

  // The step sentences.
  sStartRow: "start: an empty board; the search begins with row 1",
  sStartCell: "start: an empty board; the search begins with the first cell",
  sPlace: (r, c, n) => `row ${r}, column ${c} is free: place a queen` + (r < n ? `, go down to row ${r + 1}` : ", the last row"),
  sPlaceCell: (r, c, cnt, n) => `cell (${r}, ${c}) is free: queen ${cnt} of ${n}, go on from the next cell`,
  sRemove: (r, c) => `no column left in row ${r + 1}: back to row ${r}, the queen leaves column ${c}`,
  sRemoveSolved: (r, c) => `back from the solution: the queen of row ${r} leaves column ${c}`,
  sRemoveCell: (r, c) => `no queen fits after cell (${r}, ${c}): back, the queen leaves it`,
  sRemoveCellSolved: (r, c) => `back from the solution: the queen leaves cell (${r}, ${c})`,
  sAttacked: (r, c, ar, ac, how, next) => `row ${r}, column ${c} is attacked by the queen at row ${ar}, column ${ac} ${HOW.en[how]}: ${next}`,
  sChecked: (r, c, next) => `row ${r}, column ${c} fails its check: ${next}`,
  sTryColumn: (c) => `try column ${c}`,
  sNoColumn: (r) => `no column left in row ${r}, back to row ${r - 1}`,
  sFixedNoOther: (r) => `row ${r} is fixed, it has no other column: back to row ${r - 1}`,
  sPlaceFixed: (r, c, n) => `row ${r} is fixed: its queen, column ${c}, is not attacked` + (r < n ? `, go down to row ${r + 1}` : ", the last row"),
  fixLabel: "start from",
  fixPlaceholder: "e.g. 1:2, 5:3",
  fixTitle: "queens the search keeps, row:column (1-based), or place them on the board",
  fixEdit: "place queens on the board",
  fixHelp: "Click the squares of the board to place the queens the search keeps (a click on a queen takes it off), then Load: the row-by-row searches try only their column in their rows, the local search never moves them.",
  lPinned: "a fixed queen's square",
  sNoColumnEnd: "no column left in row 1: the search ends",
  sNoColumnLv: "no column left: back",
  sTryCell: "try the next cell",
  sNoCellLeft: "no cell left: back",
  sPrune: (r) => `row ${r} is still empty and every cell after this one is below it: prune, go back`,
  sCompareFree: (r, c, j, cj) => `\`Place(${r})\`: the queen of row ${j} (column ${cj}) does not attack row ${r}, column ${c}: compare with row ${j + 1}`,
  sCompareLast: (r, c, j, cj) => `\`Place(${r})\`: the queen of row ${j} (column ${cj}), the last one above, does not attack row ${r}, column ${c} either: no queen above attacks it`,
  sCompareAttacks: (r, c, j, cj, how) => `\`Place(${r})\`: the queen of row ${j} (column ${cj}) attacks row ${r}, column ${c} ${HOW.en[how]}: \`Place\` returns false`,
  sSolution: (n, k, first) => `all ${n} rows hold a queen: solution ${k}` + (first ? ", the first: the replay stops here" : ""),
  sLvStart: (m) => `start: ${m} random queens, then backtracking over the other rows`,
  sLvNewStart: (a) => `start ${a}: an empty board`,
  sLvDraw: (r, c, i, m) => `square (${r}, ${c}) drawn: free, random queen ${i} of ${m}`,
  sLvReject: (r, c, rowTaken, ar, ac) => `square (${r}, ${c}) drawn: ` + (rowTaken ? `row ${r} already holds a queen` : `attacked by the queen at (${ar}, ${ac})`) + ": rejected",
  sLvRandom: (r, c, free, i, m) => `row ${r}: ${free} free column${free === 1 ? "" : "s"}, column ${c} drawn at random (random queen ${i} of ${m})`,
  sLvDeadRow: (r, a) => `row ${r} has no free column: start ${a} fails`,
  sLvDeadCell: (d, p, m, a) => `${fmt(d)} draws and only ${p} of ${m} random queens: start ${a} fails`,
  sLvBacktrack: (q, e) => `${q} random queens down: backtracking over the ${e} empty rows`,
  sLvPlace: (r, c) => `row ${r}, column ${c} is free: place a queen, go on to the next empty row`,
  sLvRemove: (r, c) => `nothing fits below: back, the queen of row ${r} leaves column ${c}`,
  sLvFail: (a) => `the backtracking found no completion: start ${a} fails`,
  sLvSolved: (a, x) => `solved in start ${a}: ${fmt(x)} nodes explored in all`,
  sLsStart: "start: the identity permutation, no queen placed",
  sLsRun: "step 1: from the identity, place the queens one by one",
  sLsRestart: (k) => `collisions were left: restart ${k}, from the identity`,
  sLsCostPlaced: (scan, placed) => `1 check; the O(j) scan ${placed ? "compares" : "would compare"} ${scan}`,
  sLsCostScan: (scan) => `the O(j) scan compared ${scan} placed queen${scan === 1 ? "" : "s"}`,
  sLsPlaced: (m, c, j, cost) => `the queen of row ${m} (column ${c}) is free in row ${j}: placed (${cost})`,
  sLsRejected: (m, c, j, a, cost) => `the queen of row ${m} (column ${c}) in row ${j} is on a diagonal of the queen of row ${a}: rejected (${cost})`,
  sLsShuffle: (i, c, left) => `step 2: row ${i} gets column ${c}, drawn among the ${left} left`,
  sLsFinal: (k, x) => `step 3: k = ${k} queens may be in conflict; ${x} collisions to repair`,
  sLsSwap: (i, m, b, a) => `swap the queens of rows ${i} and ${m}: collisions ${b} → ${a}`,
  sLsNoSwap: (i, m) => `swap rows ${i} and ${m}? a collision would remain: no swap`,
  sLsSolved: "no collision left: solved",
  sCoStart: (mod) => `start: the even columns 2, 4, 6, … then the odd ones 1, 3, 5, …` +
    ({ 2: " (n mod 6 = 2: 1 and 3 swapped, 5 moved to the end)", 3: " (n mod 6 = 3: 2, then 1 and 3, moved to the end)" }[mod] || ""),
  sCoPlace: (r, c, why) => `row ${r}: column ${c}, ${why}`,
  sCoSolved: "every row placed: verified, a solution",
  // The closing sentence, after the last event's.
  closing: (s, c) => `${s}. ${c}`,
  endAll: (k, nodes, checks) => `The search is over: ${k} solution${k === 1 ? "" : "s"}, ${nodes} nodes, ${checks} checks.`,
  endFirst: (nodes, checks) => `The replay is over: it stops at the first solution, after ${nodes} nodes and ${checks} checks.`,
  endLimit: (k) => `The replay is over: it stops at its limit of ${fmt(k)} events, where the search goes on.`,
  endLv: (a, x, c) => `The run is over: ${a} start${a === 1 ? "" : "s"}, ${x} nodes explored, ${c} checks.`,
  endLs: (a, s, r) => `The run is over: a solution after ${a} attempts, ${s} swaps and ${r} restarts.`,
  endCo: (n) => `The construction is over: ${n} rows, each column computed from n, without a search or a check.`,

  // The concept panel: per search, what it does, what it costs, when to use it
  // (docs/algorithms.md, the section named).
  conceptAbout: (title) => `About this search: ${title}`,
  conceptSummary: "About this search",
  conceptWhat: "What it does",
  conceptCost: "What it costs",
  conceptWhen: "When to use it",
  conceptMore: (sec) => `More in \`docs/algorithms.md\` §${sec}, and in the Lab tab.`,
  "concept.classic.what": "Rows one by one, columns 1..n in order; a queen is kept when the function `Place` finds it attacked by none of the queens above, which it compares one by one. At a dead end, back one row.",
  "concept.classic.cost": "The same tree as the row DFS (n = 8: 2,057 calls, 15,720 calls of `Place`), but each check is a loop over the rows above: 46,752 loop iterations at n = 8, O(k) per check. The tree grows exponentially with n.",
  "concept.classic.when": "To learn backtracking as textbooks write it, and to see what the O(1) arrays of the row DFS save; for all the solutions of a small board.",
  "concept.row.what": "Rows one by one; a square is free when its column and its two diagonals are, read in O(1) from three arrays marked when a queen is placed and unmarked when it leaves. The solver's `backtrack`.",
  "concept.row.cost": "One check per square tried: checks = n·(nodes − solutions). n = 10: 35,539 nodes and 348,150 checks for its 724 solutions; exponential in n, like every exhaustive search.",
  "concept.row.when": "To find the first solution in lexicographic order, or all of them, on a board up to about n = 30; beyond, the first solution alone takes too long.",
  "concept.cell.what": "Squares in reading order, each taken or not; a queen on a free square (row, column and diagonals), then go on from the next square.",
  "concept.cell.cost": "It cannot see that an empty row above dooms the board: n = 10, 7,535,369 nodes, 99.53% of them past an empty row: 212 times the nodes of the row DFS, 41 times those of the same search with the row pruning.",
  "concept.cell.when": "As a lesson: a search modelled by squares instead of rows explores millions of sets of queens that no solution contains.",
  "concept.cellprune.what": "The cell DFS, but a node with an empty row above its square returns at once: that row can no longer get a queen.",
  "concept.cellprune.cost": "n = 10: 185,489 nodes and 1,256,703 checks, 41 times fewer nodes than the cell DFS, still five times the row DFS: pruning cuts short the work that modelling by rows never does.",
  "concept.cellprune.when": "To compare with the cell DFS and the row DFS side by side: the model of the search matters more than its pruning.",
  "concept.lasvegas.what": "Las Vegas: m queens at random (a free column of each of the first m rows, or squares drawn from the whole board), then backtracking over the empty rows; a start that fails begins again from the empty board, until one succeeds.",
  "concept.lasvegas.cost": "The cost per solution against m, the number of random queens, is a U curve (drawn under the board, and in the Lab tab): few random queens leave the backtracking its exponential tree, many make almost every start fail. n = 8, row variant: 114 nodes explored at m = 0, 28.20 at m = 2, 55.93 at m = 8.",
  "concept.lasvegas.when": "For one solution of a board too large for plain backtracking (n > 30) with m in the U curve's narrow window, about n − 10 to n − 17 for n ≤ 100.",
  "concept.localsearch.what": "Sosic–Gu: the queens start as a permutation (no two share a row or a column); step 1 places them one by one by random swaps, step 2 shuffles the rest, step 3 repairs the diagonals by swaps that remove collisions. If a collision remains, it restarts.",
  "concept.localsearch.cost": "Time and memory grow linearly with n: k stays about 20–30 whatever n (10³ to 10⁹), restarts are rare. With the O(j) scan instead of the O(1) check it is quadratic: n = 10⁴, 137,191,986 checks against 30,800.",
  "concept.localsearch.when": "For one solution of a large board: millions of queens in seconds. It cannot list the solutions or say that none exists.",
  "concept.construct.what": "A closed form (Hoffman, Loessi & Moore): the even columns 2, 4, 6, … then the odd ones 1, 3, 5, …, with a fix-up when n mod 6 is 2 or 3. Every row's column is computed, nothing is searched.",
  "concept.construct.cost": "O(n) time, one queen per row, no check: the fastest way to a solution, and always the same one for a given n.",
  "concept.construct.when": "For one solution of any n ≥ 4 at once, or to cross-check a verifier; not for a random solution nor for counting.",

  // The lab.
  labTitle: "Lab",
  variant: "variant",
  variantRow: "row (Brassard & Bratley)",
  variantCell: "cell",
  objective: "optimum by",
  objExplored: "nodes explored",
  objChecks: "checks",
  exact: "exact",
  trials: "trials",
  curveGo: "Draw the U curve",
  barsGo: "Draw the node and check bars",
  ucurveLabel: "Las Vegas cost against m",
  barsLabel: "nodes and checks of the four searches",
  computingExact: "computing the exact expectations…",
  sampling: "sampling…",
  runningSearches: "running the four searches…",
  ucurveTitle: (v, n) => `Las Vegas (${v} variant), n = ${n}: cost per solution against m random queens`,
  curveStatus: (r, o) => (o ? `optimum m = ${o.m} (least ${r.objective}): ${o.explored.toFixed(2)} nodes explored, ${fmt(o.checks)} checks per solution` : "no optimum") +
    (r.exact ? " (exact expectations)" : ` (means of ${r.trials} runs, seed ${r.seed}; hollow: lower bounds)`),
  barsTitle: (n) => `The four teaching searches, n = ${n}: nodes and checks to find every solution`,
  barsRow: (name, nodes, checks) => `${name} ${nodes} nodes, ${checks} checks`,
  barsStatus: (n, rows) => `n = ${n}: ${rows.join("; ")}`,
  "short.classic": "classic",
  "short.row": "row",
  "short.cell": "cell",
  "short.cellprune": "cellprune",
  gExplored: "nodes explored",
  gChecks: "checks",
  gNodes: "nodes",
  gOptimum: (m) => `optimum m = ${m}`,
};

const zh = {
  title: "nqueens · N 皇后问题",
  tagline: "在 n×n 的棋盘上放 n 个皇后，使任意两个皇后都不在同一行、同一列或同一条对角线上。",
  language: "语言",
  copyLink: "复制链接",
  linkLabel: "指向此刻的链接",
  linkCopied: "已复制",
  linkSelect: "已选中：按 Ctrl+C 复制",
  panels: "面板",
  tabBoard: "棋盘",
  tabReplay: "回放",
  tabLab: "实验",
  serverError: (e) => zhServerError(e),

  boardTitle: "棋盘",
  boardLabel: "棋盘",
  algorithm: "算法",
  "algo.auto": "自动",
  "algo.backtrack": "回溯（字典序第一个解）",
  "algo.localsearch": "局部搜索（Sosic–Gu）",
  "algo.construct": "构造法",
  algoName: (a) => ({ backtrack: "回溯", localsearch: "局部搜索", construct: "构造法" }[a] || a) + `（\`${a}\`）`,
  seed: "随机种子",
  random: "随机",
  solve: "求解",
  prev: "◀ 上一个",
  prevTitle: "按字典序的上一个解",
  next: "下一个 ▶",
  nextTitle: "按字典序的下一个解",
  unique: "每个对称类只取一个",
  stepNote: "◀ ▶ 从第 1 个解开始按字典序逐个查看，而不是从当前显示的布局开始。",
  symmetries: "正方形的对称变换",
  "sym.rotate90": "旋转 90°",
  "sym.rotate180": "旋转 180°",
  "sym.rotate270": "旋转 270°",
  "sym.mirror": "镜像",
  "sym.mirror+rotate90": "镜像 + 90°",
  "sym.mirror+rotate180": "镜像 + 180°",
  "sym.mirror+rotate270": "镜像 + 270°",
  "sym.canonical": "规范形式",
  canonicalTitle: "该对称类中最小的像",
  tooLarge: "棋盘太大，无法绘制",
  download: "下载布局（文本文件）",
  columns: "各行的列：",
  firstColumns: "前几行的列：",
  badN: "n 必须是不小于 1 的整数",
  enumLimit: (max) => `逐个查看解要求 n ≤ ${max}`,
  solving: "求解中…",
  searching: "搜索中…",
  solved: (r, k) => `n = ${fmt(r.n)}，${tr("algoName", r.algorithm)}${r.algorithm === "localsearch" ? `，随机种子 ${r.seed}` : ""}：用时 ${seconds(r.seconds)}` +
    (k !== undefined ? `，冲突皇后数 = ${k}` : "") + (r.verified ? " · 已验证" : ""),
  enumerated: (n, r, unique, t) => {
    const of = t ? `（共 ${fmt(unique ? t.unique : t.total)} 个）` : r.has_next ? "" : `（共 ${fmt(r.index + 1)} 个）`;
    const what = unique ? `第 ${fmt(r.index + 1)} 个对称类${of}，含 ${r.class_size} 个解` : `第 ${fmt(r.index + 1)} 个解${of}`;
    return `n = ${n}：按字典序${what} · 已验证`;
  },
  transformed: (sym, size) => `${sym === "canonical" ? "规范形式（最小的像）" : tr("sym." + sym)} · 所在对称类有 ${size} 个解 · 已验证`,
  sumAlgorithm: "算法",
  sumTime: "用时",
  sumK: "冲突皇后数（k）",
  sumRestarts: "重新开始次数",
  sumAttempts: "尝试次数",
  sumSwaps: "最后阶段的交换次数",
  sumVerified: "已验证",
  yes: "是",
  no: "否",
  units: ["微秒", "毫秒", "秒"],
  boardText: (n, placed) => n > 40 ? `${fmt(n)}×${fmt(n)} 的棋盘：${fmt(placed.length)} 个皇后，画成圆点` :
    placed.length === 0 ? `${n}×${n} 的空棋盘` : `${n}×${n} 的棋盘，${placed.length} 个皇后：` + placed.map(([r, c]) => `第 ${r} 行第 ${c} 列`).join("，"),
  emptyBoard: "空棋盘",

  replayTitle: "回放",
  search: "搜索算法",
  gBacktracking: "回溯",
  gLasVegas: "先随机放皇后，再回溯",
  gLocal: "局部搜索",
  gClosed: "构造解",
  "opt.classic": "经典回溯",
  "opt.row": "按行深度优先搜索（求解器用的回溯）",
  "opt.cell": "按格深度优先搜索",
  "opt.cellprune": "按格深度优先搜索，带行剪枝",
  "opt.lasvegas-row": "拉斯维加斯算法，按行随机",
  "opt.lasvegas-cell": "拉斯维加斯算法，按格随机",
  "opt.localsearch": "局部搜索（Sosic–Gu）",
  "opt.construct": "构造法",
  until: "直到",
  untilFirst: "第一个解",
  untilAll: "所有解",
  mTitle: "随机放置的皇后个数",
  check: "碰撞检测",
  checkPlaced: "O(1)：已放皇后的对角线位",
  checkScan: "O(j)：逐个扫描已放的皇后",
  compare: "并排对比",
  "cmp.none": "不对比",
  "cmp.localsearch-placed": "局部搜索，O(1) 检测",
  "cmp.localsearch-scan": "局部搜索，O(j) 扫描",
  load: "加载",
  back: "← 后退",
  backTitle: "后退一个事件（←）",
  forward: "前进 →",
  forwardTitle: "前进一个事件（→）",
  play: "▶ 播放",
  pause: "⏸ 暂停",
  speed: "速度",
  speedText: (v) => `每秒 ${v} 个事件`,
  scrubLabel: "回放的位置",
  scrubText: (i, n) => `第 ${fmt(i)} 个事件，共 ${fmt(n)} 个`,
  keys: "按键：← → 前后一步，空格播放或暂停，Home 和 End 跳到开头和结尾。",
  jumps: "向前跳",
  quiz: "测验：预测下一步",
  quizTitle: "在放下每个皇后（或每次交换）之前，先猜它的位置",
  quizRow: "行",
  quizColumn: "列",
  quizAnswer: "回答",
  quizShow: "直接显示",
  quizAskRow: (r) => `测验：第 ${r} 行的皇后放在哪一列？点击棋盘上的格子，或输入列号。`,
  quizAskCell: "测验：下一个皇后放在哪里？点击棋盘上的格子，或输入行号和列号。",
  quizAskSwap: (i) => `测验：第 ${i} 行的皇后处于碰撞中，它和哪个皇后交换？点击那个皇后，或输入它的行号。`,
  quizRight: (r, c) => `答对了：第 ${r} 行第 ${c} 列。`,
  quizWrong: (ar, ac, r, c) => `答错了：你选的是第 ${ar} 行第 ${ac} 列；皇后放在第 ${r} 行第 ${c} 列。`,
  quizShown: (r, c) => `皇后放在第 ${r} 行第 ${c} 列。`,
  quizRightSwap: (i, m) => `答对了：第 ${i} 行的皇后与第 ${m} 行的皇后交换。`,
  quizWrongSwap: (a, i, m) => `答错了：你选的是第 ${a} 行；第 ${i} 行的皇后与第 ${m} 行的皇后交换。`,
  quizShownSwap: (i, m) => `第 ${i} 行的皇后与第 ${m} 行的皇后交换。`,
  quizInvalid: (n) => `请输入 1 到 ${n} 之间的数。`,
  quizScore: (right, wrong) => `得分：答对 ${right} 次，答错 ${wrong} 次。`,
  jumpSolution: "下一个解 »",
  jumpSolutionTitle: "跳到下一个解",
  jumpStart: "下一次开局 »",
  jumpStartTitle: "跳到下一次从空棋盘开始的开局",
  jumpRestart: "下一次重新开始 »",
  jumpRestartTitle: "跳到下一次从恒等排列重新开始",
  jumpDeadend: "下一个死路 »",
  jumpDeadendTitle: "跳到下一个死路：回溯一步、剪掉的节点或失败的开局",
  cEvent: "事件",
  diagLabel: "每条对角线上的皇后数",
  replayCurveLabel: "U 形曲线，标出本次回放的 m",
  codeTitle: "程序：点亮的是产生最后一个事件的那一行",
  varsTitle: "变量",
  stackTitle: "调用栈（正在运行的调用在最后）",
  tracing: "正在记录搜索过程…",
  "title.classic": "经典回溯，O(k) 的 `Place`",
  "title.row": "按行深度优先搜索，O(1) 数组",
  "title.cell": "按格深度优先搜索",
  "title.cellprune": "按格深度优先搜索，带行剪枝",
  "title.lasvegas-row": "拉斯维加斯算法：先随机放皇后，再回溯（按行随机）",
  "title.lasvegas-cell": "拉斯维加斯算法：先随机放皇后，再回溯（按格随机）",
  "title.localsearch-placed": "Sosic–Gu 局部搜索，O(1) 检测",
  "title.localsearch-scan": "Sosic–Gu 局部搜索，O(j) 扫描",
  "title.construct": "构造法（Hoffman、Loessi 和 Moore）",
  traceSummary: (title, t, model) => {
    const why = t.stopped === "" ? "整个搜索" : t.stopped === "first solution" ? "停在第一个解" : "停在事件上限";
    const end = {
      backtrack: () => `${fmt(t.nodes)} 个节点，${fmt(t.checks)} 次检查`,
      lasvegas: () => `开局 ${fmt(t.starts)} 次，探索了 ${fmt(t.explored)} 个节点，${fmt(t.checks)} 次检查`,
      localsearch: () => `${fmt(t.attempts)} 次尝试，冲突皇后数 = ${fmt(t.conflicts)}，${fmt(t.swaps)} 次交换，重新开始 ${fmt(t.restarts)} 次，${fmt(t.checks)} 次检查`,
      construct: () => `放好 ${fmt(t.placed)} 行${t.verified ? "，已验证" : ""}`,
    }[model]();
    return `${title}，n = ${t.n}${t.m !== undefined ? `，m = ${t.m}` : ""}${t.seed !== undefined ? `，随机种子 ${t.seed}` : ""}：` +
      `${fmt(t.events.length)} 个事件（${why}）；结束时：${end}`;
  },
  cDepth: "深度",
  cNodes: "节点",
  cChecks: "检查",
  cSolutions: "解",
  cLoops: "`Place` 循环",
  cAttempts: "尝试",
  cStarts: "开局",
  cDraws: "抽签",
  cRandom: "随机皇后",
  cExplored: "探索的节点",
  p: "p",
  s: "s",
  e: "e",
  t: "t",
  cPlaced: "已放好（j）",
  cK: "冲突皇后数（k）",
  cCollisions: "碰撞数",
  cChecksPlaced: "检查，O(1) 检测",
  cChecksScan: "检查，O(j) 扫描",
  cOtherScan: "O(j) 扫描的检查",
  cOtherPlaced: "O(1) 检测的检查",
  cSwaps: "交换",
  cFailedSwaps: "失败的交换",
  cRestarts: "重新开始",
  cRows: "已放的行",
  vStart: "第几次开局",
  vPlaced: "随机皇后",
  lQueen: "皇后",
  lAttacked: "受攻击",
  lConflict: "检查失败的格子",
  lCurrent: "刚放下",
  lAttacker: "发起攻击的皇后及其攻击线",
  lCompared: "`Place` 正在比较的皇后",
  lRandom: "随机放的皇后",
  lBacktracked: "回溯放的皇后",
  lAttackedSquare: "受攻击的格子（抽签作废或检查失败）",
  lPlaced: "已放好的皇后",
  lWaiting: "还没放好",
  lInConflict: "处于碰撞的皇后，或作废的格子",
  lLastMove: "最近一步",
  lScan: "O(j) 扫描比较的皇后",
  gDiag: "每条主对角线（r − c）上的皇后数",
  gAnti: "每条副对角线（r + c）上的皇后数",
  gExploredT: "探索的节点（t）",
  noCurve: (max) => `n 超过 ${max} 时这里不画 U 形曲线（用 nqueens lab lasvegas 画）`,
  computingCurve: "正在计算 U 形曲线…",
  replayCurveTitle: (exact, trials) => `每个解探索的节点数随 m 的变化，${exact ? "精确值" : `每个 m 运行 ${trials} 次`}；标出本次回放的 m`,

  sStartRow: "开始：空棋盘，从第 1 行搜起",
  sStartCell: "开始：空棋盘，从第一个格子搜起",
  sPlace: (r, c, n) => `第 ${r} 行第 ${c} 列不受攻击：放一个皇后` + (r < n ? `，进入第 ${r + 1} 行` : "，这是最后一行"),
  sPlaceCell: (r, c, cnt, n) => `格子 (${r}, ${c}) 不受攻击：放下第 ${cnt} 个皇后（共 ${n} 个），从下一个格子继续`,
  sRemove: (r, c) => `第 ${r + 1} 行已无可用的列：回溯到第 ${r} 行，拿走第 ${c} 列的皇后`,
  sRemoveSolved: (r, c) => `从解返回：拿走第 ${r} 行第 ${c} 列的皇后`,
  sRemoveCell: (r, c) => `格子 (${r}, ${c}) 之后再也放不下皇后：回溯，拿走它`,
  sRemoveCellSolved: (r, c) => `从解返回：拿走格子 (${r}, ${c}) 上的皇后`,
  sAttacked: (r, c, ar, ac, how, next) => `第 ${r} 行第 ${c} 列与第 ${ar} 行第 ${ac} 列的皇后${HOW.zh[how]}，受到攻击：${next}`,
  sChecked: (r, c, next) => `第 ${r} 行第 ${c} 列检查失败：${next}`,
  sTryColumn: (c) => `试第 ${c} 列`,
  sNoColumn: (r) => `第 ${r} 行已无可用的列，回溯到第 ${r - 1} 行`,
  sFixedNoOther: (r) => `第 ${r} 行是固定的，没有别的列：回溯到第 ${r - 1} 行`,
  sPlaceFixed: (r, c, n) => `第 ${r} 行是固定的：它的皇后在第 ${c} 列，不受攻击` + (r < n ? `，进入第 ${r + 1} 行` : "，这是最后一行"),
  fixLabel: "起始棋盘",
  fixPlaceholder: "例如 1:2, 5:3",
  fixTitle: "搜索保留的皇后，行:列（从 1 数起），也可以在棋盘上放",
  fixEdit: "在棋盘上放皇后",
  fixHelp: "点击棋盘上的格子，放下搜索要保留的皇后（再点一次拿走），然后点“加载”：逐行搜索在这些行里只尝试它们的列，局部搜索从不移动它们。",
  lPinned: "固定皇后所在的格子",
  sNoColumnEnd: "第 1 行已无可用的列：搜索结束",
  sNoColumnLv: "已无可用的列：回溯",
  sTryCell: "试下一个格子",
  sNoCellLeft: "没有格子了：回溯",
  sPrune: (r) => `第 ${r} 行仍然为空，而之后的格子都在它下面：剪枝，返回`,
  sCompareFree: (r, c, j, cj) => `\`Place(${r})\`：第 ${j} 行的皇后（第 ${cj} 列）不攻击第 ${r} 行第 ${c} 列：接着与第 ${j + 1} 行比较`,
  sCompareLast: (r, c, j, cj) => `\`Place(${r})\`：第 ${j} 行的皇后（第 ${cj} 列）是上面最后一个，也不攻击第 ${r} 行第 ${c} 列：上面的皇后都不攻击它`,
  sCompareAttacks: (r, c, j, cj, how) => `\`Place(${r})\`：第 ${j} 行的皇后（第 ${cj} 列）与第 ${r} 行第 ${c} 列${HOW.zh[how]}，攻击它：\`Place\` 返回 \`false\``,
  sSolution: (n, k, first) => `${n} 行都放好了皇后：第 ${k} 个解` + (first ? "，即第一个解：回放到此为止" : ""),
  sLvStart: (m) => `开始：先随机放 ${m} 个皇后，其余各行用回溯`,
  sLvNewStart: (a) => `第 ${a} 次开局：清空棋盘`,
  sLvDraw: (r, c, i, m) => `抽到格子 (${r}, ${c})：不受攻击，放下第 ${i} 个随机皇后（共 ${m} 个）`,
  sLvReject: (r, c, rowTaken, ar, ac) => `抽到格子 (${r}, ${c})：` + (rowTaken ? `第 ${r} 行已有皇后` : `受到 (${ar}, ${ac}) 处皇后的攻击`) + "，作废",
  sLvRandom: (r, c, free, i, m) => `第 ${r} 行有 ${free} 个空闲的列，随机抽中第 ${c} 列（第 ${i} 个随机皇后，共 ${m} 个）`,
  sLvDeadRow: (r, a) => `第 ${r} 行没有空闲的列：第 ${a} 次开局失败`,
  sLvDeadCell: (d, p, m, a) => `抽了 ${fmt(d)} 次，只放下 ${p} 个随机皇后（需要 ${m} 个）：第 ${a} 次开局失败`,
  sLvBacktrack: (q, e) => `已随机放好 ${q} 个皇后：对其余 ${e} 个空行回溯`,
  sLvPlace: (r, c) => `第 ${r} 行第 ${c} 列不受攻击：放一个皇后，继续下一个空行`,
  sLvRemove: (r, c) => `下面的行都放不下：回溯，拿走第 ${r} 行第 ${c} 列的皇后`,
  sLvFail: (a) => `回溯找不到补全的办法：第 ${a} 次开局失败`,
  sLvSolved: (a, x) => `第 ${a} 次开局成功：总共探索了 ${fmt(x)} 个节点`,
  sLsStart: "开始：恒等排列，还没有放好的皇后",
  sLsRun: "第一步：从恒等排列出发，逐个放置皇后",
  sLsRestart: (k) => `仍有碰撞：第 ${k} 次重新开始，回到恒等排列`,
  sLsCostPlaced: (scan, placed) => `检查 1 次；O(j) 扫描${placed ? "要" : "则要"}比较 ${scan} 个`,
  sLsCostScan: (scan) => `O(j) 扫描比较了 ${scan} 个已放的皇后`,
  sLsPlaced: (m, c, j, cost) => `第 ${m} 行的皇后（第 ${c} 列）放在第 ${j} 行不与已放的皇后碰撞：放好（${cost}）`,
  sLsRejected: (m, c, j, a, cost) => `第 ${m} 行的皇后（第 ${c} 列）放在第 ${j} 行会与第 ${a} 行的皇后在同一条对角线上：放弃（${cost}）`,
  sLsShuffle: (i, c, left) => `第二步：第 ${i} 行从剩下的 ${left} 列中随机得到第 ${c} 列`,
  sLsFinal: (k, x) => `第三步：有 k = ${k} 个皇后可能冲突；要修复的碰撞数为 ${x}`,
  sLsSwap: (i, m, b, a) => `交换第 ${i} 行和第 ${m} 行的皇后：碰撞数 ${b} → ${a}`,
  sLsNoSwap: (i, m) => `交换第 ${i} 行和第 ${m} 行？交换后仍会有碰撞：不交换`,
  sLsSolved: "没有碰撞了：求解完成",
  sCoStart: (mod) => `开始：先放偶数列 2, 4, 6, …，再放奇数列 1, 3, 5, …` +
    ({ 2: "（n mod 6 = 2：1 和 3 对调，5 移到最后）", 3: "（n mod 6 = 3：2 移到偶数列最后，1 和 3 移到最后）" }[mod] || ""),
  sCoPlace: (r, c, why) => `第 ${r} 行：第 ${c} 列，${why}`,
  sCoSolved: "每一行都放好了：已验证，这是一个解",
  closing: (s, c) => `${s}。${c}`,
  endAll: (k, nodes, checks) => `搜索结束：共 ${k} 个解，${nodes} 个节点，${checks} 次检查。`,
  endFirst: (nodes, checks) => `回放结束：停在第一个解，用了 ${nodes} 个节点和 ${checks} 次检查。`,
  endLimit: (k) => `回放结束：到了 ${fmt(k)} 个事件的上限，而搜索还没有结束。`,
  endLv: (a, x, c) => `运行结束：开局 ${a} 次，探索了 ${x} 个节点，检查 ${c} 次。`,
  endLs: (a, s, r) => `运行结束：尝试 ${a} 次、交换 ${s} 次、重新开始 ${r} 次后找到解。`,
  endCo: (n) => `构造结束：${n} 行，每行的列都由 n 直接算出，不用搜索，也不用检查。`,

  conceptAbout: (title) => `关于这个搜索：${title}`,
  conceptSummary: "关于这个搜索",
  conceptWhat: "它做什么",
  conceptCost: "它的代价",
  conceptWhen: "什么时候用它",
  conceptMore: (sec) => `详见 \`docs/algorithms.md\` 第 ${sec} 节，以及“实验”面板。`,
  "concept.classic.what": "逐行放皇后，每行按第 1..n 列的顺序试；函数 `Place` 把新皇后与上面各行的皇后逐个比较，都不攻击才保留。走进死路就退回上一行。",
  "concept.classic.cost": "搜索树与按行深度优先搜索相同（n = 8：2,057 次调用，15,720 次调用 `Place`），但每次检查都要循环比较上面的行：n = 8 时循环 46,752 次，每次检查 O(k)。搜索树随 n 指数增长。",
  "concept.classic.when": "学习教科书里的回溯写法，看清按行搜索的 O(1) 数组省下了什么；求小棋盘的全部解。",
  "concept.row.what": "逐行放皇后；一个格子的列和两条对角线都空着才算不受攻击，用三个数组 O(1) 判断：放下皇后时标记，拿走时清除。这就是求解器的 `backtrack`。",
  "concept.row.cost": "每试一个格子检查一次：检查次数 = n·(节点数 − 解数)。n = 10：724 个解用了 35,539 个节点、348,150 次检查；和所有穷举搜索一样，随 n 指数增长。",
  "concept.row.when": "求字典序第一个解或全部解，棋盘大约到 n = 30；再大，连第一个解都太慢。",
  "concept.cell.what": "按阅读顺序逐个格子决定放或不放；格子不受攻击（行、列、对角线）就放一个皇后，再从下一个格子继续。",
  "concept.cell.cost": "它看不出上面有空行的棋盘已经没救了：n = 10 时 7,535,369 个节点，其中 99.53% 的上方有空行：是按行搜索的 212 倍，带行剪枝的同一搜索的 41 倍。",
  "concept.cell.when": "作为教训：按格而不是按行建模的搜索，会探索上百万个任何解都不包含的皇后组合。",
  "concept.cellprune.what": "按格深度优先搜索，但若当前格子上方还有空行，就立即返回：那一行再也放不上皇后了。",
  "concept.cellprune.cost": "n = 10：185,489 个节点、1,256,703 次检查，节点只有按格搜索的 1/41，却仍是按行搜索的 5 倍：剪枝只是把按行建模根本不做的工作提前截断。",
  "concept.cellprune.when": "与按格搜索、按行搜索并排对比：搜索怎样建模，比怎样剪枝更重要。",
  "concept.lasvegas.what": "拉斯维加斯算法：先随机放 m 个皇后（前 m 行各取一个空闲的列，或在整个棋盘上抽格子），再对空行回溯；一次开局失败，就从空棋盘再开一局，直到成功。",
  "concept.lasvegas.cost": "每个解的代价随随机皇后数 m 的变化是一条 U 形曲线（画在棋盘下方，也在“实验”面板里）：随机皇后太少，回溯仍是指数大小的树；太多，几乎每次开局都失败。n = 8，按行随机：m = 0 时探索 114 个节点，m = 2 时 28.20 个，m = 8 时 55.93 个。",
  "concept.lasvegas.when": "棋盘大到普通回溯做不动（n > 30）时求一个解，m 取在 U 形曲线狭窄的谷底：n ≤ 100 时大约是 n − 10 到 n − 17。",
  "concept.localsearch.what": "Sosic–Gu 局部搜索：皇后从一个排列出发（任意两个不同行也不同列）；第一步用随机交换逐个放好皇后，第二步把剩下的随机打乱，第三步用能消除碰撞的交换修复对角线。若仍有碰撞，就重新开始。",
  "concept.localsearch.cost": "时间和内存随 n 线性增长：无论 n 多大（10³ 到 10⁹），k 都在 20–30 左右，很少重新开始。若用 O(j) 扫描代替 O(1) 检测，就变成平方级：n = 10⁴ 时检查 137,191,986 次，而不是 30,800 次。",
  "concept.localsearch.when": "求大棋盘的一个解：几秒钟放好上百万个皇后。它不能列出所有解，也不能证明无解。",
  "concept.construct.what": "构造解（Hoffman、Loessi 和 Moore）：先放偶数列 2, 4, 6, …，再放奇数列 1, 3, 5, …；n 除以 6 余 2 或 3 时做一点调整。每行的列都是算出来的，不用搜索。",
  "concept.construct.cost": "O(n) 时间，每行一个皇后，不做任何检查：得到一个解的最快办法，而且同一个 n 总是同一个解。",
  "concept.construct.when": "要立刻得到任意 n ≥ 4 的一个解，或用来交叉检验验证程序；不能给出随机的解，也不能计数。",

  labTitle: "实验",
  variant: "随机方式",
  variantRow: "按行（Brassard 和 Bratley）",
  variantCell: "按格",
  objective: "最优的标准",
  objExplored: "探索的节点",
  objChecks: "检查次数",
  exact: "精确计算",
  trials: "每个 m 的运行次数",
  curveGo: "画 U 形曲线",
  barsGo: "画节点与检查的柱状图",
  ucurveLabel: "拉斯维加斯算法的代价随 m 的变化",
  barsLabel: "四种搜索的节点数和检查次数",
  computingExact: "正在精确计算期望值…",
  sampling: "正在抽样…",
  runningSearches: "正在运行四种搜索…",
  ucurveTitle: (v, n) => `拉斯维加斯算法（${v === "row" ? "按行" : "按格"}随机），n = ${n}：每个解的代价随随机皇后数 m 的变化`,
  curveStatus: (r, o) => (o ? `最优 m = ${o.m}（${r.objective === "checks" ? "检查次数" : r.objective === "time" ? "时间" : "探索的节点"}最少）：每个解探索 ${o.explored.toFixed(2)} 个节点，检查 ${fmt(o.checks)} 次` : "没有最优值") +
    (r.exact ? "（精确期望值）" : `（${r.trials} 次运行的平均值，随机种子 ${r.seed}；空心点为下界）`),
  barsTitle: (n) => `四种教学用搜索，n = ${n}：找出所有解所需的节点数和检查次数`,
  barsRow: (name, nodes, checks) => `${name} ${nodes} 个节点，${checks} 次检查`,
  barsStatus: (n, rows) => `n = ${n}：${rows.join("；")}`,
  "short.classic": "经典回溯",
  "short.row": "按行",
  "short.cell": "按格",
  "short.cellprune": "按格剪枝",
  gExplored: "探索的节点",
  gChecks: "检查",
  gNodes: "节点",
  gOptimum: (m) => `最优 m = ${m}`,
};

const STR = { en, zh };

// tr returns the string of key in the page's language, a function of it applied to args.
function tr(key, ...args) {
  let v = STR[lang][key];
  if (v === undefined) {
    console.error(`i18n: no string "${key}" in ${lang}`);
    v = STR.en[key] ?? key;
  }
  return typeof v === "function" ? v(...args) : v;
}

// The elements whose text is a function of the language.
const texts = new Set();

// setText sets an element's text: a string, or a function of the language, written
// again when the language changes.
function setText(el, text) {
  write(el, typeof text === "function" ? text() : text);
  if (typeof text === "function") {
    el.i18n = text;
    texts.add(el);
  } else {
    el.i18n = null;
    texts.delete(el);
  }
}

// write sets an element's text, the parts of it between backticks in <code> elements: a
// name of the program (`Place`, `pos`) is code, in no language.
function write(el, s) {
  s = String(s);
  if (!s.includes("`")) {
    el.textContent = s;
    return;
  }
  el.replaceChildren(...s.split("`").map((part, i) => {
    if (i % 2 === 0) return part;
    const c = document.createElement("code");
    c.textContent = part;
    return c;
  }));
}

// codeNames marks the names of a program in a Chinese text as code: every word in Latin
// letters, with its arguments (attacked(r, c)), between backticks; not the names of people.
const PEOPLE = new Set(["Hoffman", "Loessi", "Moore", "Brassard", "Bratley", "Sosic", "Gu"]);
const codeNames = (s) => s.replace(/[A-Za-z_][A-Za-z0-9_]*(?:\([^()]*\))?/g, (w) => (PEOPLE.has(w) ? w : "`" + w + "`"));

// The server's errors in Chinese, by their kind: the message's pattern, with its numbers.
// The server says them in English (the API's language); one it does not know is shown as
// the server wrote it, as code, after a sentence that says what it is.
const ZH_ERRORS = [
  [/^n = (\S+): no solution exists$/, (n) => `n = ${n}：无解（n = 2 和 n = 3 时没有解）`],
  [/^the fixed queens attack each other: no solution exists$/, () => "固定的皇后互相攻击：无解"],
  [/^the local search found no completion of the fixed queens in its runs \((\d+) runs\)$/, (k) => `局部搜索跑了 ${k} 轮，没有找到保留这些固定皇后的解（解可能存在，也可能不存在）`],
  [/^n = (\S+) is more than this server allows for \S+ \(at most (\d+)\)$/, (n, max) => `n = ${n} 超出了本服务器的上限（最多 ${max}）`],
  [/^n must be at least 1$/, () => "n 至少为 1"],
  [/^n = "(.*)" is not a whole number/, (n) => `n = ${n} 不是整数（例如 8 或 1e6）`],
  [/^m = (\d+) random queens do not fit on (\d+) rows$/, (m, n) => `m = ${m} 个随机皇后放不进 ${n} 行`],
  [/^parameter m, the number of random queens, is missing$/, () => "缺少参数 m（随机皇后的个数）"],
  [/^n = (\d+) has (\d+) .* \(indexes 0\.\.(\d+)\): index (\d+) is past the last$/, (n, k, last, i) => `n = ${n} 只有 ${k} 个（序号 0..${last}）：序号 ${i} 超出了范围`],
  [/^(\w+) = (\S+) is not in (\d+)\.\.(\d+)$/, (name, v, lo, hi) => `\`${name}\` = ${v} 不在 ${lo}..${hi} 之内`],
  [/^busy: /, () => "服务器正忙，请稍后再试"],
  [/^the computation took longer than (\S+) and was stopped$/, (d) => `计算超过了时间上限（\`${d}\`），已停止`],
];

function zhServerError(e) {
  for (const [re, say] of ZH_ERRORS) {
    const m = re.exec(e.message);
    if (m) return say(...m.slice(1));
  }
  if (e.status === 503) return "服务器正忙，请稍后再试";
  return `服务器报错${e.status ? `（状态码 ${e.status}）` : ""}：\`${e.message.replaceAll("`", "'")}\``;
}

// The elements whose aria-label is a function of the language.
const labels = new Set();

// setLabel sets an element's aria-label to a function of the language, written again when
// it changes.
function setLabel(el, label) {
  el.i18nLabel = label;
  el.setAttribute("aria-label", label());
  labels.add(el);
}

// seconds writes a time with its unit, in the page's language.
function seconds(s) {
  const [us, ms, sec] = tr("units");
  return s < 1e-3 ? `${(s * 1e6).toFixed(0)} ${us}` : s < 1 ? `${(s * 1e3).toFixed(1)} ${ms}` : `${s.toFixed(2)} ${sec}`;
}

// setLang switches the page to a language: the elements of index.html, every text set
// with setText, the canvases and the replay.
function setLang(l) {
  lang = l;
  document.documentElement.lang = l === "zh" ? "zh-CN" : "en";
  document.title = tr("title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = tr(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", tr(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = tr(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = tr(el.dataset.i18nPlaceholder);
  for (const el of document.querySelectorAll("[data-i18n-group]")) el.label = tr(el.dataset.i18nGroup);
  for (const el of texts) {
    if (!el.isConnected) texts.delete(el);
    else write(el, el.i18n());
  }
  for (const el of labels) {
    if (!el.isConnected) labels.delete(el);
    else el.setAttribute("aria-label", el.i18nLabel());
  }
  if ($("lang").value !== l) $("lang").value = l;
  if (typeof renderReplay === "function" && rp.lanes.length) renderReplay();
  if (typeof repaint === "function") repaint(true);
}
