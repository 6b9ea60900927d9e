// The replay panel: every search the command runs, event by event, from /api/trace: the
// four teaching searches, the Las Vegas hybrid, Sosic–Gu's local search and the
// construction. Each kind of search is a model that builds its state from the events
// alone (so that stepping back is replaying from the start), names its counters, says
// each step in a sentence, lists the live variables and draws its board. Beside the
// board the search's program, from the server, with the line of the last event lit: the
// line comes with the event, from the engine. Two searches can run side by side on the
// same n, stepping together (two lanes). Loaded after i18n.js and before app.js, whose
// helpers it uses once the page has started.
"use strict";

// The choices of the search menu: the API's parameters and the model that replays them.
// concept names its explanation in the concept panel (i18n.js "concept.…"), section its
// section of docs/algorithms.md, as the API's answer names it.
const SEARCHES = {
  classic: { q: { search: "classic" }, model: "backtrack", concept: "classic", section: "3.1", fix: true },
  row: { q: { search: "row" }, model: "backtrack", concept: "row", section: "3.2", fix: true },
  cell: { q: { search: "cell" }, model: "backtrack", concept: "cell", section: "3.3" },
  cellprune: { q: { search: "cellprune" }, model: "backtrack", concept: "cellprune", section: "3.4" },
  "lasvegas-row": { q: { search: "lasvegas", variant: "row" }, model: "lasvegas", concept: "lasvegas", section: "3.5" },
  "lasvegas-cell": { q: { search: "lasvegas", variant: "cell" }, model: "lasvegas", concept: "lasvegas", section: "3.5" },
  localsearch: { q: { search: "localsearch" }, model: "localsearch", concept: "localsearch", section: "3.6", fix: true },
  construct: { q: { search: "construct" }, model: "construct", concept: "construct", section: "3.7" },
};

// The choices of the comparison menu: a search of SEARCHES, the local search with its check.
const COMPARE = {
  classic: { search: "classic" }, row: { search: "row" }, cell: { search: "cell" }, cellprune: { search: "cellprune" },
  "lasvegas-row": { search: "lasvegas-row" }, "lasvegas-cell": { search: "lasvegas-cell" },
  "localsearch-placed": { search: "localsearch", check: "placed" }, "localsearch-scan": { search: "localsearch", check: "scan" },
  construct: { search: "construct" },
};

// The parameters each model's search takes from the form: a search is sent its own and
// no other (a seed left in the form is not sent to the construction).
const TAKES = { backtrack: ["until"], lasvegas: ["m", "seed"], localsearch: ["check", "seed"], construct: [] };

// takesOf is what the search of a choice takes: its model's parameters, and the queens it
// starts from (fix, a custom start) for the row-by-row searches.
const takesOf = (choice) => (choice.fix ? [...TAKES[choice.model], "fix"] : TAKES[choice.model]);

// squares says whether a board of n is drawn square by square; beyond, as a scatter of
// queens on a plain ground.
const squares = (n) => n <= limits.max_drawn_n;

// cellText writes a square: "(3, 5)".
const sq = (r, c) => `(${r}, ${c})`;

// attacker finds the queen that makes a check of (r, c) fail (0-based rows and columns,
// cols the column of each row, −1 for none), in the order the search's check looks:
// "classic" compares with the rows above in order (Place); "arrays" tests the column,
// then the diagonals (the row DFS, the Las Vegas hybrid); "cell" tests the row first.
// It returns {r, c, how} with how "row", "col" or "diag", or null.
function attacker(cols, n, r, c, order) {
  if (order === "classic") {
    for (let j = 0; j < r; j++) {
      if (cols[j] === c) return { r: j, c: cols[j], how: "col" };
      if (cols[j] >= 0 && Math.abs(cols[j] - c) === r - j) return { r: j, c: cols[j], how: "diag" };
    }
    return null;
  }
  if (order === "cell" && cols[r] >= 0) return { r, c: cols[r], how: "row" };
  for (let q = 0; q < n; q++) if (q !== r && cols[q] === c) return { r: q, c, how: "col" };
  for (let q = 0; q < n; q++) if (q !== r && cols[q] >= 0 && q - cols[q] === r - c) return { r: q, c: cols[q], how: "diag" };
  for (let q = 0; q < n; q++) if (q !== r && cols[q] >= 0 && q + cols[q] === r + c) return { r: q, c: cols[q], how: "diag" };
  return null;
}

// xs writes the columns of the first rows, · for an empty one: "(2, 4, 1, ·, ·)".
function xs(cols, n) {
  const k = Math.min(n, 12);
  const v = [];
  for (let r = 0; r < k; r++) v.push(cols[r] >= 0 ? String(cols[r] + 1) : "·");
  return `(${v.join(", ")}${n > k ? ", …" : ""})`;
}

// programShape reads a trace's program for its call stack: its functions in order (the
// search first, a helper it calls after: classic's Place), each with its name, its loop's
// variable and what a frame of it binds: an array's entry set to the loop's variable
// (classic's x[t] = i), the square the loop's variable stands for (the cell searches'
// x and y), or else the loop's variable itself (the row DFS's j).
function programShape(t) {
  if (t.shape) return t.shape;
  const fns = [];
  for (const l of t.code.lines) {
    const code = l.code.trim();
    let m = /^([A-Za-z_]\w*)\(([^()]*)\):$/.exec(code);
    if (m) {
      fns.push({ name: m[1], params: m[2].split(",").map((x) => x.trim()).filter(Boolean), loop: "", array: "", coords: null });
      continue;
    }
    const f = fns[fns.length - 1];
    if (!f) continue;
    if (!f.loop && (m = /^for (\w+) = /.exec(code))) f.loop = m[1];
    else if (f.loop && (m = /^(\w+)\[\w+\] = (\w+)$/.exec(code)) && m[2] === f.loop) f.array = m[1];
    else if (f.loop && (m = /^(\w+) = [^;]*; (\w+) = /.exec(code))) f.coords = [m[1], m[2]];
  }
  t.shape = fns;
  return fns;
}

// bindText writes what a frame of f binds for the square (r, c), 1-based: "x[3] = 5",
// "x = 3, y = 5" or "j = 5".
function bindText(f, r, c) {
  if (f.array) return `${f.array}[${r}] = ${c}`;
  if (f.coords) return `${f.coords[0]} = ${r}, ${f.coords[1]} = ${c}`;
  return `${f.loop} = ${c}`;
}

// ---------------------------------------------------------------- the teaching searches

