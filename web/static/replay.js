// The replay panel: every search the command runs, event by event, from /api/trace: the
// four teaching searches, the Las Vegas hybrid and Sosic–Gu's local search. Each kind of
// search is a model that builds its state from the events alone (so that stepping back is
// replaying from the start), names its counters and draws its board. Loaded before app.js,
// whose helpers it uses once the page has started.
"use strict";

// The choices of the search menu: the API's parameters and the model that replays them.
const SEARCHES = {
  classic: { q: { search: "classic" }, model: "backtrack" },
  row: { q: { search: "row" }, model: "backtrack" },
  cell: { q: { search: "cell" }, model: "backtrack" },
  cellprune: { q: { search: "cellprune" }, model: "backtrack" },
  "lasvegas-row": { q: { search: "lasvegas", variant: "row" }, model: "lasvegas" },
  "lasvegas-cell": { q: { search: "lasvegas", variant: "cell" }, model: "lasvegas" },
  localsearch: { q: { search: "localsearch" }, model: "localsearch" },
  construct: { q: { search: "construct" }, model: "construct" },
};

// rp is the replay: the trace, its model, the position i (events applied), the state
// after them, and the player's clock.
const rp = { trace: null, model: null, i: 0, st: null, timer: 0, last: 0, acc: 0 };

// squares says whether a board of n is drawn square by square; beyond, as a scatter of
// queens on a plain ground.
const squares = (n) => n <= limits.max_drawn_n;

// ---------------------------------------------------------------- the teaching searches

const backtrackModel = {
  counters: () => [["depth", "depth"], ["nodes", "nodes"], ["checks", "checks"], ["solutions", "solutions"]],
  init: (t) => ({ cols: new Array(t.n).fill(-1), depth: 0, places: 0, conflicts: 0, solutions: 0 }),
  apply(st, e) {
    const [k, r, c] = e;
    switch (k) {
      case 0: // place
        st.cols[r - 1] = c - 1;
        st.depth++;
        st.places++;
        break;
      case 1: // remove
        st.cols[r - 1] = -1;
        st.depth--;
        break;
      case 2: // conflict
        st.conflicts++;
        break;
      case 3: // solution
        st.solutions++;
        break;
    }
  },
  describe(st, e) {
    if (!e) return "start: empty board";
    const [k, r, c] = e;
    switch (k) {
      case 0: return `place row ${r}, column ${c}`;
      case 1: return `remove row ${r}, column ${c}`;
      case 2: return `conflict at row ${r}, column ${c}`;
      case 4: return `row ${r} is empty: prune`;
    }
    return `solution ${st.solutions}`;
  },
  values: (st) => ({ depth: String(st.depth), nodes: fmt(1 + st.places), checks: fmt(st.places + st.conflicts), solutions: fmt(st.solutions) }),
  draw(st, e, t) {
    const sq = e && e[0] <= 2 ? [e[1] - 1, e[2] - 1] : null;
    drawBoard($("replay-board"), t.n, st.cols, {
      attacked: true,
      conflict: e && e[0] === 2 ? sq : null,
      current: e && e[0] === 0 ? sq : null,
      solved: e && e[0] === 3,
    });
  },
  legend: `<span class="swatch queen"></span> queen <span class="swatch attacked"></span> attacked
    <span class="swatch conflict"></span> square that failed its check <span class="swatch current"></span> last placed`,
};

// ---------------------------------------------------------------- Las Vegas

