package nqueens

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// verdicts runs VerifyPlacements over in and returns its verdicts and the error that
// ended them.
func verdicts(in string, maxQueens int) ([]Verdict, error) {
	var out []Verdict
	for v, err := range VerifyPlacements(context.Background(), strings.NewReader(in), VerifyOptions{MaxQueens: maxQueens}) {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// textOf writes p as a line of 1-based columns, separated as sep says.
func textOf(p Placement, sep string) string {
	var b strings.Builder
	for i, c := range p {
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprint(&b, int64(c)+1)
	}
	return b.String()
}

// TestVerifyPlacementsEqualsVerify: on any stream of placements, each verdict is Verify's
// answer on the placement in memory, the named pair included, whatever the columns
// (repeated, off the board, below 1, far beyond n) and however many placements came before.
func TestVerifyPlacementsEqualsVerify(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var ps []Placement
		var in strings.Builder
		for i := range rapid.IntRange(1, 4).Draw(t, "placements") {
			rows := rapid.IntRange(1, 40).Draw(t, fmt.Sprint("rows", i))
			var p Placement
			if rows >= 4 && rapid.Bool().Draw(t, "solution") {
				cols, _ := Construction(context.Background(), rows)
				for c := range cols {
					p = append(p, int32(c))
				}
			} else {
				for range rows {
					p = append(p, int32(rapid.IntRange(0, rows+1).Draw(t, "col")))
				}
			}
			for range rapid.IntRange(0, 3).Draw(t, "edits") {
				p[rapid.IntRange(0, rows-1).Draw(t, "row")] = int32(rapid.SampledFrom([]int{-1, -5, rows, rows + 3, 1 << 30, 1<<31 - 2, rapid.IntRange(0, rows-1).Draw(t, "c")}).Draw(t, "edit"))
			}
			ps = append(ps, p)
			in.WriteString(textOf(p, rapid.SampledFrom([]string{" ", ",", "\t", " , "}).Draw(t, "sep")) + "\n")
		}
		got, err := verdicts(in.String(), 0)
		if err != nil || len(got) != len(ps) {
			t.Fatalf("%q: %v, %v", in.String(), got, err)
		}
		for i, p := range ps {
			if want := Verify(p); got[i].N != len(p) || !reflect.DeepEqual(got[i].Err, want) {
				t.Fatalf("%v: verdict %d %v, Verify %v", p, got[i].N, got[i].Err, want)
			}
		}
	})
}

// TestVerifyPlacementsLarge: placements of many check batches, valid and with one edit
// anywhere, give Verify's answer.
func TestVerifyPlacementsLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{4095, 4096, 4097, 10007, 70001} {
		var p Placement
		cols, _ := Construction(context.Background(), n)
		for c := range cols {
			p = append(p, int32(c))
		}
		for trial := range 6 {
			q := append(Placement(nil), p...)
			if trial > 0 {
				q[rng.IntN(n)] = int32([]int{rng.IntN(n), n, -1, 3 * n}[trial%4])
			}
			got, err := verdicts(textOf(q, " ")+"\n", 0)
			if want := Verify(q); err != nil || len(got) != 1 || got[0].N != n || !reflect.DeepEqual(got[0].Err, want) {
				t.Fatalf("n=%d trial %d: %v %v, Verify %v", n, trial, got, err, want)
			}
		}
	}
}

// TestVerifyPlacementsStopsHolding: after a conflict that is certain whatever n (a column,
// diagonal or anti-diagonal seen twice, a column below 1), the rest of the placement is
// counted, not held: a placement far beyond maxQueens is verified all the same. Without a
// certain conflict, maxQueens still bounds what is held.
func TestVerifyPlacementsStopsHolding(t *testing.T) {
	tail := strings.Repeat(" 7", 100_000)
	for in, want := range map[string]*ConflictError{
		"1 1" + tail:       {Kind: SameColumn, N: 100_002, Row1: 0, Col1: 0, Row2: 1, Col2: 0},
		"1 2" + tail:       {Kind: SameDiagonal, N: 100_002, Row1: 0, Col1: 0, Row2: 1, Col2: 1},
		"2 1" + tail:       {Kind: SameAnti, N: 100_002, Row1: 0, Col1: 1, Row2: 1, Col2: 0},
		"5 0 3" + tail:     {Kind: OffBoard, N: 100_003, Row1: -1, Row2: 1, Col2: -1},
		"9 -3 1" + tail:    {Kind: OffBoard, N: 100_003, Row1: -1, Row2: 1, Col2: -4},
		"2 4 1 3 2" + tail: {Kind: SameColumn, N: 100_005, Row1: 0, Col1: 1, Row2: 4, Col2: 1},
	} {
		got, err := verdicts(in+"\n2 4 1 3\n", 1000)
		if err != nil || len(got) != 2 || got[0].N != want.N || !reflect.DeepEqual(got[0].Err, want) || got[1] != (Verdict{N: 4}) {
			t.Errorf("%.12q…: %v, %v; want %v", in, got, err, want)
		}
	}
	var far strings.Builder
	for i := range 1001 {
		fmt.Fprintf(&far, "%d ", 1_000_000+2*i)
	}
	var pe *ParseError
	if _, err := verdicts(far.String(), 1000); !errors.As(err, &pe) || !strings.Contains(err.Error(), "more than 1000 queens") {
		t.Errorf("no certain conflict in 1001 rows, 1000 allowed: %v", err)
	}
}

