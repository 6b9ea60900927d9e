// The nqueens page: the board, the replay of a search (replay.js) and the lab figures,
// drawn on canvases from the JSON API of the same server, in English or Chinese
// (i18n.js). The page's state (its panel and what the panel shows, the replay's event
// included) lives in the address: a reload, back and forward, or a link pasted elsewhere
// show the same. Plain JavaScript, no dependencies.
"use strict";

const $ = (id) => document.getElementById(id);

// The colours of the board; the browser tests look for them in screenshots.
const COLOR = {
  light: "#eeeed2",
  dark: "#769656",
  queen: "#1f2430",
  ring: "#f5f1e3",
  conflict: "#d62828",
  attacked: "#9aa3b5",
  current: "#f4b400",
  solution: "#2e7d32",
  random: "#1565c0", // a queen the Las Vegas hybrid placed at random
  waiting: "#b9bfcc", // a queen the local search has not placed yet
  scan: "#7e57c2", // the rows the O(j) scan compares
  ink: "#1f2430",
  grid: "#dde1e8",
  series: ["#1565c0", "#e07b00"],
};

const fmt = (v) => Math.round(v).toLocaleString("en-US");

// limits mirrors /api/limits; these defaults hold until it answers.
let limits = { max_drawn_n: 40, max_solve_n: 1e7, max_enumerate_n: 32, max_count_n: 16, max_trace_n: 12, max_replay_n: 1000,
  max_lab_n: 10, max_sweep_n: 40, max_exact_row_n: 10, max_exact_cell_n: 7, max_trials: 100 };

// The page's sampled U curves: trials per m (the replay's; the lab tab has a field) and a
// fixed seed, so that a curve drawn again is the same (the API's defaults are the
// command's: 100 trials, a random seed).
const SWEEP_TRIALS = 30;
const SWEEP_SEED = 1;

// PageError is an error of the page's own, said in the page's language.
class PageError extends Error {
  constructor(key, ...args) {
    super(tr(key, ...args));
    this.key = key;
    this.args = args;
  }
}

// ApiError is an error the server answered: its message (in English, the API's
// language), its HTTP status and the cap the request went past, if any.
class ApiError extends Error {
  constructor(status, body) {
    super(body.error || `HTTP ${status}`);
    this.status = status;
    this.limit = body.limit;
  }
}

// api fetches a JSON endpoint and throws the server's error (an ApiError) on failure.
async function api(path, init) {
  const r = await fetch(path, init);
  let body;
  try {
    body = await r.json();
  } catch {
    body = { error: `HTTP ${r.status}` };
  }
  if (!r.ok) throw new ApiError(r.status, body);
  return body;
}

// errorText says an error in the page's language: the page's own in full, the server's
// by its kind (i18n.js's serverError); a failed fetch is an error of its own.
function errorText(e) {
  return () => (e.key ? tr(e.key, ...e.args) : tr("serverError", e instanceof ApiError ? e : { message: e.message }));
}

function status(id, text, isError) {
  const el = $(id);
  setText(el, text);
  el.classList.toggle("error", !!isError);
}

// setupCanvas sizes a canvas for the device's pixels at the size it is shown (its width
// and height attributes give the largest size and the shape; CSS shrinks it on a narrow
// screen) and returns a context drawing in CSS pixels, with that width and height. The
// texts drawn on it are kept in canvasText[id], for the tests of the page's languages.
const canvasText = {};
function setupCanvas(c) {
  if (!c.dataset.w) {
    c.dataset.w = c.width;
    c.dataset.h = c.height;
  }
  const w0 = +c.dataset.w, h0 = +c.dataset.h, dpr = window.devicePixelRatio || 1;
  const w = c.getBoundingClientRect().width || w0; // 0 while hidden
  const h = (w * h0) / w0;
  c.width = Math.round(w * dpr);
  c.height = Math.round(h * dpr);
  const ctx = c.getContext("2d");
  ctx.setTransform(c.width / w, 0, 0, c.height / h, 0, 0);
  canvasText[c.id] = [];
  if (!ctx.recorded) {
    const fill = ctx.fillText.bind(ctx);
    ctx.fillText = (s, ...rest) => {
      canvasText[c.id].push(String(s));
      fill(s, ...rest);
    };
    ctx.recorded = true;
  }
  return { ctx, w, h };
}

