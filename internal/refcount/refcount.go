// Package refcount is the plain, obviously-correct bitboard counter that every faster
// counter is checked against. It stays simple on purpose.
//
// The search goes row by row. Three masks say which squares of the next row are attacked:
// cols (columns taken), diagL and diagR (diagonals taken, shifted by one square per row).
// The free squares of a row are ^(cols|diagL|diagR) & full; x & -x isolates the lowest set
// bit (Richards 1997). No mirror halving, no symmetry pruning, no pre-placement: every
// solution is reached once, as a leaf of the tree.
//
// The unique count comes from Burnside's lemma: the number of classes under the 8
// symmetries of the square is (1/8)·Σ over solutions of the number of symmetries that map
// the solution to itself. Each leaf tests the 7 non-identity symmetries on its placement,
// stopping at the first row that differs, which almost always is the first one.
//
// Work is split into independent tasks by the queens of the first two rows; a pool of
// workers pulls tasks with an atomic index, and results are added up by task index, so
// the totals do not depend on the schedule.
package refcount

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/nqueens/nqueens/internal/pool"
	"github.com/nqueens/nqueens/internal/rules"
)

// MaxN is the largest board the plain counter accepts (the masks are 64 bits wide, but
// counts beyond 32 would never finish anyway).
const MaxN = 32

// Result holds the counts of a run. When the run was cancelled, Complete is false and the
// counts cover the finished tasks only.
type Result struct {
	N             int
	Total, Unique uint64
	Nodes         uint64 // calls of the search function, over finished tasks
	Tasks, Done   int    // tasks in the plan, tasks finished
	Complete      bool
}

// task is one independent sub-problem: the columns of the queens of the first rows.
type task struct{ cols []int }

// tally is the outcome of one task: solutions, Σ|stabilizer|, nodes.
type tally struct{ total, stab, nodes uint64 }

// Count counts every solution of the n×n board, total and unique, on workers goroutines
// (0 means GOMAXPROCS). progress, when not nil, is called after each finished task with
// the number of finished tasks and the number of tasks; it may be called concurrently.
func Count(ctx context.Context, n, workers int, progress func(done, tasks int)) (Result, error) {
	if n < 1 || n > MaxN {
		return Result{N: n}, fmt.Errorf("the plain counter handles n from 1 to %d, not %d", MaxN, n)
	}
	tasks := plan(n)
	tallies := make([]tally, len(tasks))
	finished := make([]bool, len(tasks))
	var done atomic.Int64
	pool.Run(ctx, workers, len(tasks), func() *search { return newSearch(n, ctx.Done()) },
		func(s *search, i int, _ func() bool) bool {
			t, ok := s.run(tasks[i].cols)
			if !ok {
				return false
			}
			tallies[i], finished[i] = t, true
			if d := int(done.Add(1)); progress != nil {
				progress(d, len(tasks))
			}
			return true
		})

	res := Result{N: n, Tasks: len(tasks)}
	var stab uint64
	var carry, c uint64
	for i, t := range tallies {
		if !finished[i] {
			continue
		}
		res.Done++
		res.Total, c = bits.Add64(res.Total, t.total, 0)
		carry |= c
		stab, c = bits.Add64(stab, t.stab, 0)
		carry |= c
		res.Nodes += t.nodes
	}
	if carry != 0 {
		return res, rules.ErrOverflow
	}
	res.Unique = stab / 8
	res.Complete = res.Done == len(tasks)
	if !res.Complete {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		return res, errors.New("count stopped before the end")
	}
	return res, nil
}

// plan lists the tasks: every non-attacking choice of the first two rows' queens (or of
// the first row only when n < 4).
func plan(n int) []task {
	var tasks []task
	depth := 2
	if n < 4 {
		depth = 1
	}
	var rec func(cols []int)
	rec = func(cols []int) {
		if len(cols) == depth {
			tasks = append(tasks, task{cols: append([]int(nil), cols...)})
			return
		}
		r := len(cols)
		for c := range n {
			ok := true
			for i, d := range cols {
				if d == c || d-c == r-i || c-d == r-i {
					ok = false
				}
			}
			if ok {
				rec(append(cols, c))
			}
		}
	}
	rec(nil)
	return tasks
}

// search is one worker's scratch memory.
type search struct {
	n       int
	full    uint64
	q       []int // q[r] = column of the queen of row r on the current path
	t       tally
	done    <-chan struct{}
	stopped bool
}

func newSearch(n int, done <-chan struct{}) *search {
	return &search{n: n, full: 1<<uint(n) - 1, q: make([]int, n), done: done}
}

// run counts the solutions that extend the given first queens. It returns false when the
// context was cancelled before the task finished.
func (s *search) run(first []int) (tally, bool) {
	s.t = tally{}
	var cols, dl, dr uint64
	for r, c := range first {
		bit := uint64(1) << uint(c)
		cols |= bit
		dl = (dl | bit) << 1
		dr = (dr | bit) >> 1
		s.q[r] = c
	}
	s.place(len(first), cols, dl&s.full, dr)
	return s.t, !s.stopped
}

// place searches row r given the attacked masks; dl moves left (towards higher columns)
// and dr moves right by one column per row.
func (s *search) place(r int, cols, dl, dr uint64) {
	s.t.nodes++
	if s.t.nodes&0xfff == 0 {
		select {
		case <-s.done:
			s.stopped = true
		default:
		}
	}
	if s.stopped {
		return
	}
	if r == s.n {
		s.t.total++
		s.t.stab += uint64(stabilizer(s.q))
		return
	}
	free := ^(cols | dl | dr) & s.full
	for free != 0 {
		bit := free & -free // lowest set bit
		free ^= bit
		s.q[r] = bits.TrailingZeros64(bit)
		s.place(r+1, cols|bit, ((dl|bit)<<1)&s.full, (dr|bit)>>1)
	}
}

// stabilizer returns how many of the 8 symmetries of the square map the placement q to
// itself (the identity always does).
func stabilizer(q []int) int {
	n := len(q)
	m := n - 1
	k := 1
	// Each symmetry g maps the queen (r, q[r]) to a square (r2, c2); q is fixed by g when
	// every image is a queen of q, i.e. q[r2] == c2.
	for g := range 7 {
		fixed := true
		for r := 0; r < n && fixed; r++ {
			c := q[r]
			var r2, c2 int
			switch g {
			case 0: // rotate 90°
				r2, c2 = c, m-r
			case 1: // rotate 180°
				r2, c2 = m-r, m-c
			case 2: // rotate 270°
				r2, c2 = m-c, r
			case 3: // mirror left-right
				r2, c2 = r, m-c
			case 4: // mirror top-bottom
				r2, c2 = m-r, c
			case 5: // transpose (main diagonal)
				r2, c2 = c, r
			case 6: // anti-transpose
				r2, c2 = m-c, m-r
			}
			fixed = q[r2] == c2
		}
		if fixed {
			k++
		}
	}
	return k
}