const backtrackModel = {
  // Classic's Place compares the queen with each queen above: its loop has a counter.
  counters: (t) => [["depth", "cDepth"], ["nodes", "cNodes"], ["checks", "cChecks"],
    ...(t.search === "classic" ? [["loops", "cLoops"]] : []), ["solutions", "cSolutions"]],
  init: (t) => ({ cols: new Array(t.n).fill(-1), depth: 0, places: 0, conflicts: 0, solutions: 0, pos: 0, cnt: 0, loops: 0 }),
  apply(st, e, t) {
    const [k, r, c] = e;
    switch (k) {
      case 0: // place
        st.cols[r - 1] = c - 1;
        st.depth++;
        st.places++;
        st.pos = (r - 1) * t.n + c; // the next cell of the cell searches
        break;
      case 1: // remove
        st.cols[r - 1] = -1;
        st.depth--;
        st.pos = (r - 1) * t.n + c;
        break;
      case 2: // conflict
        st.conflicts++;
        break;
      case 3: // solution
        st.solutions++;
        break;
      case 5: // compare: an iteration of classic's Place loop
        st.loops++;
        break;
    }
  },
  order: (t) => (t.search === "classic" ? "classic" : t.search === "row" ? "arrays" : "cell"),
  cellSearch: (t) => t.search === "cell" || t.search === "cellprune",
  describe(st, e, t) {
    const n = t.n;
    if (!e) return tr(this.cellSearch(t) ? "sStartCell" : "sStartRow");
    const [k, r, c] = e;
    const cell = this.cellSearch(t);
    const fixed = fixedColumn(t, r); // the column of row r's fixed queen, 0 if none
    switch (k) {
      case 0:
        if (fixed) return tr("sPlaceFixed", r, c, n);
        return cell ? tr("sPlaceCell", r, c, st.depth, n) : tr("sPlace", r, c, n);
      case 1:
        // A queen removed from a full board: back from a solution, not a dead end.
        if (cell) return st.depth + 1 === n ? tr("sRemoveCellSolved", r, c) : tr("sRemoveCell", r, c);
        return r === n ? tr("sRemoveSolved", r, c) : tr("sRemove", r, c);
      case 2: {
        const a = attacker(st.cols, n, r - 1, c - 1, this.order(t));
        const next = cell ? (r === n && c === n ? tr("sNoCellLeft") : tr("sTryCell")) :
          fixed ? (r > 1 ? tr("sFixedNoOther", r) : tr("sNoColumnEnd")) : c < n ? tr("sTryColumn", c + 1) : r > 1 ? tr("sNoColumn", r) : tr("sNoColumnEnd");
        return a ? tr("sAttacked", r, c, a.r + 1, a.c + 1, a.how, next) : tr("sChecked", r, c, next);
      }
      case 4:
        return tr("sPrune", r);
      case 5: {
        // [kind, row, column, j, column of row j, attacks, line]: Place(r) compares the
        // queen tried on (r, c) with the queen of row j.
        const [, , , j, cj, attacks] = e;
        if (attacks) return tr("sCompareAttacks", r, c, j, cj, cj === c ? "col" : "diag");
        return j + 1 < r ? tr("sCompareFree", r, c, j, cj) : tr("sCompareLast", r, c, j, cj);
      }
    }
    return tr("sSolution", n, st.solutions, t.until === "first");
  },
  // closing says how the search ended, after its last event.
  closing(st, t) {
    const nodes = fmt(1 + st.places), checks = fmt(st.places + st.conflicts);
    if (t.stopped === "first solution") return tr("endFirst", nodes, checks);
    if (t.stopped !== "") return tr("endLimit", t.events.length);
    return tr("endAll", st.solutions, nodes, checks);
  },
  vars(st, e, t) {
    const cell = this.cellSearch(t);
    const v = [];
    const [k, r, c] = e || [-1, 0, 0];
    if (t.search === "classic") {
      v.push(["t", k === 3 ? String(t.n + 1) : e && k !== 4 ? String(r) : "1"]);
      if (e && (k <= 2 || k === 5)) v.push(["i", String(c)]);
      if (k === 2) {
        const a = attacker(st.cols, t.n, r - 1, c - 1, "classic");
        if (a) v.push(["j", String(a.r + 1)]);
      }
      if (k === 5) v.push(["j", String(e[3])]); // Place(k) with k = t, comparing row j
      // x[t] = i holds the column tried, placed or not (line 4).
      const x = Array.from(st.cols);
      if (k === 2 || k === 5) x[r - 1] = c - 1;
      v.push(["x", xs(x, t.n)]);
    } else if (t.search === "row") {
      v.push(["u", k === 3 ? String(t.n + 1) : e && k !== 4 ? String(r) : "1"]);
      if (e && k <= 2) v.push(["j", String(c)]);
    } else if (cell) {
      v.push(["cnt", String(st.depth)]);
      if (e && k <= 2) v.push(["k", String((r - 1) * t.n + (c - 1))], ["(x, y)", sq(r, c)]);
      else v.push(["pos", String(st.pos)]);
    }
    v.push([tr("cChecks"), fmt(st.places + st.conflicts), true]);
    return v;
  },
  values: (st) => ({ depth: String(st.depth), nodes: fmt(1 + st.places), checks: fmt(st.places + st.conflicts), solutions: fmt(st.solutions),
    loops: fmt(st.loops) }),
  // stack lists the active calls, the first call first: [call, what it binds]. A queen
  // placed is a call that called the next (place pushes a call, remove pops it), the
  // row searches' call t on row t, the cell searches' with the cell after the last queen
  // and the queens so far; the last call binds the square of the event when the event is
  // its own (a square tried, a queen taken off: classic's x[t] = 0). While classic's Place
  // compares, or returns false, its call is on top, with its j.
  stack(st, e, t) {
    const [main, helper] = programShape(t), n = t.n, cell = this.cellSearch(t), k = e ? e[0] : -1;
    const call = (args) => `${main.name}(${args.join(", ")})`;
    const frames = [];
    let pos = 0, cnt = 0;
    for (let r = 0; r < n; r++) {
      if (st.cols[r] < 0) continue;
      frames.push([cell ? call([pos, cnt]) : call([cnt + 1]), bindText(main, r + 1, st.cols[r] + 1)]);
      pos = r * n + st.cols[r] + 1;
      cnt++;
    }
    const top = [cell ? call([pos, cnt]) : call([cnt + 1]), ""];
    if (k === 1 || k === 2 || k === 5) top[1] = bindText(main, e[1], k === 1 && main.array ? 0 : e[2]);
    frames.push(top);
    if (helper && (k === 2 || k === 5)) {
      const a = k === 2 ? attacker(st.cols, n, e[1] - 1, e[2] - 1, "classic") : null;
      const j = k === 5 ? e[3] : a ? a.r + 1 : 0;
      frames.push([`${helper.name}(${e[1]})`, j && helper.loop ? `${helper.loop} = ${j}` : ""]);
    }
    return frames;
  },
  draw(lane, st, e, t) {
    const place = e && (e[0] <= 2 || e[0] === 5) ? [e[1] - 1, e[2] - 1] : null;
    const a = e && e[0] === 2 ? attacker(st.cols, t.n, e[1] - 1, e[2] - 1, this.order(t)) : null;
    // A compare rings the queen of row j: in red with its line when it attacks.
    const cmp = e && e[0] === 5 ? [e[3] - 1, e[4] - 1] : null, hit = cmp && e[5] === 1;
    drawBoard(lane.el("replay-board"), t.n, st.cols, {
      attacked: !cmp,
      attacker: a ? [a.r, a.c] : hit ? cmp : null,
      conflict: (e && e[0] === 2) || hit ? place : null,
      current: (e && e[0] === 0) || (cmp && !hit) ? place : null,
      compared: cmp && !hit ? cmp : null,
      pinned: (t.fix || []).map(([r, c]) => [r - 1, c - 1]),
      badRow: e && e[0] === 4 ? e[1] - 1 : -1,
      solved: e && e[0] === 3,
    });
    lane.boardText(st.cols);
  },
  legend: (t) => [["queen", "lQueen"], ["attacked", "lAttacked"], ["conflict", "lConflict"], ["attacker", "lAttacker"], ["current", "lCurrent"],
    ...(t && t.search === "classic" ? [["compared", "lCompared"]] : []), ...(t && t.fix ? [["pinned", "lPinned"]] : [])],
};

// ---------------------------------------------------------------- Las Vegas

