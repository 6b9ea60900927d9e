package construct

import "github.com/nqueens/nqueens/internal/pseudo"

// The construction as a program, as the web board shows it beside a replay (package
// pseudo): one line per case of Column, rows and columns 1-based. Line gives the line
// that places each row's queen.

func t(en, zh string) pseudo.Text { return pseudo.Text{En: en, Zh: zh} }

// place is a line that may put the queen of row r: if its case holds, control goes back
// to the loop (line 3), else to the line after it.
func place(code string, comment pseudo.Text, line int, last bool) pseudo.Line {
	l := pseudo.Line{Code: code, Comment: comment, Event: "place", Next: []int{3}}
	if !last {
		l.Else = []int{line + 1}
	}
	return l
}

// The first line of each case of n mod 6, and the line that ends the program.
const (
	lineMod2     = 5
	lineMod3     = 11
	lineOther    = 17
	lineSolution = 19
)

// Code is the construction of Hoffman, Loessi & Moore, as Column computes it.
var Code = pseudo.Code{Name: "construct", Lines: []pseudo.Line{
	{Code: "Construct(n):", Comment: t("Hoffman, Loessi & Moore: the even columns, then the odd ones, no search",
		"Hoffman、Loessi 和 Moore 的构造法：先放偶数列，再放奇数列，无需搜索"), Next: []int{2}},
	{Code: "  h = ⌊n / 2⌋", Comment: t("the number of even columns", "偶数列的个数"), Next: []int{3}},
	{Code: "  for r = 1 to n:", Comment: t("one queen per row, in O(1) each", "每行一个皇后，每个 O(1) 算出"), Next: []int{4, 19}},
	{Code: "    if n mod 6 = 2:", Comment: t("evens, then 3, 1, 7, 9, …, 5", "先偶数列，再 3, 1, 7, 9, …, 5"), Next: []int{5, 10}},
	place("      if r ≤ h: x[r] = 2r", t("the even columns 2, 4, 6, …", "偶数列 2, 4, 6, …"), 5, false),
	place("      elif r = h + 1: x[r] = 3", t("1 and 3 swapped", "1 和 3 对调"), 6, false),
	place("      elif r = h + 2: x[r] = 1", t("1 and 3 swapped", "1 和 3 对调"), 7, false),
	place("      elif r = n: x[r] = 5", t("5 moved to the end", "5 移到最后"), 8, false),
	place("      else: x[r] = 2(r − h) + 1", t("the other odd columns 7, 9, 11, …", "其余奇数列 7, 9, 11, …"), 9, true),
	{Code: "    elif n mod 6 = 3:", Comment: t("4, 6, …, 2, then 5, 7, …, 1, 3", "4, 6, …, 2，再 5, 7, …, 1, 3"), Next: []int{11, 16}},
	place("      if r < h: x[r] = 2r + 2", t("the even columns from 4: 4, 6, 8, …", "从 4 开始的偶数列 4, 6, 8, …"), 11, false),
	place("      elif r = h: x[r] = 2", t("2 moved to the end of the evens", "2 移到偶数列的最后"), 12, false),
	place("      elif r = n − 1: x[r] = 1", t("1 and 3 moved to the end", "1 和 3 移到最后"), 13, false),
	place("      elif r = n: x[r] = 3", t("1 and 3 moved to the end", "1 和 3 移到最后"), 14, false),
	place("      else: x[r] = 2(r − h) + 3", t("the odd columns from 5: 5, 7, 9, …", "从 5 开始的奇数列 5, 7, 9, …"), 15, true),
	{Code: "    else:", Comment: t("n mod 6 = 0, 1, 4 or 5: no fix-up", "n mod 6 = 0、1、4 或 5：无需调整"), Next: []int{17}},
	place("      if r ≤ h: x[r] = 2r", t("the even columns 2, 4, 6, …", "偶数列 2, 4, 6, …"), 17, false),
	place("      else: x[r] = 2(r − h) − 1", t("the odd columns 1, 3, 5, …", "奇数列 1, 3, 5, …"), 18, true),
	{Code: "  return x", Comment: t("a solution, verified like any other", "得到一个解，照常验证"), Event: "solution", Next: []int{0}},
}}

// Line returns the line of Code that places the queen of 0-based row r for n (n = 1 or
// n ≥ 4), by the case of Column that computes it; SolutionLine is the program's last.
func Line(n, r int) int {
	half := n / 2
	switch n % 6 {
	case 2:
		i := r - half
		switch {
		case r < half:
			return lineMod2
		case i == 0:
			return lineMod2 + 1
		case i == 1:
			return lineMod2 + 2
		case i == half-1:
			return lineMod2 + 3
		}
		return lineMod2 + 4
	case 3:
		i, odds := r-half, n-half
		switch {
		case r < half-1:
			return lineMod3
		case r == half-1:
			return lineMod3 + 1
		case i == odds-2:
			return lineMod3 + 2
		case i == odds-1:
			return lineMod3 + 3
		}
		return lineMod3 + 4
	}
	if r < half {
		return lineOther
	}
	return lineOther + 1
}

// SolutionLine is the line of Code that ends the construction.
const SolutionLine = lineSolution
