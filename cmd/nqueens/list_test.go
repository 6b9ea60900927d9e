package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
)

func TestListGolden(t *testing.T) {
	runGolden(t, []goldenCase{
		{"list-4", "", []string{"list", "4"}},
		{"list-6-unique", "", []string{"list", "6", "--unique"}},
		{"list-8-unique-json-limit", "", []string{"list", "8", "--unique", "--json", "--limit", "3"}},
		{"list-5-json-limit", "", []string{"list", "5", "--format", "json", "--limit", "4"}},
		{"list-4-board-unique", "", []string{"list", "4", "--format", "board", "--unique"}},
		{"list-1", "", []string{"list", "1", "--unique"}},
		{"list-3", "", []string{"list", "3"}},
		{"list-too-big", "", []string{"list", "33"}},
		{"list-binary", "", []string{"list", "8", "--format", "binary"}},
		{"list-bad-format", "", []string{"list", "8", "--format", "xml"}},
		{"list-no-arg", "", []string{"list"}},
	})
}

// A000170 and A002562 for n = 1..10.
var (
	totals  = []int{1, 0, 0, 2, 10, 4, 40, 92, 352, 724}
	uniques = []int{1, 0, 0, 1, 2, 1, 6, 12, 46, 92}
)

// bruteSolutions lists every solution by testing all n^n assignments of columns to rows
// in lexicographic order (an odometer), pairwise: a reference that shares nothing with
// the bitboard search.
func bruteSolutions(n int) []string {
	var out []string
	q := make([]int, n)
	for {
		ok := true
		for i := 0; i < n && ok; i++ {
			for j := 0; j < i; j++ {
				if q[i] == q[j] || q[i]-q[j] == i-j || q[j]-q[i] == i-j {
					ok = false
					break
				}
			}
		}
		if ok {
			s := make([]string, n)
			for i, c := range q {
				s[i] = strconv.Itoa(c + 1)
			}
			out = append(out, strings.Join(s, " "))
		}
		i := n - 1
		for ; i >= 0; i-- {
			if q[i]++; q[i] < n {
				break
			}
			q[i] = 0
		}
		if i < 0 {
			return out
		}
	}
}

func TestListEqualsReference(t *testing.T) {
	maxN := 7 // n^n candidates: 0.8 M for n = 7, 17 M for n = 8
	if !testing.Short() {
		maxN = 8
	}
	for n := 1; n <= 10; n++ {
		code, out, errs := runCLI(t, "", "list", strconv.Itoa(n))
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if out == "" {
			lines = nil
		}
		if len(lines) != totals[n-1] || code != 0 { // zero solutions is an answer too
			t.Fatalf("n=%d: exit %d, %d lines, want %d (%s)", n, code, len(lines), totals[n-1], errs)
		}
		seen := map[string]bool{}
		for _, l := range lines {
			p, err := nqueens.ParsePlacement(l)
			if err != nil || nqueens.Verify(p) != nil || len(p) != n || seen[l] {
				t.Fatalf("n=%d: %q invalid or repeated (%v)", n, l, err)
			}
			seen[l] = true
		}
		if n <= maxN && !slices.Equal(lines, bruteSolutions(n)) {
			t.Errorf("n=%d: list differs from the brute-force reference", n)
		}
	}
}

func TestListUnique(t *testing.T) {
	for n := 1; n <= 10; n++ {
		code, out, _ := runCLI(t, "", "list", strconv.Itoa(n), "--unique", "--json")
		if code != 0 {
			t.Fatalf("n=%d: exit %d", n, code)
		}
		classes, sum := 0, 0
		for l := range strings.Lines(out) {
			var o struct {
				N         int
				Columns   []int32
				ClassSize int `json:"class_size"`
			}
			if err := json.Unmarshal([]byte(l), &o); err != nil || o.N != n {
				t.Fatalf("n=%d: %q: %v", n, l, err)
			}
			p := make(nqueens.Placement, n)
			for i, c := range o.Columns {
				p[i] = c - 1
			}
			canon, size := nqueens.Canonical(p)
			if nqueens.Verify(p) != nil || !slices.Equal(canon, p) || size != o.ClassSize {
				t.Errorf("n=%d: %v (class %d) is not canonical (%v, %d)", n, p, o.ClassSize, canon, size)
			}
			classes++
			sum += o.ClassSize
		}
		if classes != uniques[n-1] || sum != totals[n-1] {
			t.Errorf("n=%d: %d classes of total size %d, want %d and %d", n, classes, sum, uniques[n-1], totals[n-1])
		}
	}
}