const lasVegasModel = {
  counters: (t) => [["starts", "cStarts"], ...(t.variant === "cell" ? [["draws", "cDraws"]] : []), ["random", "cRandom"],
    ["nodes", "cNodes"], ["checks", "cChecks"], ["explored", "cExplored"], ["p", "p"], ["s", "s"], ["e", "e"], ["t", "t"]],
  init: (t) => ({ board: new Int32Array(t.n).fill(-1), random: new Uint8Array(t.n), starts: 0, draws: 0, randomQ: 0, nodes: 0,
    checks: 0, explored: 0, startExplored: 0, failed: 0, exploredFailed: 0, solutions: 0, s: 0, dead: -1, free: 0, startDraws: 0,
    reject: null }),
  apply(st, e, t) {
    const kind = t.kinds[e[0]], n = t.n;
    const r = e[1] - 1, c = e[2] - 1;
    st.dead = -1;
    switch (kind) {
      case "start": // a start from the empty board
        st.bt = false;
        st.board.fill(-1);
        st.random.fill(0);
        st.starts++;
        st.explored++;
        st.startExplored = 1;
        st.randomQ = 0;
        st.startDraws = 0;
        break;
      case "draw":
      case "reject":
      case "random":
        if (kind === "random") {
          st.checks += n;
          st.free = 0;
          for (let k = 0; k < n; k++) if (!attacker(st.board, n, r, k, "arrays")) st.free++;
        } else {
          st.draws++;
          st.startDraws++;
          st.checks++;
        }
        if (kind === "reject") st.reject = attacker(st.board, n, r, c, "cell");
        if (kind !== "reject") {
          st.board[r] = c;
          st.random[r] = 1;
          st.randomQ++;
          st.explored++;
          st.startExplored++;
        }
        break;
      case "deadend":
        if (e[1] > 0) st.checks += n;
        st.dead = r;
        st.failed++;
        st.exploredFailed += st.startExplored;
        break;
      case "backtrack":
        st.nodes++;
        st.bt = true;
        break;
      case "place":
        st.board[r] = c;
        st.nodes++;
        st.checks++;
        st.explored++;
        st.startExplored++;
        break;
      case "remove":
        st.board[r] = -1;
        break;
      case "conflict":
        st.checks++;
        break;
      case "fail":
        st.bt = false;
        st.failed++;
        st.exploredFailed += st.startExplored;
        break;
      case "solution":
        st.bt = false;
        st.solutions++;
        st.s = st.startExplored;
        break;
    }
  },
  describe(st, e, t) {
    if (!e) return tr("sLvStart", t.m);
    const [, r, c] = e;
    switch (t.kinds[e[0]]) {
      case "start": return tr("sLvNewStart", st.starts);
      case "draw": return tr("sLvDraw", r, c, st.randomQ, t.m);
      case "reject": {
        const a = st.reject;
        return tr("sLvReject", r, c, a && a.how === "row", a ? a.r + 1 : 0, a ? a.c + 1 : 0);
      }
      case "random": return tr("sLvRandom", r, c, st.free, st.randomQ, t.m);
      case "deadend": return r >= 1 ? tr("sLvDeadRow", r, st.starts) : tr("sLvDeadCell", st.startDraws, st.randomQ, t.m, st.starts);
      case "backtrack": return tr("sLvBacktrack", st.randomQ, t.n - st.randomQ);
      case "place": return tr("sLvPlace", r, c);
      case "remove": return tr("sLvRemove", r, c);
      case "conflict": {
        const a = attacker(st.board, t.n, r - 1, c - 1, "arrays");
        const next = c < t.n ? tr("sTryColumn", c + 1) : tr("sNoColumnLv");
        return a ? tr("sAttacked", r, c, a.r + 1, a.c + 1, a.how, next) : tr("sChecked", r, c, next);
      }
      case "fail": return tr("sLvFail", st.starts);
    }
    return tr("sLvSolved", st.starts, st.explored);
  },
  closing: (st, t) => (t.stopped !== "" ? tr("endLimit", t.events.length) : tr("endLv", st.starts, fmt(st.explored), fmt(st.checks))),
  // stack lists the active calls: the hybrid's own, and while it backtracks over the
  // empty rows a call of Backtrack(i) per queen it placed (in the order of the rows, as
  // it fills them) and the running one, which binds the column tried (c) or the queen
  // taken off (x[r] = 0).
  stack(st, e, t) {
    const [main, bt] = programShape(t);
    const frames = [[`${main.name}(${main.params.map((p) => (p === "n" ? t.n : p === "m" ? t.m : p)).join(", ")})`, ""]];
    if (!st.bt || !bt) return frames;
    let i = 1;
    for (let r = 0; r < t.n; r++) {
      if (st.board[r] < 0 || st.random[r]) continue;
      frames.push([`${bt.name}(${i})`, bindText(bt, r + 1, st.board[r] + 1)]);
      i++;
    }
    const kind = e ? t.kinds[e[0]] : "";
    const bind = kind === "conflict" ? `${bt.loop} = ${e[2]}` : kind === "remove" ? bindText(bt, e[1], 0) : "";
    frames.push([`${bt.name}(${i})`, bind]);
    return frames;
  },
  vars(st, e, t) {
    const v = [[tr("vStart"), String(st.starts), true]];
    if (e && e.length >= 4) v.push(["(r, c)", sq(e[1], e[2])]);
    v.push([tr("vPlaced"), `${st.randomQ} / ${t.m}`, true]);
    if (t.variant === "cell") v.push(["d", String(st.startDraws)]);
    v.push([tr("cChecks"), fmt(st.checks), true]);
    return v;
  },
  values(st) {
    const dash = "–";
    return {
      starts: fmt(st.starts), draws: fmt(st.draws), random: fmt(st.randomQ), nodes: fmt(st.nodes), checks: fmt(st.checks),
      explored: fmt(st.explored),
      // The exact table's terms, for this run so far: p = successes per start, s the
      // nodes explored by the successful start, e by a failed one on average, t in all
      // (at the end t = s + (1 − p)·e/p).
      p: st.starts ? (st.solutions / st.starts).toFixed(4) : dash,
      s: st.solutions ? fmt(st.s) : dash,
      e: st.failed ? (st.exploredFailed / st.failed).toFixed(2) : dash,
      t: fmt(st.explored),
    };
  },
  draw(lane, st, e, t) {
    const kind = e ? t.kinds[e[0]] : "";
    const at = e && e.length >= 4 ? [e[1] - 1, e[2] - 1] : null; // [kind, row, column, line]
    const marks = [];
    if (at && (kind === "reject" || kind === "conflict")) marks.push([at, COLOR.conflict]);
    if (at && (kind === "draw" || kind === "random" || kind === "place")) marks.push([at, COLOR.current]);
    const a = kind === "conflict" ? attacker(st.board, t.n, at[0], at[1], "arrays") : kind === "reject" ? st.reject : null;
    paintReplayBoard(lane.el("replay-board"), t.n, {
      attack: a && a.how !== "row" ? [[a.r, a.c], at] : null,
      queens: st.board, attacked: squares(t.n) && t.n <= 16,
      queenColor: (r) => (st.random[r] ? COLOR.random : COLOR.queen),
      marks, badRow: kind === "deadend" && st.dead >= 0 ? st.dead : -1, solved: kind === "solution",
    });
    lane.boardText(st.board);
    drawReplayCurve(lane, t);
  },
  legend: () => [["random", "lRandom"], ["queen", "lBacktracked"], ["conflict", "lAttackedSquare"], ["attacker", "lAttacker"], ["current", "lCurrent"]],
};

// ---------------------------------------------------------------- Sosic–Gu

const localSearchModel = {
  counters: (t) => [["attempts", "cAttempts"], ["placed", "cPlaced"], ["conflicts", "cK"], ["collisions", "cCollisions"],
    ["checks", t.check === "scan" ? "cChecksScan" : "cChecksPlaced"],
    ["checks-other", t.check === "scan" ? "cOtherPlaced" : "cOtherScan"],
    ["swaps", "cSwaps"], ["failed-swaps", "cFailedSwaps"], ["restarts", "cRestarts"]],
  init(t) {
    const n = t.n, st = { q: new Int32Array(n), counted: new Uint8Array(n), anti: new Int32Array(2 * n), diag: new Int32Array(2 * n),
      j: 0, runs: 0, phase: "initial", attempts: 0, placedChecks: 0, scanChecks: 0, k: 0, collisions: 0, swaps: 0, failed: 0, restarts: 0,
      before: 0, free: n - (t.fix || []).length };
    this.start(st, t);
    return st;
  },
  // start sets the board of a run: the identity, or with a custom start the fixed queens,
  // counted from the first step, and the free columns in order on the free rows.
  start(st, t) {
    const n = t.n, fixed = new Int32Array(n).fill(-1), used = new Uint8Array(n);
    for (const [r, c] of t.fix || []) {
      fixed[r - 1] = c - 1;
      used[c - 1] = 1;
    }
    st.counted.fill(0);
    st.anti.fill(0);
    st.diag.fill(0);
    st.collisions = 0;
    for (let r = 0, c = 0; r < n; r++) {
      if (fixed[r] >= 0) {
        st.q[r] = fixed[r];
        continue;
      }
      while (used[c]) c++;
      st.q[r] = c++;
    }
    for (let r = 0; r < n; r++) if (fixed[r] >= 0) this.count(st, n, r, 1);
  },
  // count adds (d = 1) or takes off (d = −1) the queen of row r on its two diagonals, and
  // keeps the collisions: the queens beyond the first on each diagonal.
  count(st, n, r, d) {
    const c = st.q[r];
    for (const [arr, x] of [[st.anti, r + c], [st.diag, r - c + n]]) {
      if (d > 0 && arr[x] >= 1) st.collisions++;
      if (d < 0 && arr[x] >= 2) st.collisions--;
      arr[x] += d;
    }
    st.counted[r] = d > 0 ? 1 : 0;
  },
  apply(st, e, t) {
    const n = t.n, kind = t.kinds[e[0]];
    st.before = st.collisions;
    switch (kind) {
      case "run":
        if (st.runs > 0) st.restarts++;
        st.runs++;
        this.start(st, t);
        Object.assign(st, { j: 0, phase: "initial" });
        break;
      case "try": {
        const [, j, m, placed, scan] = e;
        st.attempts++;
        st.placedChecks++;
        st.scanChecks += scan;
        if (placed) {
          const tmp = st.q[j - 1];
          st.q[j - 1] = st.q[m - 1];
          st.q[m - 1] = tmp;
          this.count(st, n, j - 1, 1);
          st.j++;
        }
        break;
      }
      case "shuffle": {
        const i = e[1] - 1, m = e[2] - 1;
        if (st.phase === "initial") {
          st.phase = "shuffle";
          st.k = st.free - st.j;
        }
        const tmp = st.q[i];
        st.q[i] = st.q[m];
        st.q[m] = tmp;
        this.count(st, n, i, 1);
        break;
      }
      case "final":
        st.phase = "final";
        st.k = st.free - st.j;
        break;
      case "swap": {
        const i = e[1] - 1, m = e[2] - 1;
        st.swaps++;
        if (!e[3]) {
          st.failed++;
          break;
        }
        this.count(st, n, i, -1);
        this.count(st, n, m, -1);
        const tmp = st.q[i];
        st.q[i] = st.q[m];
        st.q[m] = tmp;
        this.count(st, n, i, 1);
        this.count(st, n, m, 1);
        break;
      }
      case "solved":
        st.phase = "solved";
        break;
    }
  },
  describe(st, e, t) {
    if (!e) return tr("sLsStart");
    const kind = t.kinds[e[0]];
    switch (kind) {
      case "run": return st.runs > 1 ? tr("sLsRestart", st.restarts) : tr("sLsRun");
      case "try": {
        const [, j, m, placed, scan] = e;
        const col = placed ? st.q[j - 1] + 1 : st.q[m - 1] + 1;
        const cost = tr(t.check === "scan" ? "sLsCostScan" : "sLsCostPlaced", scan, !!placed);
        return placed ? tr("sLsPlaced", m, col, j, cost) : tr("sLsRejected", m, col, j, scan, cost);
      }
      case "shuffle": return tr("sLsShuffle", e[1], st.q[e[1] - 1] + 1, t.n - e[1] + 1);
      case "final": return tr("sLsFinal", st.k, st.collisions);
      case "swap": return e[3] ? tr("sLsSwap", e[1], e[2], st.before, st.collisions) : tr("sLsNoSwap", e[1], e[2]);
    }
    return tr("sLsSolved");
  },
  closing: (st, t) => (t.stopped !== "" ? tr("endLimit", t.events.length) : tr("endLs", fmt(st.attempts), fmt(st.swaps), fmt(st.restarts))),
  vars(st, e, t) {
    const kind = e ? t.kinds[e[0]] : "";
    const v = [["j", String(st.j + 1)]];
    if (kind === "try") v.push(["m", String(e[2])]);
    if (kind === "shuffle" || kind === "swap") v.push(["i", String(e[1])]);
    if (kind === "swap") v.push(["m", String(e[2])]);
    v.push(["k", st.phase === "initial" ? "–" : String(st.k)], [tr("cCollisions"), fmt(st.collisions), true],
      [tr("cChecks"), fmt(t.check === "scan" ? st.scanChecks : st.placedChecks), true]);
    return v;
  },
  values: (st, t) => ({
    attempts: fmt(st.attempts), placed: fmt(st.j), conflicts: st.phase === "initial" ? "–" : fmt(st.k), collisions: fmt(st.collisions),
    checks: fmt(t.check === "scan" ? st.scanChecks : st.placedChecks), "checks-other": fmt(t.check === "scan" ? st.placedChecks : st.scanChecks),
    swaps: fmt(st.swaps), "failed-swaps": fmt(st.failed), restarts: fmt(st.restarts),
  }),
  draw(lane, st, e, t) {
    const n = t.n, kind = e ? t.kinds[e[0]] : "";
    const marks = [], rows = [];
    let attack = null;
    if (kind === "try") {
      const [, j, m, placed, scan] = e;
      const col = placed ? st.q[j - 1] : st.q[m - 1];
      marks.push([[j - 1, col], placed ? COLOR.current : COLOR.conflict]);
      if (t.check === "scan" && scan > 0) rows.push([0, scan - 1, COLOR.scan]);
      // A rejected queen: the placed queen on its diagonal, the last the O(j) scan compares.
      if (!placed && scan > 0) attack = [[scan - 1, st.q[scan - 1]], [j - 1, col]];
    }
    if (kind === "shuffle") marks.push([[e[1] - 1, st.q[e[1] - 1]], COLOR.current]);
    if (kind === "swap") {
      for (const r of [e[1] - 1, e[2] - 1]) marks.push([[r, st.q[r]], e[3] ? COLOR.current : COLOR.conflict]);
    }
    // A queen is in conflict when it is counted and shares a diagonal with another.
    const hit = (r) => st.counted[r] && (st.anti[r + st.q[r]] > 1 || st.diag[r - st.q[r] + n] > 1);
    paintReplayBoard(lane.el("replay-board"), n, {
      queens: st.q, marks, rows, attack, solved: kind === "solved", pinned: (t.fix || []).map(([r, c]) => [r - 1, c - 1]),
      queenColor: (r) => (!st.counted[r] ? COLOR.waiting : hit(r) ? COLOR.conflict : COLOR.queen),
    });
    lane.boardText(st.q);
    paintDiagonals(lane.el("diag-bars"), n, st);
  },
  legend: (t) => [["queen", "lPlaced"], ["waiting", "lWaiting"], ["conflict", "lInConflict"], ["attacker", "lAttacker"], ["current", "lLastMove"], ["scan", "lScan"],
    ...(t && t.fix ? [["pinned", "lPinned"]] : [])],
};

