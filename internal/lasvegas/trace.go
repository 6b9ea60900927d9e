package lasvegas

// Tracer receives the steps of a run in the order they happen; rows and
// columns are 0-based. From the events alone the counters of [Stats] follow:
// an attempt counts 1 attempt and 1 explored; a drawn square 1 draw and 1
// check, and, placed, 1 random queen and 1 explored; a random row n checks,
// 1 random queen and 1 explored; a dead end of the row variant n checks; the
// start of the backtracking 1 node; a place 1 node, 1 check and 1 explored; a
// conflict 1 check. Every step names the line of the variant's program (RowCode
// or CellCode, 1-based) that reports it.
type Tracer interface {
	// Start: a start from the empty board begins (an attempt of the hybrid).
	Start(line int)
	// Draw: the cell variant drew (row, col); placed says whether a queen
	// was put there (else its row, column or a diagonal was taken).
	Draw(row, col int, placed bool, line int)
	// RandomRow: the row variant put a queen on a column drawn among the
	// free ones of row.
	RandomRow(row, col, line int)
	// DeadEnd: the random phase failed and so does the attempt: row has no
	// free column (row variant), or the draws ran out (cell variant, row −1).
	DeadEnd(row, line int)
	// Backtrack: the backtracking over the empty rows starts (its root node).
	Backtrack(line int)
	// Place, Remove, Conflict: the backtracking put a queen on (row, col)
	// and descends, takes it off, or finds the square attacked.
	Place(row, col, line int)
	Remove(row, col, line int)
	Conflict(row, col, line int)
	// Fail: the backtracking found no completion; the attempt fails.
	Fail(line int)
	// Solution: the board is solved; the run ends.
	Solution(line int)
}

// lines returns the lines of the program of the solver's variant.
func (s *solver) lines() *lines {
	if s.variant == Row {
		return &rowLines
	}
	return &cellLines
}

// attemptTraced is attempt, step for step, reporting each step to s.tr: the
// same draws from the same source, the same counters. It is a copy (with
// randomRowsTraced, randomCellsTraced and backtrackTraced) so that the
// untraced run, the one the lab measures, keeps exactly its code: a nil
// Tracer costs it one test per attempt. TestTracer checks that both give the
// same counters.
func (s *solver) attemptTraced() bool {
	s.clear()
	s.st.Attempts++
	s.tr.Start(s.lines().start)
	var placed int
	if s.variant == Row {
		placed = s.randomRowsTraced()
	} else {
		placed = s.randomCellsTraced()
	}
	if placed < s.m {
		s.st.Random += int64(placed)
		s.st.Explored += 1 + int64(placed)
		return false
	}
	s.st.Random += int64(placed)
	s.rows = s.rows[:0]
	for r := 0; r < s.n; r++ {
		if !s.row[r] {
			s.rows = append(s.rows, r)
		}
	}
	before := s.st.Nodes
	s.tr.Backtrack(s.lines().backtrack)
	ok := s.backtrackTraced(0)
	s.st.Explored += 1 + int64(placed) + (s.st.Nodes - before - 1)
	if s.err == nil {
		if ok {
			s.tr.Solution(s.lines().solution)
		} else {
			s.tr.Fail(s.lines().fail)
		}
	}
	return ok
}

// randomRowsTraced is randomRows, traced.
func (s *solver) randomRowsTraced() int {
	n := s.n
	for r := 0; r < s.m; r++ {
		if r&(pollRows-1) == pollRows-1 && s.poll() {
			return r
		}
		s.st.Checks += int64(n)
		s.free = s.free[:0]
		for c := 0; c < n; c++ {
			if s.open(r, c) {
				s.free = append(s.free, c)
			}
		}
		if len(s.free) == 0 {
			s.tr.DeadEnd(r, rowLines.deadend)
			return r
		}
		c := s.free[s.rng.IntN(len(s.free))]
		s.set(r, c, true)
		s.tr.RandomRow(r, c, rowLines.random)
	}
	return s.m
}

// randomCellsTraced is randomCells, traced.
func (s *solver) randomCellsTraced() int {
	n := s.n
	placed := 0
	for t := 0; placed < s.m && t < s.maxDraws; t++ {
		if t&(pollDraws-1) == pollDraws-1 && s.poll() {
			return placed
		}
		s.st.Draws++
		s.st.Checks++
		k := s.rng.IntN(n * n)
		r, c := k/n, k%n
		ok := s.open(r, c)
		if ok {
			s.set(r, c, true)
			placed++
		}
		if ok {
			s.tr.Draw(r, c, true, cellLines.draw)
		} else {
			s.tr.Draw(r, c, false, cellLines.reject)
		}
	}
	if placed < s.m {
		s.tr.DeadEnd(-1, cellLines.deadend)
	}
	return placed
}

// backtrackTraced is backtrack, traced.
func (s *solver) backtrackTraced(i int) bool {
	s.st.Nodes++
	if s.st.Nodes&(PollInterval-1) == 0 && s.poll() {
		return false
	}
	if s.maxChecks > 0 && s.st.Checks >= s.maxChecks && i < len(s.rows) {
		s.err = ErrBudget
		return false
	}
	if i == len(s.rows) {
		return true
	}
	r := s.rows[i]
	for c := 0; c < s.n; c++ {
		s.st.Checks++
		if !s.open(r, c) {
			s.tr.Conflict(r, c, s.lines().conflict)
			continue
		}
		s.set(r, c, true)
		s.tr.Place(r, c, s.lines().place)
		if s.backtrackTraced(i + 1) {
			return true
		}
		s.set(r, c, false)
		s.tr.Remove(r, c, s.lines().remove)
		if s.err != nil {
			return false
		}
	}
	return false
}
