package lasvegas

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nqueens/nqueens/internal/pseudo"
)

// counter is a Tracer that keeps the board and the counters of Stats from the events
// alone, as a replay does, and checks each event against the board it keeps.
type counter struct {
	t        *testing.T
	n        int
	board    []int // column per row, −1 when empty
	st       Stats
	solved   bool
	variant  Variant
	inRandom bool // the random phase of the current attempt is running
	steps    []pseudo.Step
}

func (c *counter) step(kind string, line int) {
	c.steps = append(c.steps, pseudo.Step{Kind: kind, Line: line})
}

func newCounter(t *testing.T, n int, v Variant) *counter {
	c := &counter{t: t, n: n, board: make([]int, n), variant: v}
	return c
}

func (c *counter) attacked(r, col int) bool {
	for q, k := range c.board {
		if k >= 0 && (q == r || k == col || q-k == r-col || q+k == r+col) {
			return true
		}
	}
	return false
}

func (c *counter) Start(line int) {
	c.step("start", line)
	for i := range c.board {
		c.board[i] = -1
	}
	c.st.Attempts++
	c.st.Explored++
	c.inRandom = true
}

func (c *counter) Draw(r, col int, placed bool, line int) {
	c.step(map[bool]string{true: "draw", false: "reject"}[placed], line)
	c.st.Draws++
	c.st.Checks++
	if placed == c.attacked(r, col) || c.variant != Cell || !c.inRandom {
		c.t.Fatalf("draw (%d, %d) placed=%v on %v", r, col, placed, c.board)
	}
	if placed {
		c.board[r] = col
		c.st.Random++
		c.st.Explored++
	}
}

func (c *counter) RandomRow(r, col, line int) {
	c.step("random", line)
	c.st.Checks += int64(c.n)
	c.st.Random++
	c.st.Explored++
	if c.attacked(r, col) || c.variant != Row || !c.inRandom {
		c.t.Fatalf("random row %d, column %d on %v", r, col, c.board)
	}
	c.board[r] = col
}

func (c *counter) DeadEnd(r, line int) {
	c.step("deadend", line)
	if c.variant == Row {
		c.st.Checks += int64(c.n)
		for col := range c.n {
			if !c.attacked(r, col) {
				c.t.Fatalf("dead end in row %d, but column %d is free on %v", r, col, c.board)
			}
		}
	}
	c.inRandom = false
}

func (c *counter) Backtrack(line int) { c.step("backtrack", line); c.st.Nodes++; c.inRandom = false }

func (c *counter) Place(r, col, line int) {
	c.step("place", line)
	if c.attacked(r, col) {
		c.t.Fatalf("place (%d, %d) on %v", r, col, c.board)
	}
	c.board[r] = col
	c.st.Nodes++
	c.st.Checks++
	c.st.Explored++
}

func (c *counter) Remove(r, col, line int) {
	c.step("remove", line)
	if c.board[r] != col {
		c.t.Fatalf("remove (%d, %d) from %v", r, col, c.board)
	}
	c.board[r] = -1
}

func (c *counter) Conflict(r, col, line int) {
	c.step("conflict", line)
	if !c.attacked(r, col) {
		c.t.Fatalf("conflict at (%d, %d) on %v", r, col, c.board)
	}
	c.st.Checks++
}

func (c *counter) Fail(line int) { c.step("fail", line) }

func (c *counter) Solution(line int) {
	c.step("solution", line)
	for r, col := range c.board {
		if col < 0 {
			c.t.Fatalf("solution with row %d empty: %v", r, c.board)
		}
		c.board[r] = -1
		if c.attacked(r, col) {
			c.t.Fatalf("solution %v: row %d attacked", c.board, r)
		}
		c.board[r] = col
	}
	c.solved = true
}

// TestTracer: the events of a run give its counters exactly, each event is true of the
// board they build, and the run ends on a solution; tracing changes no counter.
func TestTracer(t *testing.T) {
	for _, v := range []Variant{Row, Cell} {
		for _, c := range []struct{ n, m int }{{4, 0}, {4, 2}, {6, 6}, {8, 3}, {10, 6}, {12, 9}, {20, 14}, {30, 24}} {
			for seed := range uint64(5) {
				name := fmt.Sprintf("%v/n=%d/m=%d/seed=%d", v, c.n, c.m, seed)
				opt := Options{Variant: v, M: c.m}
				plain, err := Solve(context.Background(), c.n, opt, rand.New(rand.NewPCG(seed, uint64(c.m))))
				if err != nil {
					t.Fatal(name, err)
				}
				rec := newCounter(t, c.n, v)
				opt.Tracer = rec
				traced, err := Solve(context.Background(), c.n, opt, rand.New(rand.NewPCG(seed, uint64(c.m))))
				if err != nil {
					t.Fatal(name, err)
				}
				if traced.Stats != plain.Stats || rec.st != traced.Stats || !rec.solved {
					t.Errorf("%s: untraced %+v, traced %+v, from the events %+v (solved %v)", name, plain.Stats, traced.Stats, rec.st, rec.solved)
				}
				// The lines of the steps are a path through the variant's program.
				code := map[Variant]pseudo.Code{Row: RowCode, Cell: CellCode}[v]
				if err := code.Walk(rec.steps, true); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if k := len(rec.steps) - 1; code.Walk(append(rec.steps[:k:k], rec.steps[k-1]), true) == nil {
					t.Errorf("%s: the run with its last step replaced by the one before passes", name)
				}
			}
		}
	}
}