// ---------------------------------------------------------------- the construction

const constructModel = {
  counters: () => [["rows", "cRows"]],
  init: (t) => ({ cols: new Int32Array(t.n).fill(-1), rows: 0, solved: false }),
  apply(st, e) {
    if (e[0] === 0) {
      st.cols[e[1] - 1] = e[2] - 1;
      st.rows++;
    } else {
      st.solved = true;
    }
  },
  // describe says which case of the program gives the column (docs/algorithms.md §3.7):
  // the comment of the line that placed it, from the engine.
  describe(st, e, t) {
    if (!e) return tr("sCoStart", t.n % 6);
    if (e[0] === 1) return tr("sCoSolved");
    return tr("sCoPlace", e[1], e[2], comment(t.code.lines[e[e.length - 1] - 1]));
  },
  closing: (st, t) => (t.stopped !== "" ? tr("endLimit", t.events.length) : tr("endCo", fmt(t.n))),
  vars(st, e, t) {
    const v = [["n mod 6", String(t.n % 6)], ["h", String(Math.floor(t.n / 2))]];
    if (e && e[0] === 0) v.push(["r", String(e[1])], ["x[r]", String(e[2])]);
    return v;
  },
  values: (st) => ({ rows: fmt(st.rows) }),
  draw(lane, st, e, t) {
    paintReplayBoard(lane.el("replay-board"), t.n, {
      queens: st.cols, queenColor: () => COLOR.queen, solved: st.solved,
      marks: e && e[0] === 0 ? [[[e[1] - 1, e[2] - 1], COLOR.current]] : [],
    });
    lane.boardText(st.cols);
  },
  legend: () => [["queen", "lQueen"], ["current", "lCurrent"]],
};

const MODELS = { backtrack: backtrackModel, lasvegas: lasVegasModel, localsearch: localSearchModel, construct: constructModel };

// JUMPS are the moments the player jumps to, per model: a test of event i of a trace. A
// dead end of a backtracking search is a step back that is not the return from a
// solution, or a pruned node; of the Las Vegas hybrid, a start that fails. The local
// search's first run is its start, not a restart.
const JUMPS = {
  solution: {
    backtrack: (t, i) => t.events[i][0] === 3,
    lasvegas: (t, i) => t.kinds[t.events[i][0]] === "solution",
    localsearch: (t, i) => t.kinds[t.events[i][0]] === "solved",
    construct: (t, i) => t.events[i][0] === 1,
  },
  start: {
    lasvegas: (t, i) => t.kinds[t.events[i][0]] === "start",
    localsearch: (t, i) => t.kinds[t.events[i][0]] === "run" && i > 0,
  },
  deadend: {
    backtrack: (t, i) => t.events[i][0] === 4 || (t.events[i][0] === 1 && !(i > 0 && t.events[i - 1][0] === 3)),
    lasvegas: (t, i) => ["deadend", "fail"].includes(t.kinds[t.events[i][0]]),
  },
};

// moments lists, per kind of JUMPS, the positions (events applied) of a trace's moments.
function moments(t, model) {
  const key = Object.keys(MODELS).find((k) => MODELS[k] === model);
  const out = {};
  for (const [kind, tests] of Object.entries(JUMPS)) {
    const test = tests[key];
    if (!test) continue;
    out[kind] = [];
    for (let i = 0; i < t.events.length; i++) if (test(t, i)) out[kind].push(i + 1);
  }
  return out;
}

// nextMoment is the first position after pos of a kind of moment of the first lane, or −1.
function nextMoment(kind, pos) {
  const list = rp.lanes[0].moments?.[kind];
  if (!list) return -1;
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : -1;
}

// showJumps shows the jumps the first lane's search has, each enabled while one is ahead.
function showJumps() {
  const lane = rp.lanes[0], m = lane.trace ? lane.moments : {};
  for (const b of document.querySelectorAll("#jumps button")) {
    const kind = b.dataset.jump;
    b.hidden = !m[kind] || (kind !== "solution" && m[kind].length === 0);
    b.disabled = nextMoment(kind, rp.pos) < 0;
  }
  const local = lane.trace && lane.trace.search === "localsearch";
  setText($("jump-start"), () => tr(local ? "jumpRestart" : "jumpStart"));
  $("jump-start").title = tr(local ? "jumpRestartTitle" : "jumpStartTitle");
}

// comment is a line's comment in the page's language; in Chinese its names of the
// program (pos, attacked(r, c)) are code.
const comment = (l) => (l && l.comment ? (lang === "zh" && l.comment.zh ? codeNames(l.comment.zh) : l.comment.en) : "");

// ---------------------------------------------------------------- drawing

