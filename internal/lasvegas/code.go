package lasvegas

import "github.com/nqueens/nqueens/internal/pseudo"

// The programs of the two variants, as the web board shows them beside a replay (package
// pseudo), and the lines that report each step: every Tracer call names one. Rows and
// columns are 1-based in the programs, as on the board.

func t(en, zh string) pseudo.Text { return pseudo.Text{En: en, Zh: zh} }

// lines are the lines of a variant's program that report each step.
type lines struct {
	start, draw, reject, random, deadend, backtrack, place, remove, conflict, fail, solution int
}

var (
	rowLines  = lines{start: 3, random: 7, deadend: 6, backtrack: 9, solution: 10, fail: 11, conflict: 16, place: 17, remove: 19}
	cellLines = lines{start: 3, reject: 6, draw: 7, deadend: 8, backtrack: 10, solution: 11, fail: 12, conflict: 17, place: 18, remove: 20}
)

// tail is what both programs do once the random queens are down, from line f on: the
// empty rows E, first-fit backtracking over them, the solution or the next start.
func tail(f int) []pseudo.Line {
	b := f + 4 // Backtrack(i)
	return []pseudo.Line{
		{Code: "    E = {r : x[r] = 0}", Comment: t("the rows still empty", "仍然空着的行"), Next: []int{f + 1}},
		{Code: "    if Backtrack(1):", Comment: t("first-fit backtracking over the rows of E", "对 E 中的行做回溯（每行从第 1 列试起）"),
			Event: "backtrack", Call: b, Next: []int{f + 2, f + 3}},
		{Code: "      return x", Comment: t("a solution: the run ends", "找到一个解：算法结束"), Event: "solution", Next: []int{0}},
		{Code: "    continue repeat", Comment: t("no completion: this start fails, the next one begins", "无法补全：本次开局失败，再开一局"),
			Event: "fail", Next: []int{2}},
		{Code: "Backtrack(i):", Comment: t("fill E[i], E[i+1], … as the row DFS of §3.2 does", "像 §3.2 的按行搜索那样依次填 E[i]、E[i+1]、…"), Next: []int{b + 1}},
		{Code: "  if i > |E|: return true", Comment: t("every row holds a queen", "每一行都有皇后了"), Next: []int{0, b + 2}},
		{Code: "  r = E[i]", Next: []int{b + 3}},
		{Code: "  for c = 1 to n:", Next: []int{b + 4, b + 8}},
		{Code: "    if attacked(r, c): continue", Comment: t("a queen attacks (r, c): a failed check", "(r, c) 受到攻击：这次检查失败"),
			Event: "conflict", Next: []int{b + 3}, Else: []int{b + 5}},
		{Code: "    x[r] = c", Comment: t("put a queen on (r, c)", "在 (r, c) 放皇后"), Event: "place", Next: []int{b + 6}},
		{Code: "    if Backtrack(i + 1): return true", Comment: t("go on with the next empty row", "继续填下一个空行"), Call: b, Next: []int{0, b + 7}},
		{Code: "    x[r] = 0", Comment: t("back: the queen comes off", "回溯：拿走皇后"), Event: "remove", Next: []int{b + 3}},
		{Code: "  return false", Comment: t("no column of row r works", "第 r 行没有可用的列"), Next: []int{0}},
	}
}

var attackedNote = "attacked(r, c): a queen on column c or on a diagonal of (r, c), O(1) with arrays"
var attackedNoteZh = "attacked(r, c)：第 c 列或 (r, c) 的对角线上已有皇后，用数组 O(1) 判断"

// RowCode is the row variant, Brassard & Bratley's QueensLV: a random free column in each
// of the first m rows, then backtracking.
var RowCode = pseudo.Code{Name: "lasvegas-row", Lines: append([]pseudo.Line{
	{Code: "QueensLV(n, m):", Comment: t("m queens at random, row by row, then backtracking over the other rows",
		"前 m 行逐行随机放皇后，其余各行用回溯"), Next: []int{2}},
	{Code: "  repeat:", Comment: t("one start from the empty board (Las Vegas: until one succeeds)", "一次开局，从空棋盘开始（拉斯维加斯算法：直到成功为止）"), Next: []int{3}},
	{Code: "    x[1..n] = 0", Comment: t("an empty board", "清空棋盘"), Event: "start", Next: []int{4}},
	{Code: "    for r = 1 to m:", Comment: t("the random queens", "随机放置的皇后"), Next: []int{5, 8}},
	{Code: "      F = {c : not attacked(r, c)}", Comment: t("the free columns of row r: n checks; "+attackedNote, "第 r 行中不受攻击的列：检查 n 次；"+attackedNoteZh), Next: []int{6}},
	{Code: "      if F = ∅: continue repeat", Comment: t("no free column: this start fails", "没有空闲的列：本次开局失败"),
		Event: "deadend", Next: []int{2}, Else: []int{7}},
	{Code: "      x[r] = random(F)", Comment: t("a column drawn at random among the free ones", "从空闲的列中随机抽一列"), Event: "random", Next: []int{4}},
}, tail(8)...)}

// CellCode is the cell variant: m queens on squares drawn from the whole board, an
// attacked square rejected, then backtracking.
var CellCode = pseudo.Code{Name: "lasvegas-cell", Lines: append([]pseudo.Line{
	{Code: "LasVegas(n, m):", Comment: t("m queens on squares drawn at random, then backtracking over the empty rows",
		"在随机抽到的格子上放 m 个皇后，再对空行回溯"), Next: []int{2}},
	{Code: "  repeat:", Comment: t("one start from the empty board (Las Vegas: until one succeeds)", "一次开局，从空棋盘开始（拉斯维加斯算法：直到成功为止）"), Next: []int{3}},
	{Code: "    x[1..n] = 0; placed = 0", Comment: t("an empty board", "清空棋盘"), Event: "start", Next: []int{4}},
	{Code: "    for d = 1 to n² while placed < m:", Comment: t("at most n² draws", "最多抽 n² 次"), Next: []int{5, 8}},
	{Code: "      (r, c) = random(1..n, 1..n)", Comment: t("a square drawn at random: one check", "随机抽一个格子：检查一次"), Next: []int{6}},
	{Code: "      if x[r] ≠ 0 or attacked(r, c): continue", Comment: t("its row holds a queen, or a queen attacks it: rejected; "+attackedNote,
		"该行已有皇后，或它受到攻击：放弃；"+attackedNoteZh), Event: "reject", Next: []int{4}, Else: []int{7}},
	{Code: "      x[r] = c; placed = placed + 1", Comment: t("a random queen", "放下一个随机皇后"), Event: "draw", Next: []int{4}},
	{Code: "    if placed < m: continue repeat", Comment: t("the draws ran out: this start fails", "抽签次数用完：本次开局失败"),
		Event: "deadend", Next: []int{2}, Else: []int{9}},
}, tail(9)...)}