// TestVerifyPlacementsMemory: a text placement of 2^20 queens is verified in at most 5.5
// bytes per queen allocated in all (4 for the columns, 5 bits for the check and the
// growth of its sets), not the 20 of a growing slice and a Verify after it.
func TestVerifyPlacementsMemory(t *testing.T) {
	const n = 1 << 20
	cols, _ := Construction(context.Background(), n)
	var p Placement
	for c := range cols {
		p = append(p, int32(c))
	}
	in := textOf(p, " ") + "\n"
	p = nil
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := verdicts(in, 0)
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != 1 || got[0] != (Verdict{N: n}) {
		t.Fatalf("%v %v", got, err)
	}
	if perQueen := float64(after.TotalAlloc-before.TotalAlloc) / n; perQueen > 5.5 {
		t.Errorf("allocated %.1f bytes per queen, want at most 5.5", perQueen)
	}
}

// TestVerifyPlacementsClassMark: every unique solution of n = 12 (classes of 8, 4 and 2)
// with the mark list --unique writes, class_size=K, verifies; with another K the line is
// a *ParseError naming it. The class sizes come from Enumerate, not from Canonical, which
// the check uses.
func TestVerifyPlacementsClassMark(t *testing.T) {
	var in, lies []string
	sizes := map[int]int{}
	_, err := Enumerate(context.Background(), 12, EnumerateOptions{Unique: true}, func(p Placement, size int) bool {
		in = append(in, fmt.Sprintf("%s class_size=%d\n", textOf(p, " "), size))
		lies = append(lies, fmt.Sprintf("%s class_size=%d\n", textOf(p, " "), map[int]int{8: 4, 4: 2, 2: 8}[size]))
		sizes[size]++
		return true
	})
	if err != nil || len(in) != 1787 || len(sizes) != 3 {
		t.Fatalf("Enumerate 12: %d classes (sizes %v), %v", len(in), sizes, err)
	}
	if got, err := verdicts(strings.Join(in, ""), 0); err != nil || len(got) != len(in) {
		t.Fatalf("the marked solutions: %d verdicts, %v", len(got), err)
	}
	for i, lie := range lies {
		if sizes[8] > 0 && strings.HasSuffix(lie, "=4\n") && i%50 != 0 {
			continue // a sample of the classes of 8, every one of the others
		}
		got, err := verdicts(strings.Join(in[:i], "")+lie+strings.Join(in[i+1:], ""), 0)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != i+1 || !strings.Contains(pe.Msg, "class_size=") || len(got) != i {
			t.Fatalf("solution %d marked with a wrong class size: %d verdicts, %v", i+1, len(got), err)
		}
	}
}

// TestVerifyPlacementsCutShort: a solution of n = 300 cut anywhere inside its line, with
// no newline after it, is a *ParseError saying the input was cut short (after the valid
// lines before it); with the newline it is an ordinary invalid verdict, and the whole
// line without a newline is valid.
func TestVerifyPlacementsCutShort(t *testing.T) {
	cols, _ := Construction(context.Background(), 300)
	var p Placement
	for c := range cols {
		p = append(p, int32(c))
	}
	line := textOf(p, " ")
	if got, err := verdicts(line, 0); err != nil || len(got) != 1 || got[0].Err != nil || got[0].N != 300 {
		t.Fatalf("the whole line without a newline: %v, %v", got, err)
	}
	for _, cut := range []int{2, 17, 100, 500, len(line) / 2, len(line) - 2} {
		before := "2 4 1 3\n"
		got, err := verdicts(before+line[:cut], 0)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(pe.Msg, "cut short") || len(got) != 1 || got[0].Err != nil {
			t.Errorf("cut at byte %d: %v, %v", cut, got, err)
		}
		got, err = verdicts(before+line[:cut]+"\n", 0)
		if err != nil || len(got) != 2 || got[1].Err == nil {
			t.Errorf("cut at byte %d, with a newline: %v, %v", cut, got, err)
		}
	}
}