// paintReplayBoard draws a board of n with the queens of opt.queens (column per row, −1
// for none), each in opt.queenColor(row); opt.marks are [[row, col], colour] squares,
// opt.rows [from, to, colour] bands of rows, opt.badRow a row in red, opt.attack [[row,
// col] of a queen, [row, col] of the square it attacks], ringed and drawn. Up to
// limits.max_drawn_n the board is drawn square by square, beyond as a scatter: a plain
// ground and a dot per queen.
function paintReplayBoard(canvas, n, opt) {
  const queens = Int32Array.from(opt.queens);
  paint(canvas, () => {
    const { ctx, w } = setupCanvas(canvas);
    const cell = w / n;
    const x = (c) => Math.round(c * cell), sz = (c) => Math.max(1, Math.round((c + 1) * cell) - Math.round(c * cell));
    const big = squares(n);
    const attacked = (r, c) => {
      for (let q = 0; q < n; q++) {
        const k = queens[q];
        if (k >= 0 && q !== r && (k === c || q - k === r - c || q + k === r + c)) return true;
      }
      return false;
    };
    if (big) {
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          ctx.fillStyle = (r + c) % 2 === 0 ? COLOR.light : COLOR.dark;
          ctx.fillRect(x(c), x(r), sz(c), sz(r));
          if (opt.attacked && queens[r] !== c && attacked(r, c)) {
            ctx.fillStyle = COLOR.attacked;
            ctx.globalAlpha = 0.7;
            ctx.fillRect(x(c), x(r), sz(c), sz(r));
            ctx.globalAlpha = 1;
          }
        }
      }
    } else {
      ctx.fillStyle = COLOR.light;
      ctx.fillRect(0, 0, w, w);
    }
    ctx.globalAlpha = 0.35;
    for (const [from, to, color] of opt.rows || []) {
      ctx.fillStyle = color;
      ctx.fillRect(0, x(from), w, x(to + 1) - x(from));
    }
    if (opt.badRow >= 0) {
      ctx.fillStyle = COLOR.conflict;
      ctx.fillRect(0, x(opt.badRow), w, sz(opt.badRow));
    }
    ctx.globalAlpha = 1;
    // On a scatter a marked square is drawn a little larger than a queen, to be seen.
    const grow = big ? 0 : Math.max(2, cell);
    for (const [[r, c], color] of opt.marks || []) {
      ctx.fillStyle = color;
      ctx.fillRect(x(c) - grow, x(r) - grow, sz(c) + 2 * grow, sz(r) + 2 * grow);
    }
    // The frame of a solved board goes under the queens: on a scatter they reach the edge.
    if (opt.solved) {
      ctx.strokeStyle = COLOR.solution;
      ctx.lineWidth = 6;
      ctx.strokeRect(3, 3, w - 6, w - 6);
    }
    for (let r = 0; r < n; r++) {
      const c = queens[r];
      if (c < 0) continue;
      if (big) {
        drawQueen(ctx, (c + 0.5) * cell, (r + 0.5) * cell, cell, opt.queenColor(r));
      } else {
        // A dot of three pixels at least; a queen in conflict twice as large, to be seen.
        const color = opt.queenColor(r), d = Math.max(3, cell) * (color === COLOR.conflict ? 2 : 1);
        ctx.fillStyle = color;
        ctx.fillRect((c + 0.5) * cell - d / 2, (r + 0.5) * cell - d / 2, d, d);
      }
    }
    if (opt.attack && big) drawAttack(ctx, cell, opt.attack[0], opt.attack[1]);
    if (big) for (const sq of opt.pinned || []) drawPin(ctx, cell, sq);
  });
}

// paintDiagonals draws the queens on every diagonal, as the local search counts them: a
// bar per diagonal r − c (top) and anti-diagonal r + c (bottom), in red past one queen.
function paintDiagonals(canvas, n, st) {
  const anti = Int32Array.from(st.anti), diag = Int32Array.from(st.diag);
  paint(canvas, () => {
    const { ctx, w, h } = setupCanvas(canvas);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, w, h);
    const top = Math.max(2, ...anti, ...diag), bw = w / (2 * n - 1), band = h / 2 - 16;
    ctx.font = SMALL;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    [[tr("gDiag"), diag, 1], [tr("gAnti"), anti, 0]].forEach(([label, arr, shift], i) => {
      const y0 = i * (h / 2) + 14 + band;
      ctx.fillStyle = COLOR.ink;
      ctx.fillText(label, 2, i * (h / 2) + 1);
      for (let x = 0; x < 2 * n - 1; x++) {
        const v = arr[x + shift];
        if (!v) continue;
        ctx.fillStyle = v > 1 ? COLOR.conflict : COLOR.queen;
        const bh = (v / top) * band;
        ctx.fillRect(x * bw, y0 - bh, Math.max(1, bw - (bw > 3 ? 1 : 0)), bh);
      }
      ctx.strokeStyle = COLOR.grid;
      ctx.beginPath();
      ctx.moveTo(0, y0 + 0.5);
      ctx.lineTo(w, y0 + 0.5);
      ctx.stroke();
    });
  });
}

// The U curve of the replay's board and variant, with a marker at the replay's m: exact
// where the server computes it, sampled up to max_sweep_n, none beyond.
const curves = new Map(); // "n/variant" → the table, or a promise of it
function drawReplayCurve(lane, t) {
  const key = `${t.n}/${t.variant}`;
  const c = curves.get(key);
  const canvas = lane.el("replay-curve"), title = lane.el("replay-curve-title");
  if (c && !(c instanceof Promise)) {
    if (c.error) {
      canvas.hidden = true;
      setText(title, c.error);
      return;
    }
    canvas.hidden = false;
    paint(canvas, () => plotReplayCurve(canvas, title, c, t.m));
    return;
  }
  if (!c) {
    const exact = t.n <= (t.variant === "row" ? limits.max_exact_row_n : limits.max_exact_cell_n);
    const q = new URLSearchParams({ n: t.n, variant: t.variant, exact });
    if (!exact) {
      // The page's sweep, not the API's defaults (lab.DefaultTrials, a random seed).
      q.set("trials", SWEEP_TRIALS);
      q.set("seed", SWEEP_SEED);
    }
    if (!exact && t.n > limits.max_sweep_n) {
      curves.set(key, { error: () => tr("noCurve", limits.max_sweep_n) });
      drawReplayCurve(lane, t);
      return;
    }
    curves.set(key, api("/api/lab/lasvegas?" + q).then((r) => r, (err) => ({ error: errorText(err) })).then((r) => {
      curves.set(key, r);
      for (const l of rp.lanes) if (l.trace && l.trace.n === t.n && l.trace.variant === t.variant) l.render();
    }));
  }
  setText(title, () => tr("computingCurve"));
}

function plotReplayCurve(canvas, title, r, m) {
  const vals = r.rows.map((row) => row.explored).filter((v) => v > 0);
  if (vals.length === 0) return;
  setText(title, () => tr("replayCurveTitle", r.exact, r.trials));
  const { ctx, w, h, y } = chart(canvas, Math.min(...vals), Math.max(...vals), [[tr("gExploredT"), COLOR.series[0]]]);
  const maxM = Math.max(1, r.rows[r.rows.length - 1].m);
  const x0 = PAD.l + INSET, x1 = w - PAD.r - INSET;
  const x = (v) => x0 + (v / maxM) * (x1 - x0);
  ctx.strokeStyle = ctx.fillStyle = COLOR.series[0];
  ctx.lineWidth = 2;
  ctx.beginPath();
  r.rows.forEach((row, i) => (row.explored > 0 ? (i ? ctx.lineTo(x(row.m), y(row.explored)) : ctx.moveTo(x(row.m), y(row.explored))) : 0));
  ctx.stroke();
  ctx.textAlign = "center";
  ctx.fillStyle = COLOR.ink;
  ctx.fillText("m", (x0 + x1) / 2, h - 6);
  for (const v of [0, maxM]) ctx.fillText(String(v), x(v), h - PAD.b + 16);
  const at = r.rows.find((row) => row.m === m);
  ctx.strokeStyle = COLOR.conflict;
  ctx.beginPath();
  ctx.moveTo(x(m), PAD.t);
  ctx.lineTo(x(m), h - PAD.b);
  ctx.stroke();
  if (at && at.explored > 0) {
    ctx.beginPath();
    ctx.arc(x(m), y(at.explored), 7, 0, 2 * Math.PI);
    ctx.stroke();
  }
  ctx.fillStyle = COLOR.conflict;
  // The label beside the marker line, not across it: to its right when it fits.
  const text = at ? `m = ${m}: t = ${at.explored.toFixed(2)}` : `m = ${m}`;
  const right = x(m) + 6 + ctx.measureText(text).width <= w - 2;
  ctx.textAlign = right ? "left" : "right";
  ctx.fillText(text, right ? x(m) + 6 : x(m) - 6, PAD.t + 12);
  ctx.lineWidth = 1;
}

// ---------------------------------------------------------------- a lane

// A Lane replays one trace on its own board, counters, sentence and program: the page has
// two, the second (ids prefixed "b-") shown when two searches are compared.
class Lane {
  constructor(prefix) {
    this.p = prefix;
    this.trace = null;
    this.model = null;
    this.i = 0;
    this.st = null;
  }

  el(id) {
    return document.getElementById(this.p + id);
  }

  get length() {
    return this.trace ? this.trace.events.length : 0;
  }

  load(t, model) {
    this.trace = t;
    this.model = model;
    this.moments = moments(t, model);
    this.buildCounters();
    this.buildCode();
    this.reset();
    this.el("diag-bars").hidden = model !== localSearchModel;
    this.el("replay-curve-box").hidden = model !== lasVegasModel;
  }

  // clear empties the lane: no trace, an empty board, no counters, no program.
  clear() {
    this.trace = null;
    this.model = null;
    this.i = 0;
    const dl = this.el("counters");
    while (dl.children.length > 1) dl.lastChild.remove();
    this.el("ev-index").textContent = "0";
    this.el("ev-total").textContent = "0";
    this.el("code").replaceChildren();
    this.el("vars").replaceChildren();
    this.el("code-box").hidden = true;
    this.el("stack").replaceChildren();
    this.el("stack-box").hidden = true;
    setText(this.el("last-event"), "–");
    this.el("diag-bars").hidden = true;
    this.el("replay-curve-box").hidden = true;
    this.el("replay-legend").replaceChildren();
    const n = Number($("trace-n").value) || 8;
    drawBoard(this.el("replay-board"), Math.min(Math.max(n, 1), limits.max_drawn_n), []);
    setLabel(this.el("replay-board"), () => tr("emptyBoard"));
  }