// paint draws a canvas with draw() and draws it again with the same function when the
// window's width or the language changes, or its panel is shown, so that it stays sharp
// at the size it is shown.
const painters = new Map(); // canvas → its last drawing function
function paint(canvas, draw) {
  painters.set(canvas, draw);
  draw();
}

let shownWidth = 0;
function repaint(force) {
  if (!force && window.innerWidth === shownWidth) return;
  shownWidth = window.innerWidth;
  for (const [canvas, draw] of painters) {
    if (canvas.isConnected && canvas.getClientRects().length > 0) draw();
  }
}

// ---------------------------------------------------------------- drawing a board

// drawBoard draws n×n squares with the queens of cols (0-based column per row, -1 for an
// empty row). opt.attacked shades the squares the queens attack; opt.conflict and
// opt.current are [row, col] squares painted red and amber; opt.attacker the queen whose
// attack made the check of opt.conflict fail, ringed, with its line; opt.compared a queen
// ringed in violet (the one classic's Place compares); opt.pinned squares framed in blue
// (the fixed queens of a custom start); opt.badRow is a row shaded red;
// opt.solved frames the board.
function drawBoard(canvas, n, cols, opt = {}) {
  cols = Array.from(cols); // as it is now: a replay changes its array as it goes
  paint(canvas, () => paintBoard(canvas, n, cols, opt));
}

function paintBoard(canvas, n, cols, opt) {
  const { ctx, w } = setupCanvas(canvas);
  const cell = w / n;
  const x = (c) => Math.round(c * cell), sz = (c) => Math.round((c + 1) * cell) - Math.round(c * cell);
  const attacked = (r, c) => {
    for (let q = 0; q < n; q++) {
      const k = cols[q];
      if (!(k >= 0) || q === r) continue;
      if (k === c || q - k === r - c || q + k === r + c) return true;
    }
    return false;
  };
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      ctx.fillStyle = (r + c) % 2 === 0 ? COLOR.light : COLOR.dark;
      ctx.fillRect(x(c), x(r), sz(c), sz(r));
      if (opt.attacked && cols[r] !== c && attacked(r, c)) {
        ctx.fillStyle = COLOR.attacked;
        ctx.globalAlpha = 0.7;
        ctx.fillRect(x(c), x(r), sz(c), sz(r));
        ctx.globalAlpha = 1;
      }
    }
  }
  if (opt.badRow >= 0) {
    ctx.fillStyle = COLOR.conflict;
    ctx.globalAlpha = 0.35;
    ctx.fillRect(0, x(opt.badRow), w, sz(opt.badRow));
    ctx.globalAlpha = 1;
  }
  for (const [sq, color] of [[opt.current, COLOR.current], [opt.conflict, COLOR.conflict]]) {
    if (sq) {
      ctx.fillStyle = color;
      ctx.fillRect(x(sq[1]), x(sq[0]), sz(sq[1]), sz(sq[0]));
    }
  }
  for (let r = 0; r < n; r++) {
    if (cols[r] >= 0) drawQueen(ctx, (cols[r] + 0.5) * cell, (r + 0.5) * cell, cell);
  }
  if (opt.attacker && opt.conflict) drawAttack(ctx, cell, opt.attacker, opt.conflict);
  if (opt.compared) drawRing(ctx, cell, opt.compared, COLOR.scan);
  for (const sq of opt.pinned || []) drawPin(ctx, cell, sq);
  if (opt.solved) {
    ctx.strokeStyle = COLOR.solution;
    ctx.lineWidth = 6;
    ctx.strokeRect(3, 3, w - 6, w - 6);
  }
}

// drawPin frames the square sq ([row, col]) in blue: a fixed queen's, where a custom
// start keeps it.
function drawPin(ctx, cell, sq) {
  ctx.strokeStyle = COLOR.random;
  ctx.lineWidth = Math.max(2, cell * 0.08);
  const w = ctx.lineWidth / 2;
  ctx.strokeRect(sq[1] * cell + w, sq[0] * cell + w, cell - 2 * w, cell - 2 * w);
}

