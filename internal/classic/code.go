package classic

import "github.com/nqueens/nqueens/internal/pseudo"

// The programs of the four searches, as the web board shows them beside a replay
// (package pseudo), and the lines that report each step: every Tracer call names one.
// Rows and columns are 1-based in the programs, as on the board.

func t(en, zh string) pseudo.Text { return pseudo.Text{En: en, Zh: zh} }

// The lines of Classic's program that report a step.
const (
	classicSolution = 2
	classicPlace    = 6
	classicRemove   = 7
	classicCompare  = 10
	classicConflict = 11
)

// ClassicCode is §3.1: Backtrack and Place of the seed, Place comparing with every queen above.
var ClassicCode = pseudo.Code{Name: "classic", Lines: []pseudo.Line{
	{Code: "Backtrack(t):", Comment: t("put a queen in row t; rows 1..t−1 hold one each", "在第 t 行放一个皇后；第 1..t−1 行已各有一个"), Next: []int{2}},
	{Code: "  if t > n: sum = sum + 1; return", Comment: t("every row holds a queen: one more solution", "每一行都有皇后了：又找到一个解"),
		Event: "solution", Next: []int{0}, Else: []int{3}},
	{Code: "  for i = 1 to n:", Comment: t("try the columns of row t in order", "按顺序尝试第 t 行的每一列"), Next: []int{4, 0}},
	{Code: "    x[t] = i", Next: []int{5}},
	{Code: "    if Place(t):", Comment: t("compare with the queens of rows 1..t−1: O(t)", "与第 1..t−1 行的皇后逐个比较：O(t)"), Call: 8, Next: []int{6, 3}},
	{Code: "      Backtrack(t + 1)", Comment: t("(t, i) is not attacked: go down to row t + 1", "(t, i) 不受攻击：进入第 t + 1 行"),
		Event: "place", Call: 1, Next: []int{7}},
	{Code: "      x[t] = 0", Comment: t("back from row t + 1: the queen comes off, try the next column", "从第 t + 1 行回溯：拿走皇后，尝试下一列"),
		Event: "remove", Next: []int{3}},
	{Code: "Place(k):", Comment: t("may the queen of row k stand in column x[k]?", "第 k 行的皇后能放在第 x[k] 列吗？"), Next: []int{9}},
	{Code: "  for j = 1 to k − 1:", Comment: t("the queens above, one row after another: at most k − 1 comparisons, O(k)", "上面的皇后，一行接一行：最多比较 k − 1 次，O(k)"), Next: []int{10, 12}},
	{Code: "    if x[j] = x[k] or |x[j] − x[k]| = k − j:",
		Comment: t("compare with the queen of row j: the same column, or a diagonal (as many rows apart as columns)?", "与第 j 行的皇后比较：同一列，或在同一条对角线上（行差等于列差）？"),
		Event:   "compare", Next: []int{11, 9}},
	{Code: "      return false", Comment: t("the queen of row j attacks it", "第 j 行的皇后攻击它"),
		Event: "conflict", Next: []int{0}},
	{Code: "  return true", Comment: t("no queen above attacks it", "上面的皇后都不攻击它"), Next: []int{0}},
}}

// The lines of RowDFS's program that report a step.
const (
	rowSolution = 2
	rowConflict = 4
	rowPlace    = 5
	rowRemove   = 7
)

// RowCode is §3.2: the row DFS with its O(1) arrays of taken columns and diagonals.
var RowCode = pseudo.Code{Name: "row", Lines: []pseudo.Line{
	{Code: "dfs(u):", Comment: t("fill row u; rows 1..u−1 hold a queen each", "填第 u 行；第 1..u−1 行已各有一个皇后"), Next: []int{2}},
	{Code: "  if u > n: ans = ans + 1; return", Comment: t("every row holds a queen: one more solution", "每一行都有皇后了：又找到一个解"),
		Event: "solution", Next: []int{0}, Else: []int{3}},
	{Code: "  for j = 1 to n:", Comment: t("the columns of row u, in order", "按顺序尝试第 u 行的每一列"), Next: []int{4, 0}},
	{Code: "    if col[j] or diag[u − j + n] or anti[u + j]: continue",
		Comment: t("O(1): three array entries say whether the column or a diagonal of (u, j) is taken", "O(1)：查三个数组，看 (u, j) 的列或两条对角线是否已被占用"),
		Event:   "conflict", Next: []int{3}, Else: []int{5}},
	{Code: "    col[j] = diag[u − j + n] = anti[u + j] = true", Comment: t("put the queen on (u, j): its lines are taken", "在 (u, j) 放皇后：占用它的列和两条对角线"),
		Event: "place", Next: []int{6}},
	{Code: "    dfs(u + 1)", Comment: t("go down to row u + 1", "进入第 u + 1 行"), Call: 1, Next: []int{7}},
	{Code: "    col[j] = diag[u − j + n] = anti[u + j] = false", Comment: t("back: the queen comes off, its lines are free again", "回溯：拿走皇后，释放它的列和对角线"),
		Event: "remove", Next: []int{3}},
}}