  reset() {
    this.i = 0;
    this.st = this.model.init(this.trace);
  }

  forward() {
    if (!this.trace || this.i >= this.trace.events.length) return false;
    this.model.apply(this.st, this.trace.events[this.i++], this.trace);
    return true;
  }

  // seek goes to position i: forward, or back by replaying from the start (the state of a
  // model is built from the events alone).
  seek(i) {
    if (!this.trace) return;
    i = Math.max(0, Math.min(i, this.trace.events.length));
    if (i < this.i) this.reset();
    while (this.i < i && this.forward());
  }

  buildCounters() {
    const dl = this.el("counters");
    while (dl.children.length > 1) dl.lastChild.remove();
    for (const [id, label] of this.model.counters(this.trace)) {
      const div = document.createElement("div"), dt = document.createElement("dt"), dd = document.createElement("dd");
      setText(dt, () => tr(label));
      dd.id = this.p + id;
      div.append(dt, dd);
      dl.append(div);
    }
    const legend = this.el("replay-legend");
    legend.replaceChildren();
    for (const [swatch, label] of this.model.legend(this.trace)) {
      const item = document.createElement("span"), s = document.createElement("span"), l = document.createElement("span");
      item.className = "item";
      s.className = "swatch " + swatch;
      setText(l, () => tr(label));
      item.append(s, l);
      legend.append(item);
    }
  }

  // buildCode lays out the program of the trace, a list item per line: its code, and its
  // comment in the page's language.
  buildCode() {
    const ol = this.el("code");
    ol.replaceChildren();
    this.trace.code.lines.forEach((l, i) => {
      const li = document.createElement("li"), code = document.createElement("code");
      li.dataset.line = String(i + 1);
      if (l.event) li.dataset.event = l.event;
      code.className = "code-text";
      code.textContent = l.code;
      li.append(code);
      if (l.comment && l.comment.en) {
        const c = document.createElement("span");
        c.className = "comment";
        setText(c, () => comment(l));
        li.append(c);
      }
      ol.append(li);
    });
    this.el("code-box").hidden = false;
  }

  // renderStack lists the model's active calls, each a list item of code: the call, and
  // what it binds; the running call, the last, marked.
  renderStack(e) {
    const frames = this.model.stack ? this.model.stack(this.st, e, this.trace) : null;
    this.el("stack-box").hidden = !frames;
    const ol = this.el("stack");
    ol.replaceChildren();
    if (!frames) return;
    frames.forEach(([call, bind], i) => {
      const li = document.createElement("li"), c = document.createElement("code");
      c.textContent = call;
      li.append(c);
      if (bind) {
        const b = document.createElement("code");
        b.textContent = bind;
        li.append(" ", b);
      }
      if (i === frames.length - 1) {
        li.className = "top";
        li.setAttribute("aria-current", "true");
      }
      ol.append(li);
    });
  }

  // boardText gives the board's placement to a screen reader, as the canvas's label.
  boardText(cols) {
    const c = this.el("replay-board"), n = cols.length;
    const placed = [];
    for (let r = 0; r < n; r++) if (cols[r] >= 0) placed.push([r + 1, cols[r] + 1]);
    setLabel(c, () => tr("boardText", n, placed));
  }

  render() {
    const t = this.trace;
    if (!t) return;
    const e = this.i > 0 ? t.events[this.i - 1] : null;
    this.model.draw(this, this.st, e, t);
    this.el("ev-index").textContent = fmt(this.i);
    this.el("ev-total").textContent = fmt(t.events.length);
    // The last event's sentence; at the end, a sentence more that says how it ended.
    const end = this.i === t.events.length && this.i > 0;
    setText(this.el("last-event"), () => {
      const s = this.model.describe(this.st, e, t);
      return end ? tr("closing", s, this.model.closing(this.st, t)) : s;
    });
    for (const [id, v] of Object.entries(this.model.values(this.st, t))) {
      const el = this.el(id);
      if (el) el.textContent = v;
    }
    // The line of the last event, from the engine, lit; its live variables under it.
    const line = e ? e[e.length - 1] : 0;
    for (const li of this.el("code").children) {
      const lit = Number(li.dataset.line) === line;
      li.classList.toggle("lit", lit);
      if (lit) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    }
    this.el("code").dataset.line = String(line);
    this.renderStack(e);
    const dl = this.el("vars");
    dl.replaceChildren();
    // A variable of the program is code; a counter is in words, of the page's language.
    for (const [k, v, words] of this.model.vars(this.st, e, t)) {
      const div = document.createElement("div"), dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k;
      if (!words) dt.className = "code-text";
      dd.textContent = v;
      div.append(dt, dd);
      dl.append(div);
    }
  }
}

// ---------------------------------------------------------------- the player

// rp is the replay: its lanes (the second when comparing), the position (events of the
// first lane applied; the second goes as far, or to its end), the trace parameters it
// was loaded with, and the player's clock.
const rp = { lanes: [], pos: 0, comparing: false, timer: 0, last: 0, acc: 0, gen: 0, loaded: null, urlTimer: 0,
  quiz: { ask: -1, right: 0, wrong: 0 } };

// lastPos is the last position: the longer lane's events.
const lastPos = () => Math.max(rp.lanes[0].length, rp.comparing ? rp.lanes[1].length : 0);

function seek(pos) {
  rp.pos = Math.max(0, Math.min(pos, lastPos()));
  for (const l of rp.lanes) l.seek(rp.pos);
}

function renderReplay() {
  const a = rp.lanes[0];
  if (!a || !a.trace) return;
  a.render();
  if (rp.comparing) rp.lanes[1].render();
  const end = lastPos();
  $("scrub").max = end;
  $("scrub").value = rp.pos;
  $("scrub").setAttribute("aria-valuetext", tr("scrubText", rp.pos, end));
  $("step-back").disabled = rp.pos === 0;
  $("step-fwd").disabled = rp.pos === end;
  const panel = $("replay-panel");
  panel.dataset.state = rp.timer ? "playing" : rp.pos === end ? "ended" : "paused";
  setText($("play"), () => tr(rp.timer ? "pause" : "play"));
  $("play").setAttribute("aria-pressed", rp.timer ? "true" : "false");
  showJumps();
  // While playing, a screen reader is not read every step; stepping by hand, it is.
  for (const l of rp.lanes) l.el("last-event").setAttribute("aria-live", rp.timer ? "off" : "polite");
}

// eventsPerSecond maps the speed slider (0..100) to 1..2000 events a second.
function eventsPerSecond() {
  return Math.round(Math.pow(10, (Number($("speed").value) / 100) * 3.3));
}

function play() {
  if (!rp.lanes[0].trace) return;
  if (rp.pos === lastPos()) seek(0);
  if (quizOn() && quizTarget(rp.pos) >= 0) {
    ask(quizTarget(rp.pos), rp.pos);
    return;
  }
  rp.last = performance.now();
  rp.acc = 0;
  rp.timer = setInterval(tick, 16);
  renderReplay();
}

function pause() {
  if (!rp.timer) return;
  clearInterval(rp.timer);
  rp.timer = 0;
  renderReplay();
  replayMoved();
}

function tick() {
  const now = performance.now();
  rp.acc += ((now - rp.last) / 1000) * eventsPerSecond();
  rp.last = now;
  const steps = Math.floor(rp.acc);
  rp.acc -= steps;
  const end = lastPos();
  // In quiz mode the player stops before the next question and asks it.
  if (quizOn()) {
    for (let at = rp.pos; at < rp.pos + steps && at < end; at++) {
      const i = quizTarget(at);
      if (i >= 0) {
        ask(i, at);
        return;
      }
    }
  }
  seek(rp.pos + steps);
  if (rp.pos >= end) {
    pause();
    return;
  }
  renderReplay();
  replayMoved();
}

// stepTo moves to a position by hand (a button, a key, the scrub bar); a question asked is
// left unanswered.
function stepTo(pos) {
  if (!rp.lanes[0].trace) return;
  if (rp.timer) {
    clearInterval(rp.timer);
    rp.timer = 0;
  }
  closeQuestion();
  seek(pos);
  renderReplay();
  replayMoved();
}

// ---------------------------------------------------------------- the quiz

// In quiz mode, before the first lane shows a queen placed by a backtracking search (or a
// swap of the local search), the page asks where it goes: a click on the board, or the
// row and column typed; it says whether the answer is right, keeps the score, and shows
// the step (in classic backtracking, past the comparisons that would tell the answer).
// Forward asks first; a second forward, or "show me", shows the step unanswered.

const quizOn = () => $("quiz").checked;

