package nqueens

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/oeis"
	"github.com/nqueens/nqueens/internal/refcount"
	"github.com/nqueens/nqueens/internal/u128"
)

// allSolutions enumerates every solution of n by brute force over permutations, with a
// quadratic check: a second algorithm, independent of the bitboard counters.
func allSolutions(n int) []Placement {
	var out []Placement
	p := make(Placement, n)
	used := make([]bool, n)
	var rec func(r int)
	rec = func(r int) {
		if r == n {
			out = append(out, slices.Clone(p))
			return
		}
		for c := range n {
			if used[c] {
				continue
			}
			ok := true
			for r1 := range r {
				if d := int(p[r1]) - c; d == r-r1 || d == r1-r {
					ok = false
					break
				}
			}
			if ok {
				used[c], p[r] = true, int32(c)
				rec(r + 1)
				used[c] = false
			}
		}
	}
	rec(0)
	return out
}

func TestCountKnown(t *testing.T) {
	maxN := 14
	if !testing.Short() {
		maxN = 16
	}
	for n := 1; n <= maxN; n++ {
		r, err := Count(context.Background(), n, CountOptions{})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if u128.U128(r.Total) != u128.From(oeis.Total(n)) || u128.U128(r.Unique) != u128.From(oeis.Unique(n)) || r.Status != Complete {
			t.Errorf("n=%d: got %d/%d (%v), want %d/%d", n, r.Total, r.Unique, r.Status, oeis.Total(n), oeis.Unique(n))
		}
	}
}

