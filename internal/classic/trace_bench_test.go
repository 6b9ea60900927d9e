package classic

import (
	"context"
	"fmt"
	"testing"
)

// The copies below are RowDFS and CellDFS with every tracer statement
// deleted and nothing else changed. BenchmarkTraceOverhead runs each search
// with a nil Tracer against its copy: equal ns/op shows that tracing costs
// the untraced path nothing measurable.

type plainRow struct {
	n               int
	col, diag, anti []bool
	st              Stats
	p               poller
}

func plainRowDFS(ctx context.Context, n int) (Stats, error) {
	s := plainRow{n: n, col: make([]bool, n), diag: make([]bool, 2*n), anti: make([]bool, 2*n), p: newPoller(ctx)}
	s.st.N = n
	s.dfs(0)
	return s.st, s.p.err
}

func (s *plainRow) dfs(u int) {
	s.st.Nodes++
	if s.st.Nodes&pollMask == 0 && s.p.stop() {
		return
	}
	n := s.n
	if u == n {
		s.st.Solutions++
		return
	}
	for j := 0; j < n; j++ {
		s.st.Checks++
		if s.col[j] || s.diag[u-j+n] || s.anti[u+j] {
			continue
		}
		s.col[j], s.diag[u-j+n], s.anti[u+j] = true, true, true
		s.dfs(u + 1)
		s.col[j], s.diag[u-j+n], s.anti[u+j] = false, false, false
		if s.p.err != nil {
			return
		}
	}
}

type plainCell struct {
	n                    int
	row, col, diag, anti []bool
	st                   Stats
	p                    poller
}

func plainCellDFS(ctx context.Context, n int) (Stats, error) {
	s := plainCell{n: n, row: make([]bool, n), col: make([]bool, n), diag: make([]bool, 2*n), anti: make([]bool, 2*n), p: newPoller(ctx)}
	s.st.N = n
	s.dfs(0, 0)
	return s.st, s.p.err
}

func (s *plainCell) dfs(pos, cnt int) {
	s.st.Nodes++
	if s.st.Nodes&pollMask == 0 && s.p.stop() {
		return
	}
	n := s.n
	skipped := false
	for r := 0; r < min(pos/n, n); r++ {
		if !s.row[r] {
			skipped = true
			break
		}
	}
	if skipped {
		s.st.Skipped++
	}
	if cnt == n {
		s.st.Solutions++
		return
	}
	if pos == n*n {
		if skipped {
			s.st.Dead++
		}
		return
	}
	for k := pos; k < n*n; k++ {
		x, y := k/n, k%n
		s.st.Checks++
		if s.row[x] || s.col[y] || s.diag[x-y+n] || s.anti[x+y] {
			continue
		}
		s.row[x], s.col[y], s.diag[x-y+n], s.anti[x+y] = true, true, true, true
		s.dfs(k+1, cnt+1)
		s.row[x], s.col[y], s.diag[x-y+n], s.anti[x+y] = false, false, false, false
		if s.p.err != nil {
			return
		}
	}
}

func TestPlainCopies(t *testing.T) {
	for n := 1; n <= 8; n++ {
		a, _ := plainRowDFS(context.Background(), n)
		b, _ := RowDFS(context.Background(), n, nil)
		c, _ := plainCellDFS(context.Background(), n)
		d, _ := CellDFS(context.Background(), n, nil)
		if a != b || c != d {
			t.Errorf("n=%d: copies disagree: %+v %+v / %+v %+v", n, a, b, c, d)
		}
	}
}

// nopTracer is a tracer whose methods do nothing, to measure the price of
// an actual (indirect) call per event.
type nopTracer struct{}

func (nopTracer) Place(int, int, int)    {}
func (nopTracer) Remove(int, int, int)   {}
func (nopTracer) Conflict(int, int, int) {}
func (nopTracer) Solution(int)           {}
func (nopTracer) Prune(int, int)         {}

func BenchmarkTraceOverhead(b *testing.B) {
	ctx := context.Background()
	impls := []struct {
		name string
		fn   func(n int) Stats
	}{
		{"algo=row/impl=plain", func(n int) Stats { st, _ := plainRowDFS(ctx, n); return st }},
		{"algo=row/impl=nil", func(n int) Stats { st, _ := RowDFS(ctx, n, nil); return st }},
		{"algo=row/impl=nop", func(n int) Stats { st, _ := RowDFS(ctx, n, nopTracer{}); return st }},
		{"algo=cell/impl=plain", func(n int) Stats { st, _ := plainCellDFS(ctx, n); return st }},
		{"algo=cell/impl=nil", func(n int) Stats { st, _ := CellDFS(ctx, n, nil); return st }},
		{"algo=cell/impl=nop", func(n int) Stats { st, _ := CellDFS(ctx, n, nopTracer{}); return st }},
	}
	for _, im := range impls {
		b.Run(fmt.Sprintf("%s/n=%d", im.name, 9), func(b *testing.B) {
			for b.Loop() {
				sink = im.fn(9)
			}
		})
	}
}
