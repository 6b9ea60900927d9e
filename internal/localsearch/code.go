package localsearch

import "github.com/nqueens/nqueens/internal/pseudo"

// The programs of Solve, as the web board shows them beside a replay (package pseudo): one
// with the solver's O(1) check of step 1, one with the O(j) scan of the original program,
// which make the same attempts and share their line numbers. Every Tracer call names the
// line that reports it. Rows are 1-based in the programs, as on the board.

func t(en, zh string) pseudo.Text { return pseudo.Text{En: en, Zh: zh} }

// The lines that report a step.
const (
	lineRun         = 3
	lineTryRejected = 6
	lineTryPlaced   = 7
	lineShuffle     = 9
	lineFinal       = 10
	lineSwapKept    = 14
	lineSwapFailed  = 15
	lineSolved      = 16
)

// code is the program with the given check of step 1 (lines 6 and 7).
func code(name string, check, place pseudo.Line) pseudo.Code {
	check.Event, check.Next, check.Else = "try", []int{4}, []int{7}
	place.Event, place.Next = "try", []int{4}
	return pseudo.Code{Name: name, Lines: []pseudo.Line{
		{Code: "SosicGu(n):", Comment: t("q is a permutation: no two queens share a row or a column, only diagonals are left to repair",
			"q 是一个排列：任意两个皇后不同行也不同列，只需处理对角线冲突"), Next: []int{2}},
		{Code: "  repeat:", Comment: t("a run; a restart begins again here", "一轮搜索；重新开始时回到这里"), Next: []int{3}},
		{Code: "    q = (1, 2, …, n); j = 1", Comment: t("the identity; rows 1..j−1 hold the queens placed so far, none yet",
			"从恒等排列开始；第 1..j−1 行是已放好的皇后，现在还没有"), Event: "run", Next: []int{4}},
		{Code: "    for a = 1 to 3.08·n while j ≤ n:", Comment: t("step 1: place the queens one by one, 3.08·n attempts at most",
			"第一步：逐个放置皇后，最多尝试 3.08·n 次"), Next: []int{5, 8}},
		{Code: "      m = random(j..n)", Comment: t("a queen not placed yet, drawn at random", "随机抽一个还没放好的皇后"), Next: []int{6}},
		check,
		place,
		{Code: "    for i = j to n:", Comment: t("step 2: the rows left get the columns left, at random", "第二步：剩下的行随机分配剩下的列"), Next: []int{9, 10}},
		{Code: "      swap(q[i], q[random(i..n)])", Comment: t("queen i may be in conflict; from now on every queen is counted",
			"第 i 行的皇后可能有冲突；从现在起每个皇后都计入对角线计数"), Event: "shuffle", Next: []int{8}},
		{Code: "    k = n − j + 1", Comment: t("step 3: k queens may be in conflict; collisions: the queens beyond the first on each diagonal",
			"第三步：可能有 k 个皇后处于冲突中；碰撞数：每条对角线上第一个之外的皇后数"), Event: "final", Next: []int{11}},
		{Code: "    for i = j to n:", Comment: t("repair rows j..n", "修复第 j..n 行"), Next: []int{12, 16}},
		{Code: "      if collisions(i) = 0: continue", Comment: t("queen i shares no diagonal", "第 i 行的皇后不与其他皇后共对角线"), Next: []int{11, 13}},
		{Code: "      for m in partners(i):", Comment: t("up to n = 200 every row in order, beyond rows drawn at random",
			"n ≤ 200 时按顺序试每一行，更大时随机抽行"), Next: []int{14, 11}},
		{Code: "        if free(i, q[m]) and free(m, q[i]): swap(q[i], q[m]); break",
			Comment: t("O(1): both queens would stand on empty diagonals: swap, the collisions fall",
				"O(1)：交换后两个皇后所在的对角线都空着：交换，碰撞数下降"), Event: "swap", Next: []int{11}, Else: []int{15}},
		{Code: "        failed = failed + 1", Comment: t("a collision would remain: no swap; beyond 200 rows, 7000 failures end the repair",
			"交换后仍会有碰撞：不交换；超过 200 行时，失败 7000 次就放弃修复"), Event: "swap", Next: []int{13, 16}},
		{Code: "    if collisions = 0: return q", Comment: t("no collision left: solved; otherwise a restart",
			"没有碰撞了：求解完成；否则重新开始"), Event: "solved", Next: []int{0}, Else: []int{2}},
	}}
}

// PlacedCode is Solve's program with the solver's O(1) check: two bits of the diagonals of
// the placed queens.
var PlacedCode = code("localsearch-placed",
	pseudo.Line{Code: "      if A[j + q[m]] or D[j − q[m] + n]: continue",
		Comment: t("O(1): two bits say whether a placed queen is on a diagonal of (j, q[m]): rejected",
			"O(1)：查两个二进制位，看 (j, q[m]) 的对角线上是否已有放好的皇后：若有则放弃")},
	pseudo.Line{Code: "      swap(q[j], q[m]); A[j + q[j]] = D[j − q[j] + n] = 1; j = j + 1",
		Comment: t("free: the queen moves to row j and is placed", "不冲突：把这个皇后换到第 j 行，放好")})

// ScanCode is the same program with the O(j) scan of the original program: the placed
// queens compared one by one.
var ScanCode = code("localsearch-scan",
	pseudo.Line{Code: "      if any(|q[i] − q[m]| = j − i for i = 1..j − 1): continue",
		Comment: t("O(j): compare with the placed queens one by one, up to the first on a diagonal of (j, q[m]): rejected",
			"O(j)：与放好的皇后逐个比较，直到遇到 (j, q[m]) 对角线上的一个：若有则放弃")},
	pseudo.Line{Code: "      swap(q[j], q[m]); j = j + 1",
		Comment: t("free: the queen moves to row j and is placed", "不冲突：把这个皇后换到第 j 行，放好")})