// TestCountAgainstBruteForce checks the counter against a second, independent algorithm:
// brute force over permutations, unique classes by canonical form.
func TestCountAgainstBruteForce(t *testing.T) {
	for n := 1; n <= 9; n++ {
		sols := allSolutions(n)
		classes := map[string]bool{}
		for _, p := range sols {
			c, _ := Canonical(p)
			classes[c.String()] = true
		}
		r, err := Count(context.Background(), n, CountOptions{Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if u128.U128(r.Total) != u128.From(uint64(len(sols))) || u128.U128(r.Unique) != u128.From(uint64(len(classes))) {
			t.Errorf("n=%d: counter %d/%d, brute force %d/%d", n, r.Total, r.Unique, len(sols), len(classes))
		}
	}
}

// TestFastAgainstPlain checks Count against the plain reference counter (row by row on
// bit masks, internal/refcount), per worker count and kernel.
func TestFastAgainstPlain(t *testing.T) {
	maxN := 13
	if !testing.Short() {
		maxN = 15
	}
	ctx := context.Background()
	for n := 1; n <= maxN; n++ {
		for _, w := range []int{1, 2, 3} {
			kernel := []string{"", "go", "auto"}[w-1]
			f, err1 := Count(ctx, n, CountOptions{Workers: w, Kernel: kernel})
			p, err2 := refcount.Count(ctx, n, w, nil)
			if err1 != nil || err2 != nil || u128.U128(f.Total) != u128.From(p.Total) || u128.U128(f.Unique) != u128.From(p.Unique) {
				t.Errorf("n=%d workers=%d kernel=%q: fast %d/%d (%v), plain %d/%d (%v)", n, w, kernel, f.Total, f.Unique, err1, p.Total, p.Unique, err2)
			}
		}
	}
}

func TestCountErrors(t *testing.T) {
	for _, n := range []int{0, -1, 33} {
		_, err := Count(context.Background(), n, CountOptions{})
		var se *SizeError
		if !errors.As(err, &se) {
			t.Errorf("n=%d: want *SizeError, got %v", n, err)
		}
	}
}

func TestSymmetries(t *testing.T) {
	for n := 1; n <= 10; n++ {
		sols := allSolutions(n)
		set := map[string]bool{}
		for _, p := range sols {
			set[p.String()] = true
		}
		classSum := 0
		seen := map[string]bool{}
		for _, p := range sols {
			for _, s := range Symmetries() {
				q := s.Apply(p)
				if err := Verify(q); err != nil || !set[q.String()] {
					t.Fatalf("n=%d: %v of %v = %v is not a solution (%v)", n, s, p, q, err)
				}
			}
			c, size := Canonical(p)
			if !seen[c.String()] {
				seen[c.String()] = true
				classSum += size
			}
			if slices.Compare(c, p) > 0 {
				t.Fatalf("n=%d: canonical %v is not ≤ %v", n, c, p)
			}
		}
		if classSum != len(sols) {
			t.Errorf("n=%d: class sizes sum to %d, want %d", n, classSum, len(sols))
		}
		if uint64(len(seen)) != oeis.Unique(n) {
			t.Errorf("n=%d: %d classes, want %d", n, len(seen), oeis.Unique(n))
		}
	}
}

func TestSymmetryGroup(t *testing.T) {
	// Rotating four times is the identity; mirroring twice too.
	p := Placement{1, 3, 0, 2, 4}
	q := p
	for range 4 {
		q = Rotate90.Apply(q)
	}
	if !slices.Equal(q, p) || !slices.Equal(Mirror.Apply(Mirror.Apply(p)), p) {
		t.Errorf("group laws fail: %v", q)
	}
	if got := Rotate180.Apply(p); !slices.Equal(got, Rotate90.Apply(Rotate90.Apply(p))) {
		t.Errorf("rotate180 != rotate90²: %v", got)
	}
}

func TestConstructionSmall(t *testing.T) {
	for n := 4; n <= 2000; n++ {
		cols, err := Construction(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyColumns(n, cols); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}

func TestConstructionLarge(t *testing.T) {
	// One n of each residue mod 6 near 10^6.
	for n := 1_000_000; n < 1_000_006; n++ {
		r, err := Solve(context.Background(), n, SolveOptions{Algorithm: Construct})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !naiveValidLinear(r.Placement) {
			t.Fatalf("n=%d: construction fails the independent check", n)
		}
	}
}

// naiveValidLinear is a second O(n) check with boolean slices, written separately from
// Verify so that a bug in one does not hide a bug in the other.
func naiveValidLinear(p Placement) bool {
	n := len(p)
	col, d1, d2 := make([]bool, n), make([]bool, 2*n), make([]bool, 2*n)
	for r, c := range p {
		if c < 0 || int(c) >= n || col[c] || d1[r+int(c)] || d2[r-int(c)+n] {
			return false
		}
		col[c], d1[r+int(c)], d2[r-int(c)+n] = true, true, true
	}
	return true
}

func TestSolve(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 40; n++ {
		for _, a := range []Algorithm{Auto, Construct, Backtrack} {
			r, err := Solve(ctx, n, SolveOptions{Algorithm: a})
			switch {
			case n == 2 || n == 3:
				if !errors.Is(err, ErrNoSolution) || r.Status != NoSolution {
					t.Errorf("n=%d %s: want ErrNoSolution, got %v", n, a, err)
				}
			case a == Backtrack && n > 32:
				var se *SizeError
				if !errors.As(err, &se) {
					t.Errorf("n=%d backtrack: want *SizeError, got %v", n, err)
				}
			default:
				if err != nil || Verify(r.Placement) != nil || r.Algorithm == Auto {
					t.Errorf("n=%d %s: %v %v", n, a, r.Placement, err)
				}
			}
		}
	}
}

func TestFormatsRoundTrip(t *testing.T) {
	p := Placement{1, 3, 0, 2}
	for _, f := range []Format{Text, Board, JSON} {
		var buf bytes.Buffer
		if err := WritePlacement(context.Background(), &buf, f, p); err != nil {
			t.Fatal(err)
		}
		q, err := ParsePlacement(buf.String())
		if err != nil || !slices.Equal(q, p) {
			t.Errorf("%s: %q read back as %v (%v)", f, buf.String(), q, err)
		}
	}
	var buf bytes.Buffer
	WritePlacement(context.Background(), &buf, Binary, p)
	if !bytes.Equal(buf.Bytes(), []byte{1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}) {
		t.Errorf("binary: %v", buf.Bytes())
	}
	q, err := ReadBinary(&buf)
	if err != nil || !slices.Equal(q, p) {
		t.Errorf("binary read back as %v (%v)", q, err)
	}
}

func TestFormatsExact(t *testing.T) {
	p := Placement{1, 3, 0, 2}
	want := map[Format]string{
		Text:  "2 4 1 3\n",
		JSON:  `{"n":4,"columns":[2,4,1,3]}` + "\n",
		Board: ". Q . .\n. . . Q\nQ . . .\n. . Q .\n",
	}
	for f, w := range want {
		var buf bytes.Buffer
		WritePlacement(context.Background(), &buf, f, p)
		if buf.String() != w {
			t.Errorf("%s: got %q, want %q", f, buf.String(), w)
		}
	}
}

func TestReadPlacementsMixed(t *testing.T) {
	in := "# two solutions of n=4\n2 4 1 3\n3,1,4,2\n\n{\"columns\":[2,4,1,3]}\n.Q..\n...Q\nQ...\n..Q.\n"
	ps, err := readPlacements(bytes.NewBufferString(in))
	if err != nil || len(ps) != 4 {
		t.Fatalf("got %v, %v", ps, err)
	}
	for _, p := range ps {
		if Verify(p) != nil {
			t.Errorf("%v should verify", p)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"", "2 x 1", "{\"columns\":", `{"n":3,"columns":[1,2]}`, "Q.\nQ.Q", "99999999999 1"} {
		if _, err := ParsePlacement(in); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
	if _, err := ReadBinary(bytes.NewReader([]byte{1, 0, 0})); err == nil {
		t.Error("truncated binary: want an error")
	}
}

func TestPartial(t *testing.T) {
	p, err := ParsePartial("1:2, 3:1", 4)
	if err != nil || p.String() != "1:2,3:1" || p[1] != -1 {
		t.Fatalf("got %v %v", p, err)
	}
	q, err := ParsePartial("2 0 . 3", 0)
	if err != nil || len(q) != 4 || q[0] != 1 || q[1] != -1 || q[2] != -1 || q[3] != 2 {
		t.Fatalf("got %v %v", q, err)
	}
	if err := q.Check(); err != nil {
		t.Errorf("2 . . 3 has no attack, got %v", err)
	}
	bad, _ := ParsePartial("1:1,3:3", 4)
	var ce *ConflictError
	if err := bad.Check(); !errors.As(err, &ce) || ce.Kind != SameDiagonal || ce.Row1 != 0 || ce.Row2 != 2 {
		t.Errorf("1:1,3:3: got %v", err)
	}
	for _, in := range []string{"1:5", "0:1", "1:1,1:2", "a:b", "1 2 3", "1 2 3 -1"} {
		if _, err := ParsePartial(in, 4); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
	// A line that sets the size and names a column past its length was cut short: the
	// message says how long it must be at least.
	if _, err := ParsePartial("1 5 0", 0); err == nil || !strings.Contains(err.Error(), "at least 5") {
		t.Errorf("1 5 0 without n: got %v, want a line cut short, at least 5 entries", err)
	}
	// The message names what is wrong: a word that is no column before a count of entries.
	for in, want := range map[string]string{
		"abc":     `"abc" is neither a column nor 0 or '.' for an empty row`,
		"1 . x 2": `"x" is neither a column nor 0 or '.' for an empty row`,
		"3":       "partial placement has 1 entry, want one per row (4)",
		"1 . 3":   "partial placement has 3 entries, want one per row (4)",
		"1 . 5 0": "row 3: column 5 is off the board (n = 4)",
	} {
		if _, err := ParsePartial(in, 4); err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %s", in, err, want)
		}
	}
}

func TestSolveMemoryLimit(t *testing.T) {
	_, err := Solve(context.Background(), 100_000_000, SolveOptions{Algorithm: LocalSearch, MaxMemory: 100 << 20})
	var me *MemoryError
	if !errors.As(err, &me) || me.Need < 450_000_000 || me.Error() != "n = 100000000 needs 450 MB of memory, more than the 105 MB available" {
		t.Fatalf("want a MemoryError, got %v", err)
	}
	r, err := Solve(context.Background(), 100_000, SolveOptions{Algorithm: LocalSearch, MaxMemory: 1 << 20, Seed: 1})
	if err != nil || Verify(r.Placement) != nil {
		t.Errorf("n=10^5 fits in 1 MB? %v", err)
	}
}

// TestKnownCounts: the published counts equal the plain counter's for n ≤ 12, and the
// table ends where it says.
func TestKnownCounts(t *testing.T) {
	for n := 1; n <= 12; n++ {
		total, unique, ok := KnownCounts(n)
		r, err := refcount.Count(context.Background(), n, 0, nil)
		if !ok || err != nil || total != r.Total || unique != r.Unique {
			t.Errorf("n=%d: known %d %d %v, counted %d %d %v", n, total, unique, ok, r.Total, r.Unique, err)
		}
	}
	for _, n := range []int{0, -1, maxKnownN + 1} {
		if _, _, ok := KnownCounts(n); ok {
			t.Errorf("n=%d: counts known", n)
		}
	}
	if _, _, ok := KnownCounts(maxKnownN); !ok {
		t.Errorf("n=%d: no counts", maxKnownN)
	}
}

// TestFindCompletionLargeBoard: a board of 10^6 rows (2·10^5 with -short) with a thousandth
// of its queens taken from a random solution is completed in O(n) memory, the fixed
// queens in place; it was refused before as needing 24·n² bytes (24 TB). Without the
// memory for the complete search, an instance the local search cannot complete is
// unknown, never "no completion".
func TestFindCompletionLargeBoard(t *testing.T) {
	ctx := context.Background()
	n := 1_000_000
	if testing.Short() {
		n = 200_000
	}
	p, err := GenerateInstance(ctx, n, n/1000, FromSolution, 3)
	if err != nil {
		t.Fatal(err)
	}
	r, err := FindCompletion(ctx, p, CompletionOptions{Seed: 1})
	if err != nil || r.Algorithm != LocalSearch || r.Status != Complete {
		t.Fatalf("n=%d: %v, algorithm %s, status %v", n, err, r.Algorithm, r.Status)
	}
	if err := Verify(r.Placement); err != nil {
		t.Fatal(err)
	}
	for row, c := range p {
		if c >= 0 && r.Placement[row] != c {
			t.Fatalf("row %d: fixed queen moved", row+1)
		}
	}
	_, err = FindCompletion(ctx, Partial{0, -1, -1, -1}, CompletionOptions{MaxMemory: 100, Runs: 2})
	if !errors.Is(err, ErrCompletionUnknown) || errors.Is(err, ErrNoSolution) ||
		!strings.Contains(err.Error(), "2 runs of the local search found none, and the complete search of n = 4 needs") {
		t.Errorf("corner of n=4 without memory for the complete search: %v", err)
	}
	// Counting needs the complete search: its memory is checked, not the local search's.
	var me *MemoryError
	if _, err := CountCompletions(ctx, p, CompletionOptions{}); !errors.As(err, &me) {
		t.Errorf("count of n=%d: %v, want a MemoryError", n, err)
	}
}

// TestUint128 (issue 39): Uint128 is the root's own type, so that go doc lists its
// methods; it spells and reads exact decimal JSON numbers, also above 2^64, and its
// fields are Hi·2^64 + Lo.
func TestUint128(t *testing.T) {
	if p := reflect.TypeFor[Uint128]().PkgPath(); p != "github.com/nqueens/nqueens" {
		t.Errorf("Uint128 is a type of %s", p)
	}
	big := Uint128{Hi: 1, Lo: 39029188884816} // 2^64 + 39029188884816
	for _, c := range []struct {
		x    Uint128
		text string
	}{{Uint128{}, "0"}, {Uint128{Lo: 14200}, "14200"}, {Uint128{Lo: 1<<64 - 1}, "18446744073709551615"},
		{big, "18446783102898436432"}, {Uint128{Hi: 1<<64 - 1, Lo: 1<<64 - 1}, "340282366920938463463374607431768211455"}} {
		if got := c.x.String(); got != c.text {
			t.Errorf("%#v.String() = %s, want %s", c.x, got, c.text)
		}
		b, err := json.Marshal(struct{ Total Uint128 }{c.x})
		if err != nil || string(b) != `{"Total":`+c.text+`}` {
			t.Errorf("%#v in JSON: %s, %v", c.x, b, err)
		}
		var back struct{ Total Uint128 }
		if err := json.Unmarshal(b, &back); err != nil || back.Total != c.x {
			t.Errorf("%s read back: %#v, %v", b, back.Total, err)
		}
	}
	var x Uint128
	for _, bad := range []string{`-1`, `1.5`, `"7"`, `340282366920938463463374607431768211456`} {
		if err := json.Unmarshal([]byte(bad), &x); err == nil {
			t.Errorf("%s read as %v", bad, x)
		}
	}
}

// TestCountCompletionsResult: CountCompletions returns one result with its status: the
// count and Complete, Count's total for an empty board, Failed with the conflict, and
// Interrupted when cancelled.
func TestCountCompletionsResult(t *testing.T) {
	ctx := context.Background()
	p, _ := ParsePartial("1:1", 8)
	res, err := CountCompletions(ctx, p, CompletionOptions{})
	if err != nil || res.Total != 4 || res.Status != Complete || res.Algorithm != Propagation || res.N != 8 || res.Stats.Nodes == 0 {
		t.Errorf("1:1 on 8: %+v, %v; want 4 completions, complete, propagation", res, err)
	}
	want, _, _ := KnownCounts(10)
	res, err = CountCompletions(ctx, emptyPartial(10), CompletionOptions{})
	if err != nil || res.Total != want || res.Status != Complete || res.Algorithm != "" {
		t.Errorf("empty 10: %+v, %v; want %d by Count", res, err, want)
	}
	p, _ = ParsePartial("1:1, 2:2", 8)
	if res, err = CountCompletions(ctx, p, CompletionOptions{}); err == nil || res.Status != Failed {
		t.Errorf("conflicting queens: %+v, %v; want failed", res, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	p, _ = ParsePartial("1:2", 16)
	if res, err = CountCompletions(cctx, p, CompletionOptions{}); !errors.Is(err, context.Canceled) || res.Status != Interrupted {
		t.Errorf("cancelled: %+v, %v; want interrupted", res, err)
	}
}

// TestSolveMemoryOnce: Solve checks its memory once, against MaxMemory, for the algorithm
// that runs: the construction's held placement too; CheckSize checks no memory, so that a
// MaxMemory above this machine's limit is Solve's to take (issue 40).
func TestSolveMemoryOnce(t *testing.T) {
	ctx := context.Background()
	const n = 1_000_000
	var me *MemoryError
	for _, a := range []Algorithm{Construct, LocalSearch} {
		_, err := Solve(ctx, n, SolveOptions{Algorithm: a, MaxMemory: 1 << 20})
		if !errors.As(err, &me) || me.Have != 1<<20 || me.Need <= 4*n {
			t.Errorf("%s, n = %d in 1 MiB: %v, want a MemoryError needing more than 4 bytes a queen", a, n, err)
		}
		if res, err := Solve(ctx, n, SolveOptions{Algorithm: a, MaxMemory: 64 << 20}); err != nil || len(res.Placement) != n {
			t.Errorf("%s, n = %d in 64 MiB: %v", a, n, err)
		}
	}
	if err := LocalSearch.CheckSize(MaxN); err != nil {
		t.Errorf("CheckSize(MaxN) = %v: it checks the size only", err)
	}
}