// question is the question of event i of the first lane, or null: {kind, r, c} with kind
// "row" (a queen of a row search: its column), "cell" (a queen of a cell search: its
// square) or "swap" (the local search: the row c of the queen that row r's swaps with).
function question(i) {
  const lane = rp.lanes[0], t = lane.trace;
  if (!t || i < 0 || i >= t.events.length) return null;
  const e = t.events[i];
  if (lane.model === backtrackModel && e[0] === 0) return { kind: backtrackModel.cellSearch(t) ? "cell" : "row", r: e[1], c: e[2] };
  if (lane.model === lasVegasModel && t.kinds[e[0]] === "place") return { kind: "row", r: e[1], c: e[2] };
  if (lane.model === localSearchModel && t.kinds[e[0]] === "swap" && e[3]) return { kind: "swap", r: e[1], c: e[2] };
  return null;
}

// quizTarget is the event whose question is asked at position pos (before event pos), or
// −1: the event itself when it has a question; in classic backtracking, whose Place
// compares the square with each queen above before it is placed (the last comparison
// says that none attacks it), the queen that the comparisons of the same square before
// it lead to, so that the question comes before they tell the answer.
function quizTarget(pos) {
  const t = rp.lanes[0].trace;
  if (!t) return -1;
  if (question(pos)) return pos;
  if (rp.lanes[0].model !== backtrackModel || t.search !== "classic" || pos >= t.events.length) return -1;
  const [k, r, c] = t.events[pos];
  if (k !== 5) return -1;
  const same = (e) => e[1] === r && e[2] === c;
  let i = pos;
  while (i < t.events.length && t.events[i][0] === 5 && same(t.events[i])) i++;
  return i < t.events.length && t.events[i][0] === 0 && same(t.events[i]) ? i : -1;
}

// ask stops the player at position at and asks the question of event i (at ≤ i).
function ask(i, at = i) {
  if (rp.timer) {
    clearInterval(rp.timer);
    rp.timer = 0;
  }
  seek(at);
  const q = question(i), n = rp.lanes[0].trace.n;
  rp.quiz.ask = i;
  setText($("quiz-question"), () => (q.kind === "row" ? tr("quizAskRow", q.r) : q.kind === "cell" ? tr("quizAskCell") : tr("quizAskSwap", q.r)));
  $("quiz-row").max = $("quiz-col").max = String(n);
  $("quiz-row").value = q.kind === "row" ? String(q.r) : "";
  $("quiz-row").readOnly = q.kind === "row";
  $("quiz-col").value = "";
  $("quiz-col-label").hidden = q.kind === "swap";
  $("quiz-box").hidden = false;
  // The last answer's verdict goes; the score stays.
  const { right, wrong } = rp.quiz;
  $("quiz-result").classList.remove("wrong");
  setText($("quiz-result"), right + wrong > 0 ? () => tr("quizScore", right, wrong) : "");
  $("replay-panel").dataset.quiz = "asking";
  delete $("replay-panel").dataset.answer;
  renderReplay();
  replayMoved();
  (q.kind === "row" ? $("quiz-col") : $("quiz-row")).focus({ preventScroll: true });
}

// closeQuestion puts the question away, unanswered.
function closeQuestion() {
  rp.quiz.ask = -1;
  $("quiz-box").hidden = true;
  delete $("replay-panel").dataset.quiz;
}

// answer answers the question asked with the square (r, c) (for a swap, the row r), or
// with null (show me), and shows the step.
function answer(r, c) {
  const i = rp.quiz.ask, q = question(i);
  if (!q) return;
  const n = rp.lanes[0].trace.n, swap = q.kind === "swap";
  if (r !== null && !(Number.isInteger(r) && r >= 1 && r <= n && (swap || (Number.isInteger(c) && c >= 1 && c <= n)))) {
    setText($("quiz-result"), () => tr("quizInvalid", n));
    return;
  }
  const ok = r !== null && (swap ? r === q.c : r === q.r && c === q.c);
  if (r !== null) rp.quiz[ok ? "right" : "wrong"]++;
  const { right, wrong } = rp.quiz;
  const said = () => (r === null ? tr(swap ? "quizShownSwap" : "quizShown", q.r, q.c)
    : ok ? tr(swap ? "quizRightSwap" : "quizRight", q.r, q.c)
    : swap ? tr("quizWrongSwap", r, q.r, q.c) : tr("quizWrong", r, c, q.r, q.c));
  stepTo(i + 1);
  $("replay-panel").dataset.answer = r === null ? "shown" : ok ? "right" : "wrong";
  $("quiz-result").classList.toggle("wrong", r !== null && !ok);
  setText($("quiz-result"), () => `${said()} ${tr("quizScore", right, wrong)}`);
}

// forward goes one event on; in quiz mode, before a question's event, it asks first, and
// while a question is asked it shows the step: the queen placed (or the swap).
function forward() {
  if (!rp.lanes[0].trace) return;
  if (rp.quiz.ask >= 0) answer(null);
  else if (quizOn() && quizTarget(rp.pos) >= 0) ask(quizTarget(rp.pos), rp.pos);
  else stepTo(rp.pos + 1);
}

// boardAnswer answers with the square clicked on the first lane's board.
function boardAnswer(ev) {
  if (rp.quiz.ask < 0) return;
  const c = $("replay-board"), box = c.getBoundingClientRect(), n = rp.lanes[0].trace.n;
  const col = Math.floor(((ev.clientX - box.left) / box.width) * n) + 1, row = Math.floor(((ev.clientY - box.top) / box.height) * n) + 1;
  if (row < 1 || row > n || col < 1 || col > n) return;
  answer(row, col);
}

// replayMoved records the position in the address (replacing it: the steps of a replay
// are no history), at most every 300 ms while playing.
function replayMoved() {
  if (rp.urlTimer) return;
  if (!rp.timer) {
    writeURL(false);
    return;
  }
  rp.urlTimer = setTimeout(() => {
    rp.urlTimer = 0;
    writeURL(false);
  }, 300);
}

// showConcept fills the concept panel with the chosen search's explanation: what it
// does, what it costs, when to use it, and where the docs say more.
function showConcept() {
  const key = $("search").value, c = SEARCHES[key];
  setText($("concept-summary"), () => tr("conceptAbout", tr("opt." + key)));
  for (const part of ["what", "cost", "when"]) setText($("concept-" + part), () => tr(`concept.${c.concept}.${part}`));
  setText($("concept-more"), () => tr("conceptMore", c.section));
}

// showControls shows the inputs that the chosen searches take, with their limits, and the
// chosen search's concept.
function showControls() {
  showConcept();
  const a = SEARCHES[$("search").value].model;
  const cmp = COMPARE[$("compare").value];
  const b = cmp ? SEARCHES[cmp.search].model : null;
  // A custom start is the first search's: the compared one starts from it if it can.
  const takes = new Set([...takesOf(SEARCHES[$("search").value]), ...(b ? TAKES[b] : [])]);
  if (b === "localsearch") takes.delete("check"); // the comparison names its own check
  if (a === "localsearch") takes.add("check");
  for (const el of document.querySelectorAll("#trace-form [data-takes]")) {
    el.hidden = !takes.has(el.dataset.takes);
  }
  const backtracking = a === "backtrack" || b === "backtrack";
  $("trace-n").max = backtracking ? limits.max_trace_n : limits.max_replay_n;
  $("trace-m").max = $("trace-n").value;
  if (!takes.has("fix")) editFix(false);
}

// fixedColumn is the 1-based column of the queen a trace's row r (1-based) starts from,
// 0 when the row is free.
function fixedColumn(t, r) {
  const f = (t.fix || []).find(([fr]) => fr === r);
  return f ? f[1] : 0;
}

// parseFix reads the custom start's field as the editor shows it: "r:c" pairs, 1-based,
// on the board of n, one queen per row (the server checks the field as sent).
function parseFix(s, n) {
  const cols = new Array(n).fill(-1);
  for (const m of s.matchAll(/(\d+)\s*:\s*(\d+)/g)) {
    const r = Number(m[1]), c = Number(m[2]);
    if (r >= 1 && r <= n && c >= 1 && c <= n) cols[r - 1] = c - 1;
  }
  return cols;
}

// fixText writes the columns of the editor as the field's "r:c" pairs.
const fixText = (cols) => cols.flatMap((c, r) => (c >= 0 ? [`${r + 1}:${c + 1}`] : [])).join(", ");

// editFix turns the editor of the custom start on or off: on, the replay is cleared and
// its board shows the queens of the field, a click on a square putting the row's queen
// there (or taking it off); Load replays from them.
function editFix(on) {
  const b = $("fix-edit");
  if (b.getAttribute("aria-pressed") === String(on)) return;
  b.setAttribute("aria-pressed", String(on));
  if (!on) return;
  clearReplay();
  drawFix();
  status("replay-status", () => tr("fixHelp"));
}

// drawFix draws the board of the editor: the queens of the field.
function drawFix() {
  const n = Number($("trace-n").value) || 8;
  const cols = parseFix($("trace-fix").value, n);
  drawBoard($("replay-board"), n, cols, { attacked: true, pinned: cols.flatMap((c, r) => (c >= 0 ? [[r, c]] : [])) });
}

