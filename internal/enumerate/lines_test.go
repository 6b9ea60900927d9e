package enumerate_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/backtrack"
	"github.com/nqueens/nqueens/internal/enumerate"
	"github.com/nqueens/nqueens/internal/oeis"
)

// textFormat is the text line format of the CLI: 1-based columns separated by spaces.
func textFormat(n int) enumerate.LineFormat {
	var f enumerate.LineFormat
	for c := range n {
		s := strconv.Itoa(c + 1)
		f.Tok = append(f.Tok, []byte(s+" "))
		f.Last = append(f.Last, []byte(s+"\n"))
	}
	return f
}

// boardFormat draws every row (tokens longer than 8 bytes: the unpacked path), with a
// prefix line: more than one newline per solution.
func boardFormat(n int) enumerate.LineFormat {
	f := enumerate.LineFormat{Prefix: []byte("#\n")}
	for c := range n {
		row := []byte(strings.Repeat(". ", n))
		row[2*c], row[2*n-1] = 'Q', '\n'
		f.Tok = append(f.Tok, row)
		f.Last = append(f.Last, append(slices.Clone(row), '\n'))
	}
	return f
}

// render formats solutions as f says, one by one: the expected output.
func render(sols [][]int32, f enumerate.LineFormat) []byte {
	var b bytes.Buffer
	for _, q := range sols {
		b.Write(f.Prefix)
		for _, c := range q[:len(q)-1] {
			b.Write(f.Tok[c])
		}
		b.Write(f.Last[q[len(q)-1]])
	}
	return b.Bytes()
}

func writeLines(t *testing.T, n int, f enumerate.LineFormat, opt enumerate.LinesOptions) ([]byte, enumerate.Stats) {
	t.Helper()
	var b bytes.Buffer
	st, err := enumerate.WriteLines(context.Background(), &b, n, f, opt)
	if err != nil {
		t.Fatalf("n=%d %+v: %v", n, opt, err)
	}
	return b.Bytes(), st
}

// TestWriteLinesEqualsReference: for n ≤ 10 the text written is the reference list (every
// permutation tested, in order) in every configuration: workers, mirror memory (none,
// default, too small for any task, enough for some tasks only).
func TestWriteLinesEqualsReference(t *testing.T) {
	for n := 1; n <= 10; n++ {
		f := textFormat(n)
		want := render(reference(n), f)
		for _, w := range []int{1, 2, 3} {
			for _, mb := range []int{-1, 0, 1, 3000} {
				got, st := writeLines(t, n, f, enumerate.LinesOptions{Workers: w, MirrorBytes: mb})
				if !bytes.Equal(got, want) {
					t.Fatalf("n=%d workers=%d mirror=%d: %d bytes, want %d, or different bytes", n, w, mb, len(got), len(want))
				}
				if st.Solutions != oeis.Total(n) || st.Total != oeis.Total(n) {
					t.Errorf("n=%d workers=%d mirror=%d: stats %+v, want %d solutions", n, w, mb, st, oeis.Total(n))
				}
			}
		}
	}
}

// TestWriteLinesEqualsEach: up to n = 12, WriteLines writes exactly what formatting Each's
// solutions gives, in the packed (text) and the unpacked (board) formats, whole or cut at
// a limit.
func TestWriteLinesEqualsEach(t *testing.T) {
	maxN := 12
	if testing.Short() {
		maxN = 11
	}
	for n := 1; n <= maxN; n++ {
		var sols [][]int32
		enumerate.Each(context.Background(), n, false, func(q []int32, _ int) bool {
			sols = append(sols, slices.Clone(q))
			return true
		})
		for _, f := range []enumerate.LineFormat{textFormat(n), boardFormat(n)} {
			for _, w := range []int{1, 2} {
				for _, limit := range []int{0, 1, len(sols) / 3, len(sols) - 1, len(sols), len(sols) + 1} {
					if limit < 0 {
						continue
					}
					want := sols
					if limit > 0 && limit < len(sols) {
						want = sols[:limit]
					}
					got, st := writeLines(t, n, f, enumerate.LinesOptions{Workers: w, Limit: uint64(limit)})
					if !bytes.Equal(got, render(want, f)) || st.Solutions != uint64(len(want)) {
						t.Fatalf("n=%d workers=%d limit=%d prefix=%q: %d bytes, %d solutions; want %d",
							n, w, limit, f.Prefix, len(got), st.Solutions, len(want))
					}
				}
			}
		}
	}
}

