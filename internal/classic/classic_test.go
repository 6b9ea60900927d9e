package classic

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/pseudo"
)

// a000170 is the number of solutions for n = 1..10 (OEIS A000170).
var a000170 = []int64{1, 0, 0, 2, 10, 4, 40, 92, 352, 724}

// specFigures are the counters docs/algorithms.md §3.1–3.4 publishes.
var specFigures = []struct {
	algo string
	n    int
	want Stats
}{
	{"classic", 8, Stats{N: 8, Solutions: 92, Nodes: 2057, Checks: 15720, LoopIterations: 46752}},
	{"classic", 10, Stats{N: 10, Solutions: 724, Nodes: 35539, Checks: 348150, LoopIterations: 1297558}},
	{"row", 10, Stats{N: 10, Solutions: 724, Nodes: 35539, Checks: 348150}},
	{"cell", 10, Stats{N: 10, Solutions: 724, Nodes: 7535369, Checks: 70450278, Skipped: 7499830, Dead: 429169}},
	{"cellprune", 10, Stats{N: 10, Solutions: 724, Nodes: 185489, Checks: 1256703}},
}

func run(t testing.TB, algo string, n int, tr Tracer) Stats {
	t.Helper()
	a, ok := Lookup(algo)
	if !ok {
		t.Fatalf("Lookup(%q) failed", algo)
	}
	st, err := a.Run(context.Background(), n, tr)
	if err != nil {
		t.Fatalf("%s(%d): %v", algo, n, err)
	}
	return st
}

func TestSpecFigures(t *testing.T) {
	for _, f := range specFigures {
		got := run(t, f.algo, f.n, nil)
		if got != f.want {
			t.Errorf("%s n=%d:\n got %+v\nwant %+v", f.algo, f.n, got, f.want)
		}
	}
}

// TestIdentities checks the identities of docs/algorithms.md §3 for n = 1..10, and the
// solution counts against A000170.
func TestIdentities(t *testing.T) {
	for n := 1; n <= 10; n++ {
		cl := run(t, "classic", n, nil)
		row := run(t, "row", n, nil)
		for _, st := range []Stats{cl, row} {
			if st.Solutions != a000170[n-1] {
				t.Errorf("n=%d: %d solutions, want %d", n, st.Solutions, a000170[n-1])
			}
		}
		if cl.Nodes != row.Nodes || cl.Checks != row.Checks {
			t.Errorf("n=%d: classic %+v and row DFS %+v differ", n, cl, row)
		}
		if row.Checks != int64(n)*(row.Nodes-row.Solutions) {
			t.Errorf("n=%d: row checks %d != n·(nodes−solutions) = %d", n, row.Checks, int64(n)*(row.Nodes-row.Solutions))
		}
		{
			cell := run(t, "cell", n, nil)
			prune := run(t, "cellprune", n, nil)
			for _, st := range []Stats{cell, prune} {
				if st.Solutions != a000170[n-1] {
					t.Errorf("n=%d: %d solutions, want %d", n, st.Solutions, a000170[n-1])
				}
			}
			if cell.Dead > cell.Skipped || cell.Skipped >= cell.Nodes {
				t.Errorf("n=%d: cell counters inconsistent: %+v", n, cell)
			}
			if prune.Nodes > cell.Nodes || prune.Checks > cell.Checks {
				t.Errorf("n=%d: pruning added work: %+v vs %+v", n, prune, cell)
			}
		}
	}
}

// TestAgainstEnumeration recomputes every counter for n ≤ 7 from a direct
// enumeration of the sets of non-attacking queens, independent of the
// searches' code.
func TestAgainstEnumeration(t *testing.T) {
	for n := 1; n <= 7; n++ {
		want := enumerate(n)
		for _, algo := range []string{"classic", "cell", "cellprune"} {
			got := run(t, algo, n, nil)
			w := want[algo]
			if got != w {
				t.Errorf("%s n=%d:\n got %+v\nwant %+v", algo, n, got, w)
			}
		}
	}
}