// clickFix puts (or takes off) a queen on the square of the editor's board under a click.
function clickFix(ev) {
  if ($("fix-edit").getAttribute("aria-pressed") !== "true") return;
  const canvas = $("replay-board"), n = Number($("trace-n").value) || 8;
  const box = canvas.getBoundingClientRect();
  const r = Math.floor(((ev.clientY - box.top) / box.height) * n), c = Math.floor(((ev.clientX - box.left) / box.width) * n);
  if (r < 0 || r >= n || c < 0 || c >= n) return;
  const cols = parseFix($("trace-fix").value, n);
  cols[r] = cols[r] === c ? -1 : c;
  $("trace-fix").value = fixText(cols);
  drawFix();
}

// traceQuery is the request of a search choice: its own parameters only.
function traceQuery(choice, check, seed) {
  const q = new URLSearchParams({ ...choice.q, n: $("trace-n").value });
  const takes = takesOf(choice);
  if (takes.includes("until")) q.set("until", $("until").value);
  // The custom start is the first search's; the compared search starts from it if it can.
  if (takes.includes("fix") && takesOf(SEARCHES[$("search").value]).includes("fix") && $("trace-fix").value.trim() !== "") {
    q.set("fix", $("trace-fix").value.trim());
  }
  if (takes.includes("m")) q.set("m", $("trace-m").value);
  if (takes.includes("check")) q.set("check", check || $("check").value);
  if (takes.includes("seed") && seed !== "") q.set("seed", seed);
  return q;
}

// clearReplay empties both lanes: after an error no board of another search stays.
function clearReplay() {
  if (rp.timer) {
    clearInterval(rp.timer);
    rp.timer = 0;
  }
  for (const l of rp.lanes) {
    l.clear();
    l.el("lane-title").hidden = true;
  }
  rp.lanes[1].el("lane").hidden = true;
  rp.comparing = false;
  $("lanes").classList.remove("comparing");
  rp.pos = 0;
  rp.loaded = null;
  $("scrub").max = 0;
  $("scrub").value = 0;
  $("step-back").disabled = $("step-fwd").disabled = $("play").disabled = true;
  for (const b of document.querySelectorAll("#jumps button")) b.disabled = true;
  setText($("play"), () => tr("play"));
  $("play").setAttribute("aria-pressed", "false");
  $("replay-panel").dataset.state = "empty";
  closeQuestion();
}

// loadTrace loads the chosen search (and the one compared with it) and shows its first
// event, or event at; push says whether the address joins the history.
async function loadTrace(ev, at = 0, push = true) {
  ev?.preventDefault();
  if (rp.timer) {
    clearInterval(rp.timer);
    rp.timer = 0;
  }
  const gen = ++rp.gen;
  $("replay-panel").dataset.busy = "true";
  try {
    const key = $("search").value, choice = SEARCHES[key];
    const cmpKey = $("compare").value, cmp = COMPARE[cmpKey];
    status("replay-status", () => tr("tracing"));
    const seedField = $("trace-seed").value;
    const ta = await api("/api/trace?" + traceQuery(choice, "", seedField));
    let seed = ta.seed !== undefined ? String(ta.seed) : seedField;
    let tb = null;
    if (cmp) {
      const cc = SEARCHES[cmp.search];
      tb = await api("/api/trace?" + traceQuery(cc, cmp.check, seed));
      if (tb.seed !== undefined && seed === "") seed = String(tb.seed);
    }
    if (gen !== rp.gen) return;
    const [a, b] = rp.lanes;
    closeQuestion();
    Object.assign(rp.quiz, { right: 0, wrong: 0 });
    setText($("quiz-result"), "");
    a.load(ta, MODELS[choice.model]);
    // The construction places its queens without a choice: nothing to predict.
    $("quiz-label").hidden = choice.model === "construct";
    rp.comparing = !!tb;
    $("lanes").classList.toggle("comparing", rp.comparing);
    b.el("lane").hidden = !tb;
    if (tb) b.load(tb, MODELS[SEARCHES[cmp.search].model]);
    else b.trace = null;
    for (const l of rp.lanes) {
      setText(l.el("lane-title"), () => traceTitle(l.trace));
      l.el("lane-title").hidden = !rp.comparing;
    }
    // What was loaded, as the address records it: the form as it was, not as it is now.
    rp.loaded = { search: key, compare: cmp ? cmpKey : "", seed, query: loadedQuery(), n: $("trace-n").value,
      until: $("until").value, m: $("trace-m").value, check: $("check").value, fix: ta.fix ? $("trace-fix").value.trim() : "" };
    $("play").disabled = false;
    seek(at);
    status("replay-status", () => [ta, tb].filter(Boolean).map(traceSummary).join(" · "));
    renderReplay();
    writeURL(push);
  } catch (e) {
    if (gen !== rp.gen) return;
    clearReplay();
    status("replay-status", errorText(e), true);
  } finally {
    if (gen === rp.gen) delete $("replay-panel").dataset.busy;
  }
}

// traceTitle names a trace's search in the page's language.
function traceTitle(t) {
  if (!t) return "";
  const key = t.search === "lasvegas" ? "title.lasvegas-" + t.variant : t.search === "localsearch" ? "title.localsearch-" + t.check : "title." + t.search;
  return tr(key);
}

// traceSummary says what a trace is and how it ends: its search, n, m and seed, its events
// and its counters at the end.
function traceSummary(t) {
  const model = t.search === "lasvegas" ? "lasvegas" : t.search === "localsearch" ? "localsearch" : t.search === "construct" ? "construct" : "backtrack";
  return tr("traceSummary", traceTitle(t), t, model);
}

// startReplay builds the second lane and wires the panel's controls; app.js calls it
// once the limits are known.
function startReplay() {
  const a = $("lane");
  const b = a.cloneNode(true);
  // The copy's ids, and the references to them, get the prefix "b-".
  for (const el of [b, ...b.querySelectorAll("[id]")]) el.id = "b-" + el.id;
  for (const el of b.querySelectorAll("[aria-labelledby], [aria-describedby], label[for]")) {
    for (const attr of ["aria-labelledby", "aria-describedby", "for"]) {
      if (el.hasAttribute(attr)) el.setAttribute(attr, el.getAttribute(attr).split(" ").map((x) => "b-" + x).join(" "));
    }
  }
  b.hidden = true;
  a.after(b);
  rp.lanes = [new Lane(""), new Lane("b-")];

  $("trace-form").addEventListener("submit", (ev) => {
    editFix(false);
    loadTrace(ev);
  });
  $("fix-edit").addEventListener("click", () => editFix($("fix-edit").getAttribute("aria-pressed") !== "true"));
  $("replay-board").addEventListener("click", clickFix);
  $("trace-fix").addEventListener("input", () => $("fix-edit").getAttribute("aria-pressed") === "true" && drawFix());
  $("trace-n").addEventListener("input", () => $("fix-edit").getAttribute("aria-pressed") === "true" && drawFix());
  $("search").addEventListener("change", showControls);
  $("compare").addEventListener("change", showControls);
  $("trace-n").addEventListener("input", () => ($("trace-m").max = $("trace-n").value));
  $("play").addEventListener("click", () => (rp.timer ? pause() : play()));
  $("step-fwd").addEventListener("click", forward);
  $("quiz").addEventListener("change", () => {
    if (!quizOn()) closeQuestion();
    writeURL(false);
  });
  $("quiz-box").addEventListener("submit", (ev) => {
    ev.preventDefault();
    answer(Number($("quiz-row").value || NaN), Number($("quiz-col").value || NaN));
  });
  $("quiz-show").addEventListener("click", () => answer(null));
  $("replay-board").addEventListener("click", boardAnswer);
  $("step-back").addEventListener("click", () => stepTo(rp.pos - 1));
  $("scrub").addEventListener("input", () => stepTo(Number($("scrub").value)));
  for (const b of document.querySelectorAll("#jumps button")) {
    b.addEventListener("click", () => {
      const to = nextMoment(b.dataset.jump, rp.pos);
      if (to >= 0) stepTo(to);
    });
  }
  const speed = () => setText($("speed-text"), () => tr("speedText", eventsPerSecond()));
  $("speed").addEventListener("input", speed);
  // The speed is kept in the address, once the slider is let go.
  $("speed").addEventListener("change", () => writeURL(false));
  speed();
  // The keys of the player, anywhere on the replay panel but in a field: ← → step,
  // space plays or pauses, Home and End go to the start and the end.
  document.addEventListener("keydown", (ev) => {
    if ($("replay-panel").hidden || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const el = ev.target;
    const tag = el && el.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && el.type !== "checkbox")) return;
    const key = ev.key;
    if (key === " " && (tag === "BUTTON" || tag === "INPUT")) return; // the control's own
    if (el && el.getAttribute && el.getAttribute("role") === "tab") return;
    const go = { ArrowLeft: () => stepTo(rp.pos - 1), ArrowRight: forward, Home: () => stepTo(0), End: () => stepTo(lastPos()),
      " ": () => (rp.timer ? pause() : play()) }[key];
    if (!go || !rp.lanes[0].trace) return;
    ev.preventDefault();
    go();
  });
  showControls();
}