// TestWriteLinesOrder: at n = 13 (big enough for chunks, tasks and a mirror cut short by
// the budget) and n = 15 (three-row tasks, an even number of stored rows) the lines are
// strictly increasing, distinct and valid, and as many as A000170.
func TestWriteLinesOrder(t *testing.T) {
	for _, c := range []struct{ n, mirror int }{{13, 0}, {13, 200 << 10}, {15, 0}} {
		if c.n > 13 && testing.Short() {
			continue
		}
		testOrder(t, c.n, c.mirror)
	}
}

func testOrder(t *testing.T, n, mb int) {
	out, _ := writeLines(t, n, textFormat(n), enumerate.LinesOptions{Workers: 2, MirrorBytes: mb})
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if uint64(len(lines)) != oeis.Total(n) {
		t.Fatalf("n=%d mirror=%d: %d lines, want %d", n, mb, len(lines), oeis.Total(n))
	}
	var prev []int32
	for i, l := range lines {
		q := make([]int32, 0, n)
		var cols, d1, d2 uint64
		for s := range strings.FieldsSeq(l) {
			c, err := strconv.Atoi(s)
			if err != nil || c < 1 || c > n {
				t.Fatalf("n=%d line %d: %q", n, i, l)
			}
			r, c := len(q), c-1
			cb, b1, b2 := uint64(1)<<c, uint64(1)<<(r-c+n), uint64(1)<<(r+c)
			if cols&cb != 0 || d1&b1 != 0 || d2&b2 != 0 {
				t.Fatalf("n=%d line %d: %q attacks", n, i, l)
			}
			cols, d1, d2 = cols|cb, d1|b1, d2|b2
			q = append(q, int32(c))
		}
		if len(q) != n || (prev != nil && slices.Compare(prev, q) >= 0) {
			t.Fatalf("n=%d line %d: %q is not a solution after %v", n, i, l, prev)
		}
		prev = q
	}
}