// The event kinds of a Las Vegas trace, by name (the trace's kinds give their numbers).
const lasVegasModel = {
  counters: (t) => [["attempts", "attempt"], ...(t.variant === "cell" ? [["draws", "draws"]] : []), ["random", "random queens"],
    ["nodes", "nodes"], ["checks", "checks"], ["explored", "explored"], ["p", "p"], ["s", "s"], ["e", "e"], ["t", "t"]],
  init: (t) => ({ board: new Int32Array(t.n).fill(-1), random: new Uint8Array(t.n), attempts: 0, draws: 0, randomQ: 0, nodes: 0,
    checks: 0, explored: 0, attemptExplored: 0, failed: 0, exploredFailed: 0, solutions: 0, s: 0, dead: -1 }),
  apply(st, e, t) {
    const kind = t.kinds[e[0]], n = t.n;
    const r = e[1] - 1, c = e[2] - 1;
    st.dead = -1;
    switch (kind) {
      case "attempt":
        st.board.fill(-1);
        st.random.fill(0);
        st.attempts++;
        st.explored++;
        st.attemptExplored = 1;
        st.randomQ = 0;
        break;
      case "draw":
      case "reject":
      case "random":
        if (kind === "random") {
          st.checks += n;
        } else {
          st.draws++;
          st.checks++;
        }
        if (kind !== "reject") {
          st.board[r] = c;
          st.random[r] = 1;
          st.randomQ++;
          st.explored++;
          st.attemptExplored++;
        }
        break;
      case "deadend":
        if (e[1] > 0) st.checks += n;
        st.dead = r;
        st.failed++;
        st.exploredFailed += st.attemptExplored;
        break;
      case "backtrack":
        st.nodes++;
        break;
      case "place":
        st.board[r] = c;
        st.nodes++;
        st.checks++;
        st.explored++;
        st.attemptExplored++;
        break;
      case "remove":
        st.board[r] = -1;
        break;
      case "conflict":
        st.checks++;
        break;
      case "fail":
        st.failed++;
        st.exploredFailed += st.attemptExplored;
        break;
      case "solution":
        st.solutions++;
        st.s = st.attemptExplored;
        break;
    }
  },
  describe(st, e, t) {
    if (!e) return `start: ${t.m} random queens, then backtracking over the other rows`;
    const [, r, c] = e;
    switch (t.kinds[e[0]]) {
      case "attempt": return `attempt ${st.attempts}: an empty board`;
      case "draw": return `draw row ${r}, column ${c}: free, a random queen (${st.randomQ} of ${t.m})`;
      case "reject": return `draw row ${r}, column ${c}: attacked, rejected`;
      case "random": return `row ${r}: column ${c}, drawn among the free ones (${st.randomQ} of ${t.m})`;
      case "deadend": return r >= 1 ? `row ${r} has no free column: the attempt fails` : "the draws ran out: the attempt fails";
      case "backtrack": return `${st.randomQ} random queens: backtracking over the ${t.n - st.randomQ} other rows`;
      case "place": return `place row ${r}, column ${c}`;
      case "remove": return `remove row ${r}, column ${c}`;
      case "conflict": return `conflict at row ${r}, column ${c}`;
      case "fail": return "no completion: the attempt fails";
    }
    return `solution, at attempt ${st.attempts}`;
  },
  values(st) {
    const dash = "–";
    return {
      attempts: fmt(st.attempts), draws: fmt(st.draws), random: fmt(st.randomQ), nodes: fmt(st.nodes), checks: fmt(st.checks),
      explored: fmt(st.explored),
      // The exact table's terms, for this run so far: p = successes per attempt, s the
      // nodes explored by the successful attempt, e by a failed one on average, t in all
      // (at the end t = s + (1 − p)·e/p).
      p: st.attempts ? (st.solutions / st.attempts).toFixed(4) : dash,
      s: st.solutions ? fmt(st.s) : dash,
      e: st.failed ? (st.exploredFailed / st.failed).toFixed(2) : dash,
      t: fmt(st.explored),
    };
  },
  draw(st, e, t) {
    const kind = e ? t.kinds[e[0]] : "";
    const sq = e && e.length >= 4 ? [e[1] - 1, e[2] - 1] : null; // [kind, row, column, line]
    const marks = [];
    if (sq && (kind === "reject" || kind === "conflict")) marks.push([sq, COLOR.conflict]);
    if (sq && (kind === "draw" || kind === "random" || kind === "place")) marks.push([sq, COLOR.current]);
    paintReplayBoard($("replay-board"), t.n, {
      queens: st.board, attacked: squares(t.n) && t.n <= 16,
      queenColor: (r) => (st.random[r] ? COLOR.random : COLOR.queen),
      marks, badRow: kind === "deadend" && st.dead >= 0 ? st.dead : -1, solved: kind === "solution",
    });
    drawReplayCurve(t);
  },
  legend: `<span class="swatch random"></span> random queen <span class="swatch queen"></span> queen placed by backtracking
    <span class="swatch conflict"></span> attacked square (draw rejected, or check failed) <span class="swatch current"></span> last placed`,
};

