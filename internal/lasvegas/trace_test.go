package lasvegas

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
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

func (c *counter) Attempt() {
	for i := range c.board {
		c.board[i] = -1
	}
	c.st.Attempts++
	c.st.Explored++
	c.inRandom = true
}

func (c *counter) Draw(r, col int, placed bool) {
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

func (c *counter) RandomRow(r, col int) {
	c.st.Checks += int64(c.n)
	c.st.Random++
	c.st.Explored++
	if c.attacked(r, col) || c.variant != Row || !c.inRandom {
		c.t.Fatalf("random row %d, column %d on %v", r, col, c.board)
	}
	c.board[r] = col
}

func (c *counter) DeadEnd(r int) {
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

func (c *counter) Backtrack() { c.st.Nodes++; c.inRandom = false }

func (c *counter) Place(r, col int) {
	if c.attacked(r, col) {
		c.t.Fatalf("place (%d, %d) on %v", r, col, c.board)
	}
	c.board[r] = col
	c.st.Nodes++
	c.st.Checks++
	c.st.Explored++
}

func (c *counter) Remove(r, col int) {
	if c.board[r] != col {
		c.t.Fatalf("remove (%d, %d) from %v", r, col, c.board)
	}
	c.board[r] = -1
}

func (c *counter) Conflict(r, col int) {
	if !c.attacked(r, col) {
		c.t.Fatalf("conflict at (%d, %d) on %v", r, col, c.board)
	}
	c.st.Checks++
}

func (c *counter) Fail() {}

func (c *counter) Solution() {
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
			}
		}
	}
}