func TestWriteLinesCheck(t *testing.T) {
	n := 10
	for _, w := range []int{1, 2} {
		k := 0
		bad := []int32{}
		var b bytes.Buffer
		_, err := enumerate.WriteLines(context.Background(), &b, n, textFormat(n), enumerate.LinesOptions{Workers: w,
			MirrorBytes: -1,
			Check: func(q []int32) bool {
				if w == 1 {
					k++
					if k == 100 {
						bad = slices.Clone(q)
						return false
					}
					return true
				}
				return !(q[0] == 5 && q[1] == 7)
			}})
		var ce *enumerate.CheckError
		if !errors.As(err, &ce) || (w == 1 && !slices.Equal(ce.Q, bad)) || (w == 2 && (ce.Q[0] != 5 || ce.Q[1] != 7)) {
			t.Fatalf("workers=%d: %v", w, err)
		}
		if w == 1 && strings.Count(b.String(), "\n") != 99 {
			t.Errorf("workers=1: %d lines before the rejected one, want 99", strings.Count(b.String(), "\n"))
		}
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n += len(p); w.n > 100<<10 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteLinesStops(t *testing.T) {
	for _, w := range []int{1, 2} {
		_, err := enumerate.WriteLines(context.Background(), &failWriter{}, 14, textFormat(14), enumerate.LinesOptions{Workers: w})
		if err == nil || err.Error() != "disk full" {
			t.Errorf("workers=%d: write error %v", w, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		st, err := enumerate.WriteLines(ctx, io.Discard, 16, textFormat(16), enumerate.LinesOptions{Workers: w})
		if err != context.Canceled || st.Solutions > 1e6 {
			t.Errorf("workers=%d: cancel: %+v %v", w, st, err)
		}
	}
	if _, err := enumerate.WriteLines(context.Background(), io.Discard, 5, textFormat(4), enumerate.LinesOptions{}); err == nil {
		t.Error("a format for n = 4 accepted for n = 5")
	}
	f := textFormat(5)
	f.Last[2] = []byte("3")
	if _, err := enumerate.WriteLines(context.Background(), io.Discard, 5, f, enumerate.LinesOptions{}); err == nil {
		t.Error("a format with uneven newlines accepted")
	}
}

// heapWriter discards what it is given and records the peak of the live heap.
type heapWriter struct {
	writes int
	peak   uint64
}

func (w *heapWriter) Write(p []byte) (int, error) {
	if w.writes++; w.writes%64 == 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.peak = max(w.peak, ms.HeapInuse)
	}
	return len(p), nil
}

// TestWriteLinesFlatMemory streams all 14,772,512 solutions of n = 16 (365,596 of n = 14
// in short mode) and checks the heap stays below a bound that does not depend on n: the
// mirror budget and the chunks in flight.
func TestWriteLinesFlatMemory(t *testing.T) {
	n := 16
	if testing.Short() {
		n = 14
	}
	// What the other tests left behind is collected first and not counted.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	w := &heapWriter{}
	st, err := enumerate.WriteLines(context.Background(), w, n, textFormat(n), enumerate.LinesOptions{Workers: 2})
	if err != nil || st.Solutions != oeis.Total(n) {
		t.Fatalf("n=%d: %+v %v", n, st, err)
	}
	const bound = 32 << 20
	grown := w.peak - min(w.peak, ms.HeapInuse)
	t.Logf("n=%d: peak heap in use %.1f MiB over %d writes, %.1f MiB more than before", n, float64(w.peak)/(1<<20), w.writes, float64(grown)/(1<<20))
	if grown > bound {
		t.Errorf("n=%d: the heap grew by %d bytes, more than %d", n, grown, bound)
	}
}

func BenchmarkWriteLines(b *testing.B) {
	for _, n := range []int{12, 14} {
		for _, w := range []int{1, 2} {
			for _, mb := range []int{-1, 0} {
				b.Run(fmt.Sprintf("n=%d/workers=%d/mirror=%v", n, w, mb == 0), func(b *testing.B) {
					var st enumerate.Stats
					for b.Loop() {
						st, _ = enumerate.WriteLines(context.Background(), io.Discard, n, textFormat(n),
							enumerate.LinesOptions{Workers: w, MirrorBytes: mb})
					}
					b.ReportMetric(float64(st.Nodes), "nodes/op")
					b.ReportMetric(float64(st.Solutions), "solutions/op")
				})
			}
		}
	}
}

// TestWriteLinesLimitStopsEarly: with a limit the search stops at the solution that
// reaches it, not when 64 KiB of solutions are ready: to the first solution, the
// listing visits about as many nodes as the plain backtracking search (it went on for
// ten times more at n = 28, 14 s instead of 1 at n = 32).
func TestWriteLinesLimitStopsEarly(t *testing.T) {
	for _, n := range []int{20, 24, 27} {
		_, want, err := backtrack.Find(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 2} {
			var out bytes.Buffer
			st, err := enumerate.WriteLines(context.Background(), &out, n, textFormat(n), enumerate.LinesOptions{Workers: w, Limit: 1})
			if err != nil || st.Solutions != 1 || strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("n=%d: %+v %v %q", n, st, err, out.String())
			}
			if w == 1 && st.Nodes > 2*want {
				t.Errorf("n=%d: %d nodes to the first solution, the backtracking search %d", n, st.Nodes, want)
			}
		}
	}
}