// ---------------------------------------------------------------- Sosic–Gu

const localSearchModel = {
  counters: (t) => [["attempts", "attempts"], ["placed", "placed (j)"], ["conflicts", "k"], ["collisions", "collisions"],
    ["checks", t.check === "scan" ? "checks, O(j) scan" : "checks, O(1) check"],
    ["checks-other", t.check === "scan" ? "O(1) check: checks" : "O(j) scan: checks"],
    ["swaps", "swaps"], ["failed-swaps", "failed swaps"], ["restarts", "restarts"]],
  init(t) {
    const n = t.n, st = { q: new Int32Array(n), counted: new Uint8Array(n), anti: new Int32Array(2 * n), diag: new Int32Array(2 * n),
      j: 0, runs: 0, phase: "initial", attempts: 0, placedChecks: 0, scanChecks: 0, k: 0, collisions: 0, swaps: 0, failed: 0, restarts: 0 };
    for (let r = 0; r < n; r++) st.q[r] = r;
    return st;
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
    switch (kind) {
      case "run":
        if (st.runs > 0) st.restarts++;
        st.runs++;
        for (let r = 0; r < n; r++) st.q[r] = r;
        st.counted.fill(0);
        st.anti.fill(0);
        st.diag.fill(0);
        Object.assign(st, { j: 0, phase: "initial", collisions: 0 });
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
          st.k = n - st.j;
        }
        const tmp = st.q[i];
        st.q[i] = st.q[m];
        st.q[m] = tmp;
        this.count(st, n, i, 1);
        break;
      }
      case "final":
        st.phase = "final";
        st.k = n - st.j;
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
    if (!e) return "start: the identity permutation, no queen placed";
    const kind = t.kinds[e[0]];
    switch (kind) {
      case "run": return st.runs > 1 ? `restart ${st.restarts}: conflicts were left, back to the identity` : "step 1: place the queens row by row, trying random ones";
      case "try": {
        const [, j, m, placed, scan] = e;
        const cost = t.check === "scan" ? `the O(j) scan compared ${scan} placed queen${scan === 1 ? "" : "s"}` : `1 check (O(1)); the O(j) scan would compare ${scan}`;
        return `try row ${m}'s queen in row ${j}: ${placed ? "free, placed" : "on a diagonal of a placed queen, rejected"} (${cost})`;
      }
      case "shuffle": return `step 2: row ${e[1]} gets a random one of the ${t.n - e[1] + 1} columns left (k = ${st.k})`;
      case "final": return `step 3: every queen counted; ${st.collisions} collisions to repair`;
      case "swap": return `swap rows ${e[1]} and ${e[2]}: ${e[3] ? `kept, ${st.collisions} collisions left` : "a conflict would remain, undone"}`;
    }
    return "no conflict left: solved";
  },
  values: (st, t) => ({
    attempts: fmt(st.attempts), placed: fmt(st.j), conflicts: st.phase === "initial" ? "–" : fmt(st.k), collisions: fmt(st.collisions),
    checks: fmt(t.check === "scan" ? st.scanChecks : st.placedChecks), "checks-other": fmt(t.check === "scan" ? st.placedChecks : st.scanChecks),
    swaps: fmt(st.swaps), "failed-swaps": fmt(st.failed), restarts: fmt(st.restarts),
  }),
  draw(st, e, t) {
    const n = t.n, kind = e ? t.kinds[e[0]] : "";
    const marks = [], rows = [];
    if (kind === "try") {
      const [, j, m, placed, scan] = e;
      const col = placed ? st.q[j - 1] : st.q[m - 1];
      marks.push([[j - 1, col], placed ? COLOR.current : COLOR.conflict]);
      if (t.check === "scan" && scan > 0) rows.push([0, scan - 1, COLOR.scan]);
    }
    if (kind === "shuffle") marks.push([[e[1] - 1, st.q[e[1] - 1]], COLOR.current]);
    if (kind === "swap") {
      for (const r of [e[1] - 1, e[2] - 1]) marks.push([[r, st.q[r]], e[3] ? COLOR.current : COLOR.conflict]);
    }
    // A queen is in conflict when it is counted and shares a diagonal with another.
    const hit = (r) => st.counted[r] && (st.anti[r + st.q[r]] > 1 || st.diag[r - st.q[r] + n] > 1);
    paintReplayBoard($("replay-board"), n, {
      queens: st.q, marks, rows, solved: kind === "solved",
      queenColor: (r) => (!st.counted[r] ? COLOR.waiting : hit(r) ? COLOR.conflict : COLOR.queen),
    });
    paintDiagonals($("diag-bars"), n, st);
  },
  legend: `<span class="swatch queen"></span> queen placed <span class="swatch waiting"></span> not yet placed
    <span class="swatch conflict"></span> queen in conflict, or rejected square <span class="swatch current"></span> last move
    <span class="swatch scan"></span> queens the O(j) scan compares`,
};