// cellLines are the lines of a cell search's program that report a step.
type cellLines struct{ prune, solution, conflict, place, remove int }

var (
	cellLinesPlain  = cellLines{solution: 2, conflict: 5, place: 6, remove: 8}
	cellLinesPruned = cellLines{prune: 2, solution: 3, conflict: 6, place: 7, remove: 9}
)

// cellBody is the loop of both cell searches, from line first on.
func cellBody(first int) []pseudo.Line {
	f := first
	return []pseudo.Line{
		{Code: "  for k = pos to n² − 1:", Comment: t("every cell from pos on, row by row", "从第 pos 格起逐格尝试，一行接一行"), Next: []int{f + 1, 0}},
		{Code: "    x = ⌊k / n⌋ + 1; y = k mod n + 1", Comment: t("cell k is row x, column y", "第 k 格在第 x 行第 y 列"), Next: []int{f + 2}},
		{Code: "    if row[x] or col[y] or diag[x − y + n] or anti[x + y]: continue",
			Comment: t("O(1): its row, its column or a diagonal is taken", "O(1)：它的行、列或一条对角线已被占用"),
			Event:   "conflict", Next: []int{f}, Else: []int{f + 3}},
		{Code: "    row[x] = col[y] = diag[x − y + n] = anti[x + y] = true", Comment: t("put a queen on (x, y)", "在 (x, y) 放皇后"),
			Event: "place", Next: []int{f + 4}},
		{Code: "    dfs(k + 1, cnt + 1)", Comment: t("go on from the next cell", "从下一格继续"), Call: 1, Next: []int{f + 5}},
		{Code: "    row[x] = col[y] = diag[x − y + n] = anti[x + y] = false", Comment: t("back: the queen comes off", "回溯：拿走皇后"),
			Event: "remove", Next: []int{f}},
	}
}

func cellHead(comment pseudo.Text) pseudo.Line {
	return pseudo.Line{Code: "dfs(pos, cnt):", Comment: comment, Next: []int{2}}
}

func cellSolution(line int) pseudo.Line {
	return pseudo.Line{Code: "  if cnt = n: ans = ans + 1; return", Comment: t("n queens on the board: one more solution", "棋盘上已有 n 个皇后：又找到一个解"),
		Event: "solution", Next: []int{0}, Else: []int{line + 1}}
}

// CellCode is §3.3: the cell DFS, which visits every set of queens that attack no other.
var CellCode = pseudo.Code{Name: "cell", Lines: append([]pseudo.Line{
	cellHead(t("the cells before pos are decided; cnt queens are on the board", "第 pos 格之前的格子都已决定；棋盘上有 cnt 个皇后")),
	cellSolution(2),
}, cellBody(3)...)}

// CellPruneCode is §3.4: the cell DFS that returns from a node with an empty row above it.
var CellPruneCode = pseudo.Code{Name: "cellprune", Lines: append([]pseudo.Line{
	cellHead(t("the cells before pos are decided; cnt queens are on the board", "第 pos 格之前的格子都已决定；棋盘上有 cnt 个皇后")),
	{Code: "  if not all(row[1 .. ⌊pos / n⌋]): return",
		Comment: t("a row above cell pos is empty and can never get a queen: prune", "第 pos 格之上还有空行，它再也放不上皇后了：剪枝"),
		Event:   "prune", Next: []int{0}, Else: []int{3}},
	cellSolution(3),
}, cellBody(4)...)}