// enumerate computes the expected Stats of Classic, CellDFS and
// CellDFSPruned by listing every assignment of "no queen or one column" to
// each row ((n+1)^n of them) and deriving each counter from its definition.
func enumerate(n int) map[string]Stats {
	nn := n * n
	cell := Stats{N: n}
	prune := Stats{N: n}
	cls := Stats{N: n}
	q := make([]int, n) // -1 = empty row
	attacks := func(r1, c1, r2, c2 int) bool {
		return c1 == c2 || r1-c1 == r2-c2 || r1+c1 == r2+c2
	}
	// pruned reports whether the set q with the given pos has an empty row
	// before row pos/n.
	pruned := func(pos int) bool {
		for r := 0; r < min(pos/n, n); r++ {
			if q[r] < 0 {
				return true
			}
		}
		return false
	}
	var rec func(r int)
	rec = func(r int) {
		if r < n {
			for c := -1; c < n; c++ {
				ok := true
				for r2 := 0; r2 < r && c >= 0; r2++ {
					if q[r2] >= 0 && attacks(r, c, r2, q[r2]) {
						ok = false
					}
				}
				if ok {
					q[r] = c
					rec(r + 1)
				}
			}
			q[r] = -1
			return
		}
		// q is one set of mutually non-attacking queens.
		cnt, pos, last := 0, 0, -1
		for r := 0; r < n; r++ {
			if q[r] >= 0 {
				cnt++
				pos = r*n + q[r] + 1
				last = r
			}
		}
		// Cell DFS visits every set once.
		cell.Nodes++
		sk := pruned(pos)
		if sk {
			cell.Skipped++
		}
		switch {
		case cnt == n:
			cell.Solutions++
		case pos == nn:
			if sk {
				cell.Dead++
			}
		default:
			cell.Checks += int64(nn - pos)
		}
		// Pruned cell DFS enters a set iff its parent (the set without
		// its last queen) is entered and not pruned; by the argument in
		// the test's doc, that is iff the parent is not pruned.
		entered := last < 0
		if last >= 0 {
			c := q[last]
			q[last] = -1
			ppos := 0
			for r := 0; r < n; r++ {
				if q[r] >= 0 {
					ppos = r*n + q[r] + 1
				}
			}
			entered = !pruned(ppos)
			q[last] = c
		}
		if entered {
			prune.Nodes++
			if !sk {
				switch {
				case cnt == n:
					prune.Solutions++
				case pos < nn:
					prune.Checks += int64(nn - pos)
				}
			}
		}
		// Classic visits the sets that fill rows 0..cnt-1; each
		// non-leaf calls Place for every column of the next row.
		prefix := true
		for r := 0; r < cnt; r++ {
			if q[r] < 0 {
				prefix = false
			}
		}
		if prefix {
			cls.Nodes++
			if cnt == n {
				cls.Solutions++
			} else {
				for c := 0; c < n; c++ {
					cls.Checks++
					for j := 0; j < cnt; j++ {
						cls.LoopIterations++
						if attacks(cnt, c, j, q[j]) {
							break
						}
					}
				}
			}
		}
	}
	for r := range q {
		q[r] = -1
	}
	rec(0)
	return map[string]Stats{"classic": cls, "cell": cell, "cellprune": prune}
}

// recorder is a Tracer that checks the consistency of the event stream.
type recorder struct {
	t                            testing.TB
	n                            int
	board                        map[[2]int]bool
	stack                        [][2]int
	places, removes, conflicts   int64
	solutions                    int64
	maxDepth                     int
	badSolution, unbalancedEvent bool
	prunes                       int64
	compares                     int64         // Place's loop iterations (Classic)
	badCompare                   bool          // a comparison with a queen not on the board, or misjudged
	steps                        []pseudo.Step // every event's kind and line
}

func newRecorder(t testing.TB, n int) *recorder {
	return &recorder{t: t, n: n, board: map[[2]int]bool{}}
}

func (r *recorder) step(kind string, line int) {
	r.steps = append(r.steps, pseudo.Step{Kind: kind, Line: line})
}

func (r *recorder) Prune(row, line int) {
	r.step("prune", line)
	r.prunes++
	if row < 0 || row >= r.n || len(r.stack) == 0 {
		r.unbalancedEvent = true
	}
}

func (r *recorder) Place(row, col, line int) {
	r.step("place", line)
	r.places++
	r.board[[2]int{row, col}] = true
	r.stack = append(r.stack, [2]int{row, col})
	r.maxDepth = max(r.maxDepth, len(r.stack))
}

func (r *recorder) Remove(row, col, line int) {
	r.step("remove", line)
	r.removes++
	if len(r.stack) == 0 || r.stack[len(r.stack)-1] != [2]int{row, col} {
		r.unbalancedEvent = true
		return
	}
	r.stack = r.stack[:len(r.stack)-1]
	delete(r.board, [2]int{row, col})
}

func (r *recorder) Compare(row, col, j, colJ int, attacks bool, line int) {
	r.step("compare", line)
	r.compares++
	d := col - colJ
	if j < 0 || j >= row || row >= r.n || !r.board[[2]int{j, colJ}] || attacks != (d == 0 || d == row-j || d == j-row) {
		r.badCompare = true
	}
}

func (r *recorder) Conflict(row, col, line int) {
	r.step("conflict", line)
	r.conflicts++
	if row < 0 || row >= r.n || col < 0 || col >= r.n {
		r.unbalancedEvent = true
	}
}

func (r *recorder) Solution(line int) {
	r.step("solution", line)
	r.solutions++
	if len(r.stack) != r.n {
		r.badSolution = true
		return
	}
	rows, cols, d, a := map[int]bool{}, map[int]bool{}, map[int]bool{}, map[int]bool{}
	for _, p := range r.stack {
		if rows[p[0]] || cols[p[1]] || d[p[0]-p[1]] || a[p[0]+p[1]] {
			r.badSolution = true
		}
		rows[p[0]], cols[p[1]], d[p[0]-p[1]], a[p[0]+p[1]] = true, true, true, true
	}
}