// drawRing rings the queen at sq ([row, col]) in color: the queen classic's Place compares.
function drawRing(ctx, cell, sq, color) {
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(2, cell * 0.07);
  ctx.beginPath();
  ctx.arc((sq[1] + 0.5) * cell, (sq[0] + 0.5) * cell, cell * 0.46, 0, 2 * Math.PI);
  ctx.stroke();
}

// drawAttack rings the queen at from ([row, col]) and draws the line of its attack to the
// square to, in red, from the ring's edge.
function drawAttack(ctx, cell, from, to) {
  const [fx, fy, tx, ty] = [(from[1] + 0.5) * cell, (from[0] + 0.5) * cell, (to[1] + 0.5) * cell, (to[0] + 0.5) * cell];
  const d = Math.hypot(tx - fx, ty - fy), r = cell * 0.46;
  ctx.strokeStyle = COLOR.conflict;
  ctx.lineWidth = Math.max(2, cell * 0.07);
  ctx.beginPath();
  ctx.arc(fx, fy, r, 0, 2 * Math.PI);
  ctx.stroke();
  if (d > r) {
    ctx.beginPath();
    ctx.moveTo(fx + ((tx - fx) * r) / d, fy + ((ty - fy) * r) / d);
    ctx.lineTo(tx, ty);
    ctx.stroke();
  }
  ctx.lineWidth = 1;
}

// drawQueen draws a queen as a disc (dark, or of the colour given) with a light ring,
// solid at its centre.
function drawQueen(ctx, cx, cy, cell, color = COLOR.queen) {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(cx, cy, cell * 0.36, 0, 2 * Math.PI);
  ctx.fill();
  if (cell >= 14) {
    ctx.strokeStyle = COLOR.ring;
    ctx.lineWidth = Math.max(1, cell * 0.05);
    ctx.beginPath();
    ctx.arc(cx, cy, cell * 0.26, 0, 2 * Math.PI);
    ctx.stroke();
  }
}

// ---------------------------------------------------------------- the board panel

// shown is the placement on the board: 0-based columns, and how it came there; request
// is what the address records of it (a solve, or a solution of the enumeration).
const shown = { n: 0, cols: null, mode: "none", index: -1, unique: false, hasNext: false, classSize: 0, request: null };
const totals = new Map(); // n → {total, unique} from /api/count

function showPlacement(n, cols, label) {
  shown.n = n;
  shown.cols = cols;
  $("board").hidden = false;
  $("summary").hidden = true;
  drawBoard($("board"), n, cols);
  const placed = cols.map((c, r) => [r + 1, c + 1]);
  setLabel($("board"), () => tr("boardText", n, placed));
  setText($("columns"), () => tr("columns") + cols.map((c) => c + 1).join(" "));
  status("board-status", label);
  updateBoardButtons();
}

function updateBoardButtons() {
  const drawn = shown.cols !== null;
  for (const b of document.querySelectorAll("#symmetries button")) b.disabled = !drawn;
  $("prev").disabled = shown.mode === "enum" && shown.index <= 0;
  $("next").disabled = shown.mode === "enum" && !shown.hasNext;
  // A placement that did not come from the enumeration has no index in it: stepping
  // starts from solution 1, and the page says so before the click.
  $("step-note").hidden = shown.mode === "enum" || shown.mode === "none";
}

function boardN() {
  const n = Number($("n").value);
  if (!Number.isInteger(n) || n < 1) throw new PageError("badN");
  return n;
}

async function solve(ev, push = true) {
  ev?.preventDefault();
  try {
    const n = boardN();
    const q = new URLSearchParams({ n, algorithm: $("algo").value });
    if ($("seed").value !== "") q.set("seed", $("seed").value);
    status("board-status", () => tr("solving"));
    const r = await api("/api/solve?" + q);
    shown.mode = "solve";
    shown.request = { n: String(n), algorithm: $("algo").value, seed: $("seed").value };
    const k = r.conflicts ?? r.k;
    const line = () => tr("solved", r, k);
    if (r.n <= limits.max_drawn_n) {
      showPlacement(r.n, r.columns.map((c) => c - 1), line);
    } else {
      showSummary(r, line);
    }
    writeURL(push);
  } catch (e) {
    status("board-status", errorText(e), true);
  }
}

