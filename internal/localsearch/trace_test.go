package localsearch

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/nqueens/nqueens/internal/pseudo"
)

// replayer is a Tracer that rebuilds the search from its events alone, as the web
// board's replay does: the permutation, the queens placed, the queens on each diagonal,
// and the counters of Stats; it checks every event against the board it keeps.
type replayer struct {
	t                      *testing.T
	n, j                   int
	q                      []int32
	counted                []bool // the queen of the row is in the diagonal counts
	anti, diag             []int  // queens per anti-diagonal (r+c) and diagonal (r−c+n−1)
	st                     Stats
	scan, scanFirst        int64 // the O(j) check's cost: all runs, and the first run
	runs                   int
	final, solved          bool
	lastK                  int64
	triesFirst, placeFirst int64
	steps                  []pseudo.Step
}

func (p *replayer) step(kind string, line int) {
	p.steps = append(p.steps, pseudo.Step{Kind: kind, Line: line})
}

func newReplayer(t *testing.T, n int) *replayer {
	return &replayer{t: t, n: n, q: make([]int32, n), counted: make([]bool, n), anti: make([]int, 2*n-1), diag: make([]int, 2*n-1)}
}

func (p *replayer) count(r, d int) {
	c := int(p.q[r])
	p.anti[r+c] += d
	p.diag[r-c+p.n-1] += d
	p.counted[r] = d > 0
}

// collisions is the queens beyond the first on each diagonal: 0 on a solution.
func (p *replayer) collisions() int {
	k := 0
	for _, v := range slices.Concat(p.anti, p.diag) {
		k += max(v-1, 0)
	}
	return k
}

func (p *replayer) Run(line int) {
	p.step("run", line)
	if p.runs > 0 {
		p.st.Restarts++
	}
	p.runs++
	for i := range p.q {
		p.q[i] = int32(i)
		p.counted[i] = false
	}
	clear(p.anti)
	clear(p.diag)
	p.j, p.final = 0, false
}

func (p *replayer) Try(j, m int, placed bool, scan, line int) {
	p.step("try", line)
	if j != p.j || m < j || m >= p.n || p.final {
		p.t.Fatalf("try row %d from row %d with j = %d", j, m, p.j)
	}
	c := int(p.q[m])
	free := p.anti[j+c] == 0 && p.diag[j-c+p.n-1] == 0
	if free != placed {
		p.t.Fatalf("try (%d, %d): placed %v, but the placed queens say %v", j, c, placed, free)
	}
	p.st.Attempts++
	p.scan += int64(scan)
	if p.runs == 1 {
		p.scanFirst += int64(scan)
		p.triesFirst++
	}
	if placed {
		p.q[m], p.q[j] = p.q[j], p.q[m]
		p.count(j, 1)
		p.j++
		if p.runs == 1 {
			p.placeFirst++
		}
	}
}

func (p *replayer) Shuffle(i, m, line int) {
	p.step("shuffle", line)
	if i < p.j || m < i || p.counted[i] {
		p.t.Fatalf("shuffle %d with %d, j = %d", i, m, p.j)
	}
	p.q[i], p.q[m] = p.q[m], p.q[i]
	p.count(i, 1)
}

func (p *replayer) Final(line int) {
	p.step("final", line)
	for r, ok := range p.counted {
		if !ok {
			p.t.Fatalf("the final search starts with row %d not counted", r)
		}
	}
	p.final = true
	p.lastK = int64(p.n - p.j)
}

func (p *replayer) Swap(i, m int, kept bool, line int) {
	p.step("swap", line)
	if !p.final {
		p.t.Fatal("a swap before the final search")
	}
	p.st.FinalSwaps++
	if !kept {
		p.st.FinalFailed++
		return
	}
	before := p.collisions()
	p.count(i, -1)
	p.count(m, -1)
	p.q[i], p.q[m] = p.q[m], p.q[i]
	p.count(i, 1)
	p.count(m, 1)
	ci, cm := int(p.q[i]), int(p.q[m])
	if p.anti[i+ci] != 1 || p.diag[i-ci+p.n-1] != 1 || p.anti[m+cm] != 1 || p.diag[m-cm+p.n-1] != 1 || p.collisions() >= before {
		p.t.Fatalf("kept swap %d, %d leaves a conflict on one of them, or no fewer collisions (%d, was %d)", i, m, p.collisions(), before)
	}
}

func (p *replayer) Solved(line int) {
	p.step("solved", line)
	if p.collisions() != 0 {
		p.t.Fatalf("solved with %d collisions", p.collisions())
	}
	p.solved = true
}

// TestTracer: the events of Solve rebuild its placement and its counters exactly; each
// event is true of the board they build; the O(j) cost they report for the first run is
// LabInitialSearch's with CheckScan, which makes the same attempts; tracing changes
// nothing.
func TestTracer(t *testing.T) {
	restarts := 0
	for _, n := range []int{4, 5, 8, 13, 50, 200, 201, 1000} {
		for seed := range uint64(6) {
			name := fmt.Sprintf("n=%d/seed=%d", n, seed)
			plain, pst, err := Solve(context.Background(), n, Options{Seed: seed})
			if err != nil {
				t.Fatal(name, err)
			}
			p := newReplayer(t, n)
			q, st, err := Solve(context.Background(), n, Options{Seed: seed, Tracer: p})
			if err != nil {
				t.Fatal(name, err)
			}
			p.st.K = p.lastK
			if !slices.Equal(q, plain) || st != pst || p.st != st || !slices.Equal(p.q, q) || !p.solved {
				t.Errorf("%s: untraced %+v, traced %+v, from the events %+v (solved %v, same placement %v)", name, pst, st, p.st, p.solved, slices.Equal(p.q, q))
			}
			restarts += int(st.Restarts)
			// The lines of the steps are a path through the program, with either check.
			for _, code := range []pseudo.Code{PlacedCode, ScanCode} {
				if err := code.Walk(p.steps, true); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			if err := PlacedCode.Walk(p.steps[1:], true); err == nil {
				t.Errorf("%s: the steps without the first run pass", name)
			}
			for _, c := range []Check{CheckScan, CheckPlaced} {
				lab, err := LabInitialSearch(context.Background(), n, seed, c, 0)
				want := p.scanFirst
				if c == CheckPlaced {
					want = p.triesFirst
				}
				if err != nil || lab.Attempts != p.triesFirst || int64(lab.Placed) != p.placeFirst || lab.Checks != want {
					t.Errorf("%s %v: the lab's initial search %d attempts, %d placed, %d checks; the first run's events %d, %d, %d",
						name, c, lab.Attempts, lab.Placed, lab.Checks, p.triesFirst, p.placeFirst, want)
				}
			}
		}
	}
	if restarts == 0 {
		t.Error("no run restarted: the restarts went untested")
	}
}