// ---------------------------------------------------------------- the construction

const constructModel = {
  counters: () => [["rows", "rows placed"]],
  init: (t) => ({ cols: new Int32Array(t.n).fill(-1), rows: 0, solved: false }),
  apply(st, e) {
    if (e[0] === 0) {
      st.cols[e[1] - 1] = e[2] - 1;
      st.rows++;
    } else {
      st.solved = true;
    }
  },
  // describe says which list the column comes from (docs/algorithms.md §3.7): the even
  // columns, then the odd ones, with the fix-ups of n mod 6 = 2 or 3.
  describe(st, e, t) {
    const n = t.n, fix = { 2: " (n mod 6 = 2: 1 and 3 swapped, 5 moved to the end)", 3: " (n mod 6 = 3: 2, then 1 and 3, moved to the end)" }[n % 6] || "";
    if (!e) return `start: the even columns 2, 4, 6, … then the odd ones 1, 3, 5, …${fix}`;
    if (e[0] === 1) return "every row placed: verified, a solution";
    return `row ${e[1]}: column ${e[2]}, ${e[2] % 2 === 0 ? "an even" : "an odd"} column${fix}`;
  },
  values: (st) => ({ rows: fmt(st.rows) }),
  draw(st, e, t) {
    paintReplayBoard($("replay-board"), t.n, {
      queens: st.cols, queenColor: () => COLOR.queen, solved: st.solved,
      marks: e && e[0] === 0 ? [[[e[1] - 1, e[2] - 1], COLOR.current]] : [],
    });
  },
  legend: `<span class="swatch queen"></span> queen <span class="swatch current"></span> last placed`,
};

const MODELS = { backtrack: backtrackModel, lasvegas: lasVegasModel, localsearch: localSearchModel, construct: constructModel };

// ---------------------------------------------------------------- drawing