function showSummary(r, line) {
  shown.n = r.n;
  shown.cols = null;
  $("board").hidden = true;
  $("summary").hidden = false;
  const rows = [["n", () => fmt(r.n)], ["sumAlgorithm", () => tr("algoName", r.algorithm)], ["seed", () => String(r.seed)], ["sumTime", () => seconds(r.seconds)]];
  if (r.algorithm === "localsearch") {
    rows.push(["sumK", () => fmt(r.conflicts ?? r.k ?? 0)], ["sumRestarts", () => fmt(r.restarts || 0)],
      ["sumAttempts", () => fmt(r.attempts || 0)], ["sumSwaps", () => fmt(r.swaps ?? r.final_swaps ?? 0)]);
  }
  rows.push(["sumVerified", () => tr(r.verified ? "yes" : "no")]);
  const dl = $("summary-list");
  dl.replaceChildren();
  for (const [k, v] of rows) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    setText(dt, k === "n" ? "n" : () => tr(k));
    setText(dd, v);
    dl.append(dt, dd);
  }
  $("download").href = r.download;
  setText($("columns"), () => (r.columns ? tr("firstColumns") + r.columns.slice(0, 20).join(" ") + " …" : ""));
  status("board-status", line);
  updateBoardButtons();
}

// step shows the solution after (+1) or before (−1) the one shown, in lexicographic order;
// at, when given, is the index to show.
async function step(dir, at, push = true) {
  try {
    const n = boardN();
    const unique = $("unique").checked;
    if (n > limits.max_enumerate_n) throw new PageError("enumLimit", limits.max_enumerate_n);
    let index = 0;
    if (at !== undefined) index = at;
    else if (shown.mode === "enum" && shown.n === n && shown.unique === unique) index = Math.max(0, shown.index + dir);
    status("board-status", () => tr("searching"));
    const r = await api(`/api/solutions?n=${n}&index=${index}&unique=${unique}`);
    Object.assign(shown, { mode: "enum", index: r.index, unique, hasNext: r.has_next, classSize: r.class_size || 0 });
    shown.request = { n: String(n), index: String(r.index), unique };
    const t = await total(n);
    showPlacement(n, r.columns.map((c) => c - 1), () => tr("enumerated", n, r, unique, t));
    writeURL(push);
  } catch (e) {
    status("board-status", errorText(e), true);
  }
}

// total returns the counts of n, or null when n is beyond the count's cap or the count
// failed (the solution is shown all the same).
async function total(n) {
  if (n > limits.max_count_n) return null;
  if (!totals.has(n)) {
    try {
      totals.set(n, await api(`/api/count?n=${n}`));
    } catch {
      return null;
    }
  }
  return totals.get(n);
}

async function transform(sym, canonical) {
  if (!shown.cols) return;
  try {
    const r = await api("/api/transform", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ columns: shown.cols.map((c) => c + 1), symmetry: sym }),
    });
    const cols = (canonical ? r.canonical : r.columns).map((c) => c - 1);
    shown.mode = shown.mode === "enum" ? "enum" : "transformed";
    showPlacement(r.n, cols, () => tr("transformed", canonical ? "canonical" : r.symmetry, r.class_size));
  } catch (e) {
    status("board-status", errorText(e), true);
  }
}

// ---------------------------------------------------------------- charts

// A chart's frame: the axes are pad from the canvas's edges, and the data keep inset
// from the axes and from the edge, so that no point sits on an axis or on the border.
const PAD = { l: 64, r: 12, t: 30, b: 40 };
const INSET = 12;
const FONT = "13px 'DejaVu Sans', 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', sans-serif";
const SMALL = "11px 'DejaVu Sans', 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', sans-serif";

// logScale maps positive values to [y0, y1] on decades that cover lo..hi.
function logScale(lo, hi, y0, y1) {
  const a = Math.floor(Math.log10(lo)), b = Math.max(a + 1, Math.ceil(Math.log10(hi)));
  const f = (v) => y0 + ((Math.log10(v) - a) / (b - a)) * (y1 - y0);
  f.decades = [];
  for (let d = a; d <= b; d++) f.decades.push(Math.pow(10, d));
  return f;
}