func TestListFormatsVerify(t *testing.T) {
	for _, f := range []string{"text", "board", "json"} {
		for _, unique := range []bool{false, true} {
			args, want := []string{"list", "7", "--format", f}, 40
			if unique {
				args, want = append(args, "--unique"), 6
			}
			code, out, _ := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d", args, code)
			}
			ps, err := readAll(strings.NewReader(out))
			if err != nil || len(ps) != want {
				t.Fatalf("%v: %d placements read back, %v", args, len(ps), err)
			}
			if code, _, errs := runCLI(t, out, "verify"); code != 0 {
				t.Errorf("%v | verify: exit %d %s", args, code, errs)
			}
		}
	}
}

// BenchmarkList14 compares `nqueens list 14` (search, verification, formatting and
// writing to /dev/null; with one worker and with one per core) with a simple loop that
// writes the same bytes from solutions held in memory: the issue asks for at most 2×
// (what=list against what=plainloop; bench/list.sh measures the same on whole processes).
// what=copy writes the finished bytes in 64 KiB chunks, the cost of the I/O alone.
func BenchmarkList14(b *testing.B) {
	const n = 14
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	var sols []nqueens.Placement
	nqueens.Enumerate(context.Background(), n, nqueens.EnumerateOptions{}, func(p nqueens.Placement, _ int) bool {
		sols = append(sols, slices.Clone(p))
		return true
	})
	var all strings.Builder
	for _, p := range sols {
		all.WriteString(p.String())
		all.WriteByte('\n')
	}
	bytes := []byte(all.String())
	for _, w := range []string{"1", "0"} {
		name := "what=list/workers=" + w
		if w == "0" {
			name = "what=list/workers=all"
		}
		b.Run(name, func(b *testing.B) {
			e := &env{ctx: context.Background(), stdout: devnull, stderr: devnull, settings: defaultSettings()}
			for b.Loop() {
				root := newRoot(e)
				root.SetArgs([]string{"list", strconv.Itoa(n), "--workers", w})
				if err := root.Execute(); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(bytes)))
		})
	}
	b.Run("what=plainloop", func(b *testing.B) {
		for b.Loop() {
			bw := bufio.NewWriterSize(devnull, 1<<16)
			var line []byte
			for _, p := range sols {
				line = line[:0]
				for i, c := range p {
					if i > 0 {
						line = append(line, ' ')
					}
					line = strconv.AppendInt(line, int64(c)+1, 10)
				}
				line = append(line, '\n')
				bw.Write(line)
			}
			bw.Flush()
		}
		b.SetBytes(int64(len(bytes)))
	})
	b.Run("what=copy", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i < len(bytes); i += 1 << 16 {
				devnull.Write(bytes[i:min(i+1<<16, len(bytes))])
			}
		}
		b.SetBytes(int64(len(bytes)))
	})
}

// TestListInterrupted: Ctrl-C stops a listing with its summary, complete=false, as count
// and lab print theirs: listed= counts the lines printed, every one a solution.
func TestListInterrupted(t *testing.T) {
	for _, args := range [][]string{{"list", "16"}, {"list", "15", "--unique", "--json"}} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errb lockedBuffer
		done := make(chan int)
		go func() { done <- run(ctx, strings.NewReader(""), &out, &errb, args) }()
		// Under way: some solutions out (a slow machine, the race detector), then stop.
		for start := time.Now(); !strings.Contains(out.String(), "\n") && time.Since(start) < 20*time.Second; {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		code := <-done
		if code != exitInterrupted {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		m := regexp.MustCompile(`(?m)^n=\d+ listed=(\d+) total=\d+ verified=true seconds=[0-9.]+ complete=false\nnqueens: interrupted after (\d+) solutions`).FindStringSubmatch(errb.String())
		if m == nil {
			t.Fatalf("%v: no partial summary on stderr: %q", args, errb.String())
		}
		lines := strings.Count(out.String(), "\n")
		if strconv.Itoa(lines) != m[1] || m[1] != m[2] {
			t.Errorf("%v: %d lines printed, the summary says listed=%s, the message %s", args, lines, m[1], m[2])
		}
		if _, err := readAll(strings.NewReader(out.String())); err != nil {
			t.Errorf("%v: the partial listing does not read: %v", args, err)
		}
	}
}

// readAll reads every placement of the text out, as verify reads them; it is an error
// when there is none.
func readAll(r io.Reader) ([]nqueens.Placement, error) {
	var out []nqueens.Placement
	for p, err := range nqueens.Placements(context.Background(), r, nqueens.MaxN) {
		if err != nil {
			return nil, err
		}
		out = append(out, slices.Clone(p))
	}
	if len(out) == 0 {
		return nil, errors.New("no placement")
	}
	return out, nil
}