// paintReplayBoard draws a board of n with the queens of opt.queens (column per row, −1
// for none), each in opt.queenColor(row); opt.marks are [[row, col], colour] squares,
// opt.rows [from, to, colour] bands of rows, opt.badRow a row in red. Up to
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
    [["queens per diagonal (r − c)", diag, 1], ["queens per anti-diagonal (r + c)", anti, 0]].forEach(([label, arr, shift], i) => {
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
function drawReplayCurve(t) {
  const key = `${t.n}/${t.variant}`;
  const c = curves.get(key);
  if (c && !(c instanceof Promise)) {
    if (c.error) {
      $("replay-curve").hidden = true;
      $("replay-curve-title").textContent = c.error;
      return;
    }
    $("replay-curve").hidden = false;
    paint($("replay-curve"), () => plotReplayCurve(c, t.m));
    return;
  }
  if (c) return;
  const exact = t.n <= (t.variant === "row" ? limits.max_exact_row_n : limits.max_exact_cell_n);
  const q = new URLSearchParams({ n: t.n, variant: t.variant, exact });
  if (!exact && t.n > limits.max_sweep_n) {
    curves.set(key, { error: `no U curve here beyond n = ${limits.max_sweep_n} (nqueens lab lasvegas draws it)` });
  } else {
    curves.set(key, api("/api/lab/lasvegas?" + q).then((r) => r, (err) => ({ error: err.message })).then((r) => {
      curves.set(key, r);
      if (rp.trace && rp.trace.n === t.n && rp.trace.variant === t.variant) renderReplay();
    }));
  }
  $("replay-curve-title").textContent = "computing the U curve…";
}

function plotReplayCurve(r, m) {
  const vals = r.rows.map((row) => row.explored).filter((v) => v > 0);
  if (vals.length === 0) return;
  const { ctx, w, h, y } = chart($("replay-curve"), `nodes explored per solution against m, ${r.exact ? "exact" : `${r.trials} runs per m`}; the replay's m marked`,
    Math.min(...vals), Math.max(...vals), [["nodes explored (t)", COLOR.series[0]]]);
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
  const text = at ? `m = ${m}: t = ${at.explored.toFixed(2)}` : `m = ${m}`;
  ctx.fillText(text, within(x(m), ctx.measureText(text).width, PAD.l, w), PAD.t + 12);
  ctx.lineWidth = 1;
}

// ---------------------------------------------------------------- the player

// buildCounters lays out the counters of the model: the event position, then its own.
function buildCounters(model, t) {
  const dl = $("counters");
  while (dl.children.length > 1) dl.lastChild.remove();
  for (const [id, label] of model.counters(t)) {
    const div = document.createElement("div"), dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = label;
    dd.id = id;
    div.append(dt, dd);
    dl.append(div);
  }
}

function forward() {
  if (!rp.trace || rp.i >= rp.trace.events.length) return false;
  rp.model.apply(rp.st, rp.trace.events[rp.i++], rp.trace);
  return true;
}

// seek goes to position i: forward, or back by replaying from the start (the state of a
// model is built from the events alone).
function seek(i) {
  if (!rp.trace) return;
  i = Math.max(0, Math.min(i, rp.trace.events.length));
  if (i < rp.i) resetReplay();
  while (rp.i < i && forward());
}

function back() {
  if (!rp.trace || rp.i === 0) return false;
  seek(rp.i - 1);
  return true;
}

function renderReplay() {
  const t = rp.trace;
  if (!t) return;
  const e = rp.i > 0 ? t.events[rp.i - 1] : null;
  rp.model.draw(rp.st, e, t);
  $("ev-index").textContent = fmt(rp.i);
  $("ev-total").textContent = fmt(t.events.length);
  $("last-event").textContent = rp.model.describe(rp.st, e, t);
  for (const [id, v] of Object.entries(rp.model.values(rp.st, t))) {
    const el = $(id);
    if (el) el.textContent = v;
  }
  $("scrub").value = rp.i;
  $("step-back").disabled = rp.i === 0;
  $("step-fwd").disabled = rp.i === t.events.length;
  const panel = $("replay-panel");
  panel.dataset.state = rp.timer ? "playing" : rp.i === t.events.length ? "ended" : "paused";
  $("play").textContent = rp.timer ? "⏸ pause" : "▶ play";
}

// eventsPerSecond maps the speed slider (0..100) to 1..2000 events a second.
function eventsPerSecond() {
  return Math.round(Math.pow(10, (Number($("speed").value) / 100) * 3.3));
}

function play() {
  if (!rp.trace) return;
  if (rp.i === rp.trace.events.length) resetReplay();
  rp.last = performance.now();
  rp.acc = 0;
  rp.timer = setInterval(tick, 16);
  renderReplay();
}

function pause() {
  clearInterval(rp.timer);
  rp.timer = 0;
  renderReplay();
}

function tick() {
  const now = performance.now();
  rp.acc += ((now - rp.last) / 1000) * eventsPerSecond();
  rp.last = now;
  let steps = Math.floor(rp.acc);
  rp.acc -= steps;
  while (steps-- > 0) {
    if (!forward()) {
      pause();
      return;
    }
  }
  renderReplay();
}

function resetReplay() {
  rp.i = 0;
  rp.st = rp.model.init(rp.trace);
}

// showControls shows the inputs that the chosen search takes, with their limits.
function showControls() {
  const model = SEARCHES[$("search").value].model;
  for (const el of document.querySelectorAll("#trace-form [data-for]")) {
    el.hidden = !el.dataset.for.split(" ").includes(model);
  }
  $("trace-n").max = model === "backtrack" ? limits.max_trace_n : limits.max_replay_n;
  $("trace-m").max = $("trace-n").value;
  $("diag-bars").hidden = model !== "localsearch";
  $("replay-curve-box").hidden = model !== "lasvegas";
}

async function loadTrace(ev) {
  ev?.preventDefault();
  pause();
  try {
    const choice = SEARCHES[$("search").value];
    const q = new URLSearchParams({ ...choice.q, n: $("trace-n").value });
    if (choice.model === "backtrack") q.set("until", $("until").value);
    if (choice.model === "lasvegas") q.set("m", $("trace-m").value);
    if (choice.model === "localsearch") q.set("check", $("check").value);
    if (choice.model !== "backtrack" && $("trace-seed").value !== "") q.set("seed", $("trace-seed").value);
    status("replay-status", "tracing…");
    const t = await api("/api/trace?" + q);
    rp.trace = t;
    rp.model = MODELS[choice.model];
    buildCounters(rp.model, t);
    $("replay-legend").innerHTML = rp.model.legend;
    resetReplay();
    $("scrub").max = t.events.length;
    const why = t.stopped === "" ? "the whole search" : `stopped at the ${t.stopped}`;
    const seed = t.seed !== undefined ? `, seed ${t.seed}` : "";
    const end = {
      backtrack: () => `${fmt(t.nodes)} nodes, ${fmt(t.checks)} checks`,
      lasvegas: () => `${fmt(t.attempts)} attempts, ${fmt(t.explored)} nodes explored, ${fmt(t.checks)} checks`,
      localsearch: () => `${fmt(t.attempts)} attempts, k = ${fmt(t.conflicts)}, ${fmt(t.swaps)} swaps, ${fmt(t.restarts)} restarts, ${fmt(t.checks)} checks`,
      construct: () => `${fmt(t.rows)} rows placed${t.verified ? ", verified" : ""}`,
    }[choice.model]();
    status("replay-status", `${t.title}, n = ${t.n}${t.m !== undefined ? `, m = ${t.m}` : ""}${seed}: ${fmt(t.events.length)} events (${why}); at the end ${end}`);
    renderReplay();
  } catch (e) {
    status("replay-status", e.message, true);
  }
}

function scrubTo(target) {
  pause();
  seek(target);
  renderReplay();
}

// startReplay wires the panel's controls; app.js calls it once the limits are known.
function startReplay() {
  $("trace-form").addEventListener("submit", loadTrace);
  $("search").addEventListener("change", showControls);
  $("trace-n").addEventListener("input", () => ($("trace-m").max = $("trace-n").value));
  $("play").addEventListener("click", () => (rp.timer ? pause() : play()));
  $("step-fwd").addEventListener("click", () => {
    pause();
    forward();
    renderReplay();
  });
  $("step-back").addEventListener("click", () => {
    pause();
    back();
    renderReplay();
  });
  $("scrub").addEventListener("input", () => scrubTo(Number($("scrub").value)));
  const speed = () => ($("speed-text").textContent = `${eventsPerSecond()} events/s`);
  $("speed").addEventListener("input", speed);
  speed();
  showControls();
}