function decadeLabel(v) {
  return v >= 1e6 || v < 1e-2 ? `1e${Math.round(Math.log10(v))}` : v >= 1 ? fmt(v) : String(v);
}

// compact writes a count in at most four characters and a suffix: 924k, 70M.
function compact(v) {
  for (const [d, u] of [[1e9, "G"], [1e6, "M"], [1e3, "k"]]) {
    if (v >= d) return `${+(v / d).toPrecision(v / d < 100 ? 2 : 3)}${u}`;
  }
  return fmt(v);
}

// chart sets up a chart on canvas: the frame with the decades of yScale (made from the y
// range it is given) and the legend. It returns the context, the canvas's size and the
// y scale.
function chart(canvas, lo, hi, items) {
  const { ctx, w, h } = setupCanvas(canvas);
  const y = logScale(lo, hi, h - PAD.b - INSET, PAD.t + INSET);
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, w, h);
  ctx.font = FONT;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const d of y.decades) {
    ctx.strokeStyle = COLOR.grid;
    ctx.beginPath();
    ctx.moveTo(PAD.l, y(d));
    ctx.lineTo(w - PAD.r, y(d));
    ctx.stroke();
    ctx.fillStyle = COLOR.ink;
    ctx.fillText(decadeLabel(d), PAD.l - 6, y(d));
  }
  ctx.textBaseline = "alphabetic";
  ctx.strokeStyle = COLOR.ink;
  ctx.beginPath();
  ctx.moveTo(PAD.l, PAD.t);
  ctx.lineTo(PAD.l, h - PAD.b);
  ctx.lineTo(w - PAD.r, h - PAD.b);
  ctx.stroke();
  legend(ctx, PAD.l, 16, items);
  return { ctx, w, h, y };
}

function legend(ctx, x, y, items) {
  ctx.textAlign = "left";
  for (const [label, color] of items) {
    ctx.fillStyle = color;
    ctx.fillRect(x, y - 9, 12, 10);
    ctx.fillStyle = COLOR.ink;
    ctx.fillText(label, x + 16, y);
    x += ctx.measureText(label).width + 36;
  }
}

// within returns x moved so that a text of width tw centred on it stays in [lo, hi].
function within(x, tw, lo, hi) {
  return Math.min(Math.max(x, lo + tw / 2), hi - tw / 2);
}

async function drawCurve(ev, push = true) {
  ev?.preventDefault();
  try {
    const exact = $("exact").checked;
    const q = new URLSearchParams({ n: $("curve-n").value, variant: $("variant").value, exact, objective: $("objective").value });
    if (!exact) {
      q.set("trials", $("trials").value);
      q.set("seed", SWEEP_SEED);
    }
    status("curve-status", () => tr(exact ? "computingExact" : "sampling"));
    const r = await api("/api/lab/lasvegas?" + q);
    setText($("ucurve-title"), () => tr("ucurveTitle", r.variant, r.n));
    paint($("ucurve"), () => plotCurve(r));
    const o = r.optimum >= 0 ? r.rows[r.optimum] : null;
    status("curve-status", () => tr("curveStatus", r, o));
    writeURL(push);
  } catch (e) {
    status("curve-status", errorText(e), true);
  }
}