func TestTracer(t *testing.T) {
	for _, a := range Algorithms() {
		for _, n := range []int{1, 4, 6, 8} {
			rec := newRecorder(t, n)
			st, err := a.Run(context.Background(), n, rec)
			if err != nil {
				t.Fatal(err)
			}
			if untraced := run(t, a.Name, n, nil); st != untraced {
				t.Errorf("%s n=%d: traced stats %+v != untraced %+v", a.Name, n, st, untraced)
			}
			if rec.unbalancedEvent || len(rec.stack) != 0 || rec.places != rec.removes {
				t.Errorf("%s n=%d: place/remove unbalanced: %d places, %d removes, %d left",
					a.Name, n, rec.places, rec.removes, len(rec.stack))
			}
			if rec.badSolution || rec.solutions != st.Solutions {
				t.Errorf("%s n=%d: %d solution events (bad=%v), want %d", a.Name, n, rec.solutions, rec.badSolution, st.Solutions)
			}
			// Every node but the root comes from one successful check.
			if rec.places != st.Nodes-1 {
				t.Errorf("%s n=%d: %d place events, want nodes−1 = %d", a.Name, n, rec.places, st.Nodes-1)
			}
			if rec.places+rec.conflicts != st.Checks {
				t.Errorf("%s n=%d: %d places + %d conflicts != %d checks", a.Name, n, rec.places, rec.conflicts, st.Checks)
			}
			if rec.badCompare || rec.compares != st.LoopIterations {
				t.Errorf("%s n=%d: %d compare events (bad=%v), want the %d loop iterations", a.Name, n, rec.compares, rec.badCompare, st.LoopIterations)
			}
			if rec.maxDepth > n {
				t.Errorf("%s n=%d: depth %d", a.Name, n, rec.maxDepth)
			}
			if (rec.prunes > 0) != (a.Name == "cellprune" && n > 1) {
				t.Errorf("%s n=%d: %d prune events", a.Name, n, rec.prunes)
			}
		}
	}
}

// TestCodePaths: every event of each search names a line of its program that reports
// that kind of event, and the lines of a whole search are a path through the program
// from its start to its end. A trace with one line changed is not.
func TestCodePaths(t *testing.T) {
	for _, a := range Algorithms() {
		if err := a.Code.Check(); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 4, 5, 6} {
			rec := newRecorder(t, n)
			if _, err := a.Run(context.Background(), n, rec); err != nil {
				t.Fatal(err)
			}
			if err := a.Code.Walk(rec.steps, true); err != nil {
				t.Errorf("%s n=%d: %v", a.Name, n, err)
			}
			// Without its first place, or its last step, the trace is no longer a
			// whole path.
			k := slices.IndexFunc(rec.steps, func(s pseudo.Step) bool { return s.Kind == "place" })
			if err := a.Code.Walk(slices.Delete(slices.Clone(rec.steps), k, k+1), true); err == nil {
				t.Errorf("%s n=%d: the trace without its first place passes", a.Name, n)
			}
			if err := a.Code.Walk(rec.steps[:len(rec.steps)-1], true); err == nil {
				t.Errorf("%s n=%d: the trace without its last step passes", a.Name, n)
			}
		}
	}
}

func TestBadSize(t *testing.T) {
	for _, a := range Algorithms() {
		for _, n := range []int{0, -1, MaxN + 1} {
			if _, err := a.Run(context.Background(), n, nil); !errors.Is(err, ErrSize) {
				t.Errorf("%s(%d): err = %v, want ErrSize", a.Name, n, err)
			}
		}
	}
}

func TestCancel(t *testing.T) {
	for _, a := range Algorithms() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		start := time.Now()
		st, err := a.Run(ctx, 16, nil)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: err = %v, want DeadlineExceeded", a.Name, err)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("%s: took %v to stop", a.Name, el)
		}
		if st.Nodes == 0 || st.N != 16 {
			t.Errorf("%s: partial stats %+v", a.Name, st)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := RowDFS(ctx, 10, nil)
	if !errors.Is(err, context.Canceled) || st.Nodes > PollInterval {
		t.Errorf("pre-cancelled: %+v, %v", st, err)
	}
}

func ExampleRowDFS() {
	st, err := RowDFS(context.Background(), 8, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(st.Solutions, st.Nodes, st.Checks)
	// Output: 92 2057 15720
}

var sink Stats

func BenchmarkClassic(b *testing.B) {
	for _, a := range Algorithms() {
		for _, n := range []int{8, 10} {
			b.Run(fmt.Sprintf("algo=%s/n=%d", a.Name, n), func(b *testing.B) {
				var st Stats
				for b.Loop() {
					st, _ = a.Run(context.Background(), n, nil)
				}
				b.ReportMetric(float64(st.Nodes), "nodes/op")
				b.ReportMetric(float64(st.Checks), "checks/op")
				sink = st
			})
		}
	}
}