function plotCurve(r) {
  const series = [["gExplored", "explored"], ["gChecks", "checks"]];
  const vals = r.rows.flatMap((row) => series.map(([, k]) => row[k])).filter((v) => v > 0);
  if (vals.length === 0) return;
  const { ctx, w, h, y } = chart($("ucurve"), Math.min(...vals), Math.max(...vals), series.map(([label], s) => [tr(label), COLOR.series[s]]));
  const maxM = Math.max(1, r.rows[r.rows.length - 1].m);
  const x0 = PAD.l + INSET, x1 = w - PAD.r - INSET;
  const x = (m) => x0 + (m / maxM) * (x1 - x0);
  // Label every m, or every 2nd, 5th, 10th…: about one label per 28 pixels.
  const room = Math.max(1, Math.floor((x1 - x0) / 28));
  const every = [1, 2, 5, 10, 20, 50].find((k) => maxM / k <= room) || 100;
  ctx.textAlign = "center";
  ctx.fillStyle = COLOR.ink;
  for (const row of r.rows) {
    if (row.m % every === 0) ctx.fillText(String(row.m), x(row.m), h - PAD.b + 16);
  }
  ctx.fillText("m", (x0 + x1) / 2, h - 6);
  series.forEach(([, key], s) => {
    ctx.strokeStyle = ctx.fillStyle = COLOR.series[s];
    ctx.lineWidth = 2;
    ctx.beginPath();
    let pen = false;
    for (const row of r.rows) {
      const v = row[key];
      if (!(v > 0) || row.lower_bound) {
        pen = false;
        continue;
      }
      pen ? ctx.lineTo(x(row.m), y(v)) : ctx.moveTo(x(row.m), y(v));
      pen = true;
    }
    ctx.stroke();
    for (const row of r.rows) {
      const v = row[key];
      if (!(v > 0)) continue;
      ctx.beginPath();
      ctx.arc(x(row.m), y(v), 3.5, 0, 2 * Math.PI);
      row.lower_bound ? ctx.stroke() : ctx.fill();
    }
  });
  // The optimum is marked on the series of the objective it minimises.
  const key = r.objective === "checks" ? "checks" : "explored";
  if (r.optimum >= 0) {
    const o = r.rows[r.optimum];
    ctx.strokeStyle = COLOR.conflict;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(x(o.m), y(o[key]), 8, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = COLOR.conflict;
    ctx.textAlign = "center";
    const text = tr("gOptimum", o.m);
    ctx.fillText(text, within(x(o.m), ctx.measureText(text).width, PAD.l, w), y(o[key]) - 14);
  }
  ctx.lineWidth = 1;
}

async function drawBars(ev, push = true) {
  ev?.preventDefault();
  try {
    status("bars-status", () => tr("runningSearches"));
    const r = await api(`/api/lab/backtrack?n=${$("bars-n").value}`);
    setText($("bars-title"), () => tr("barsTitle", r.n));
    paint($("bars"), () => plotBars(r));
    status("bars-status", () => tr("barsStatus", r.n, r.rows.map((x) => tr("barsRow", tr("short." + x.search), fmt(x.nodes), fmt(x.checks)))));
    writeURL(push);
  } catch (e) {
    status("bars-status", errorText(e), true);
  }
}

function plotBars(r) {
  const keys = [["gNodes", "nodes"], ["gChecks", "checks"]];
  const vals = r.rows.flatMap((row) => keys.map(([, k]) => row[k])).filter((v) => v > 0);
  if (vals.length === 0) return;
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...vals))));
  const { ctx, w, h, y } = chart($("bars"), lo, Math.max(...vals) * 1.5, keys.map(([label], s) => [tr(label), COLOR.series[s]]));
  const group = (w - PAD.l - PAD.r) / r.rows.length, bw = Math.min(56, group / 3);
  // When a value is wider than its half of the group, every value is written short, so
  // that the two of a group do not run into each other on a narrow screen.
  ctx.font = SMALL;
  const label = vals.some((v) => ctx.measureText(fmt(v)).width > group / 2 - 2) ? compact : fmt;
  ctx.font = FONT;
  r.rows.forEach((row, g) => {
    const cx = PAD.l + group * (g + 0.5);
    keys.forEach(([, key], s) => {
      const v = row[key];
      if (!(v > 0)) return;
      const x0 = cx + (s - 1) * bw, top = y(v);
      ctx.fillStyle = COLOR.series[s];
      ctx.fillRect(x0, top, bw - 2, h - PAD.b - top);
      ctx.fillStyle = COLOR.ink;
      ctx.textAlign = "center";
      ctx.font = SMALL;
      ctx.fillText(label(v), x0 + bw / 2 - 1, top - 4);
      ctx.font = FONT;
    });
    ctx.fillStyle = COLOR.ink;
    ctx.fillText(tr("short." + row.search), cx, h - PAD.b + 16);
  });
}

// ---------------------------------------------------------------- panels and the address

const PANELS = ["board", "replay", "lab"];
let panel = "board";
let starting = true; // the first loads do not write the address: it is being read

// showPanel shows one panel, its tab selected; push says whether the address joins the
// history.
function showPanel(name, push) {
  panel = name;
  for (const p of PANELS) {
    const tab = $("tab-" + p), on = p === name;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    $(p + "-panel").hidden = !on;
  }
  repaint(true);
  if (push !== undefined) writeURL(push);
}

// The form fields each panel keeps in the address, by parameter.
const FIELDS = {
  board: { n: "n", algorithm: "algo", seed: "seed" },
  lab: { curve_n: "curve-n", variant: "variant", objective: "objective", trials: "trials", bars_n: "bars-n" },
};

// state is the address of what the page shows: its language and panel, and the panel's
// parameters (a replay's: those of the loaded searches and the event shown).
function state() {
  const q = new URLSearchParams({ lang, panel });
  if (panel === "board" && shown.request) {
    for (const [k, v] of Object.entries(shown.request)) if (v !== "" && v !== false) q.set(k, v === true ? "1" : v);
  }
  if (panel === "replay" && rp.loaded) {
    const model = SEARCHES[rp.loaded.search].model, cmp = COMPARE[rp.loaded.compare];
    const takes = new Set([...TAKES[model], ...(cmp ? TAKES[SEARCHES[cmp.search].model] : [])]);
    q.set("search", rp.loaded.search);
    q.set("n", rp.loaded.n);
    if (takes.has("until")) q.set("until", rp.loaded.until);
    if (rp.loaded.fix) q.set("fix", rp.loaded.fix);
    if (takes.has("m")) q.set("m", rp.loaded.m);
    if (model === "localsearch") q.set("check", rp.loaded.check);
    if (takes.has("seed") && rp.loaded.seed !== "") q.set("seed", rp.loaded.seed);
    if (rp.loaded.compare) q.set("compare", rp.loaded.compare);
    q.set("event", String(rp.pos));
    // The player's speed, when it is not the slider's default.
    if ($("speed").value !== $("speed").defaultValue) q.set("speed", $("speed").value);
    if ($("quiz").checked) q.set("quiz", "1");
  }
  if (panel === "lab") {
    for (const [k, id] of Object.entries(FIELDS.lab)) q.set(k, $(id).value);
    q.set("exact", $("exact").checked ? "1" : "0");
  }
  return "?" + q;
}

// writeURL records the state in the address: a new entry of the history (push), or in
// place of the current one.
function writeURL(push) {
  if (starting) return;
  const url = state();
  if (url === location.search) return;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

// applyURL shows what the address says: the language, the panel and its parameters,
// loading what differs from what is shown. It returns when the panel is drawn.
async function applyURL() {
  const q = new URLSearchParams(location.search);
  const l = q.get("lang");
  if (l && l !== lang && STR[l]) setLang(l);
  const p = PANELS.includes(q.get("panel")) ? q.get("panel") : "board";
  showPanel(p);
  if (p === "board" && q.has("n")) {
    $("n").value = q.get("n");
    if (q.has("index")) {
      $("unique").checked = q.get("unique") === "1";
      await step(0, Math.max(0, Number(q.get("index")) || 0), false);
    } else {
      $("algo").value = q.get("algorithm") || "auto";
      $("seed").value = q.get("seed") || "";
      await solve(null, false);
    }
  }
  if (p === "replay" && q.has("search") && SEARCHES[q.get("search")]) {
    $("search").value = q.get("search");
    $("compare").value = COMPARE[q.get("compare")] ? q.get("compare") : "";
    for (const [k, id] of [["n", "trace-n"], ["until", "until"], ["m", "trace-m"], ["check", "check"]]) if (q.has(k)) $(id).value = q.get(k);
    $("trace-seed").value = q.get("seed") || "";
    $("trace-fix").value = q.get("fix") || "";
    const speed = Number(q.get("speed"));
    $("speed").value = q.has("speed") && speed >= 0 && speed <= 100 ? String(Math.round(speed)) : $("speed").defaultValue;
    $("speed").dispatchEvent(new Event("input"));
    $("quiz").checked = q.get("quiz") === "1";
    if (!$("quiz").checked) closeQuestion();
    showControls();
    const event = Math.max(0, Number(q.get("event")) || 0);
    const same = rp.loaded && rp.loaded.search === q.get("search") && rp.loaded.compare === (q.get("compare") || "") &&
      rp.loaded.seed === (q.get("seed") || rp.loaded.seed) && rp.loaded.query === loadedQuery();
    if (same) stepTo(event);
    else await loadTrace(null, event, false);
  }
  if (p === "lab" && q.has("curve_n")) {
    for (const [k, id] of Object.entries(FIELDS.lab)) if (q.has(k)) $(id).value = q.get(k);
    $("exact").checked = q.get("exact") !== "0";
    $("trials").disabled = $("exact").checked;
    await Promise.all([drawCurve(null, false), drawBars(null, false)]);
  }
}

// loadedQuery is the replay's form as it stands, to tell whether a trace must be loaded.
function loadedQuery() {
  return ["trace-n", "until", "trace-m", "check", "trace-fix"].map((id) => $(id).value).join("/");
}

// copyLink puts the address of this moment on the clipboard, and shows it.
async function copyLink() {
  writeURL(false);
  const url = location.href;
  $("link-box").hidden = false;
  $("link").value = url;
  $("link").select();
  try {
    await navigator.clipboard.writeText(url);
    setText($("link-status"), () => tr("linkCopied"));
  } catch {
    setText($("link-status"), () => tr("linkSelect"));
  }
}

// ---------------------------------------------------------------- start

async function start() {
  lang = initialLang();
  setLang(lang);
  $("lang").value = lang;
  $("lang").addEventListener("change", () => {
    setLang($("lang").value);
    try {
      localStorage.setItem("nqueens.lang", lang);
    } catch {
      // a browser that keeps nothing: the address still says it
    }
    writeURL(false);
  });
  $("copy-link").addEventListener("click", copyLink);
  const tabs = PANELS.map((p) => $("tab-" + p));
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => showPanel(PANELS[i], true));
    tab.addEventListener("keydown", (ev) => {
      const d = { ArrowRight: 1, ArrowLeft: -1, Home: -i, End: tabs.length - 1 - i }[ev.key];
      if (d === undefined) return;
      ev.preventDefault();
      const j = (i + d + tabs.length) % tabs.length;
      tabs[j].focus();
      showPanel(PANELS[j], true);
    });
  });
  $("solve-form").addEventListener("submit", solve);
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("unique").addEventListener("change", () => step(0));
  for (const b of document.querySelectorAll("#symmetries button")) {
    b.addEventListener("click", () => transform(b.dataset.sym, b.id === "canonical"));
  }
  $("curve-form").addEventListener("submit", drawCurve);
  $("exact").addEventListener("change", () => ($("trials").disabled = $("exact").checked));
  $("trials").disabled = $("exact").checked;
  $("bars-form").addEventListener("submit", drawBars);
  try {
    limits = await api("/api/limits");
  } catch (e) {
    status("board-status", errorText(e), true);
  }
  $("n").max = limits.max_solve_n;
  startReplay();
  $("bars-n").max = limits.max_lab_n;
  $("curve-n").max = limits.max_sweep_n;
  $("trials").max = limits.max_trials;
  shownWidth = window.innerWidth;
  window.addEventListener("resize", () => repaint(false));
  window.addEventListener("popstate", () => {
    starting = true;
    applyURL().finally(() => (starting = false));
  });
  updateBoardButtons();
  // Every panel is drawn as the page opens; the one the address names, as it says.
  const q = new URLSearchParams(location.search);
  const p = q.get("panel");
  const jobs = [applyURL()];
  if (!(p === "board" && q.has("n"))) jobs.push(solve(null, false));
  if (!(p === "replay" && q.has("search"))) jobs.push(loadTrace(null, 0, false));
  if (!(p === "lab" && q.has("curve_n"))) jobs.push(drawCurve(null, false), drawBars(null, false));
  await Promise.all(jobs);
  starting = false;
  writeURL(false);
  document.body.dataset.ready = "true";
}

// initialLang is the language the address asks for, else the one chosen before, else the
// browser's.
function initialLang() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && STR[q]) return q;
  try {
    const saved = localStorage.getItem("nqueens.lang");
    if (saved && STR[saved]) return saved;
  } catch {
    // no storage
  }
  return (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
}

start();
