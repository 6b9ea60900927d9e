package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
)

func TestCompleteGolden(t *testing.T) {
	runGolden(t, []goldenCase{
		{"complete-8", "", []string{"complete", "8", "--fix", "1:1,2:5", "--seed", "1"}},
		{"complete-8-board", "", []string{"complete", "--fix", "1 5 0 0 . 0 0 0", "--format", "board", "--seed", "1"}},
		{"complete-8-json", "", []string{"complete", "8", "--fix", "1:1, 2:5", "--json", "--seed", "1"}},
		{"complete-none", "", []string{"complete", "8", "--fix", "1:1,2:3", "--seed", "1"}},
		{"complete-count", "", []string{"complete", "8", "--fix", "1:1", "--count"}},
		{"complete-count-json", "", []string{"complete", "8", "--fix", "1:1", "--count", "--json"}},
		{"complete-count-seed", "", []string{"complete", "8", "--fix", "1:1", "--count", "--seed", "5"}},
		{"complete-count-empty", "", []string{"complete", "--fix", ". . . . . . . . . .", "--count"}},
		{"complete-stdin", "3:1\n", []string{"complete", "6", "--fix-file", "-", "--seed", "1"}},
		{"complete-attack", "", []string{"complete", "8", "--fix", "1:1,4:4"}},
		{"complete-same-row", "", []string{"complete", "8", "--fix", "2:1,2:4"}},
		{"complete-offboard", "", []string{"complete", "8", "--fix", "9:1"}},
		{"complete-garbage", "", []string{"complete", "8", "--fix", "1-2"}},
		{"complete-no-fix", "", []string{"complete", "8"}},
		{"complete-missing-file", "", []string{"complete", "8", "--fix-file", "testdata/no-such-file"}},
		{"complete-empty-file", "", []string{"complete", "8", "--fix-file", "testdata/fix-empty.txt"}},
		{"complete-blank-file", "", []string{"complete", "8", "--fix-file", "testdata/fix-blank.txt"}},
		{"complete-blank-fix", "", []string{"complete", "8", "--fix", " "}},
		{"complete-cut-file", "", []string{"complete", "--fix-file", "testdata/fix-cut.txt"}},
		{"complete-cut-file-n", "", []string{"complete", "6", "--fix-file", "testdata/fix-cut.txt", "--seed", "1"}},
		{"complete-cut-column", "", []string{"complete", "--fix-file", "testdata/fix-cut-column.txt"}},
		{"complete-row-file", "", []string{"complete", "--fix-file", "testdata/fix-row.txt", "--seed", "1"}},
		{"complete-generate", "", []string{"complete", "--generate", "30", "--fixed", "6", "--seed", "4"}},
		{"complete-generate-json", "", []string{"complete", "--generate", "30", "--fixed", "6", "--seed", "4", "--mode", "random", "--json"}},
		{"complete-generate-bad", "", []string{"complete", "--generate", "8", "--fixed", "9"}},
		{"complete-generate-no-fixed", "", []string{"complete", "--generate", "8"}},
		{"complete-generate-empty", "", []string{"complete", "--generate", "8", "--fixed", "0", "--seed", "1"}},
		{"complete-fixed-alone", "", []string{"complete", "8", "--fix", "1:1", "--fixed", "3"}},
		{"complete-none-one-queen", "", []string{"complete", "6", "--fix", "1:1", "--seed", "1"}},
		{"complete-count-too-large", "", []string{"complete", "2e6", "--fix", "1:1", "--count"}},
	})
}

// TestCompleteLargeBoard: a board of 10^5 rows with one queen fixed is completed by the
// O(n) local search (it was refused as needing 241 GB), the completion verified and the
// queen in place.
func TestCompleteLargeBoard(t *testing.T) {
	code, out, errs := runCLI(t, "", "complete", "1e5", "--fix", "1:1,50000:7", "--json", "--seed", "1")
	var o completeOutput
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil {
		t.Fatalf("exit %d %.200s %s", code, out, errs)
	}
	q := make(nqueens.Placement, len(o.Columns))
	for i, c := range o.Columns {
		q[i] = int32(c - 1)
	}
	if err := nqueens.Verify(q); err != nil || len(q) != 100_000 || q[0] != 0 || q[49_999] != 6 || o.Algorithm != "localsearch" || !o.Verified {
		t.Errorf("n=%d algorithm %s: %v", len(q), o.Algorithm, err)
	}
}

// TestCompleteUnknown: when the local search gives up and the complete search does not fit
// the memory, complete says unknown, exit 3, never "no completion" (exit 1).
func TestCompleteUnknown(t *testing.T) {
	s := defaultSettings()
	s.completeMemoryLimit = 100 // the corner of n = 4 has no completion, but only the complete search can tell
	for _, args := range [][]string{{"complete", "4", "--fix", "1:1", "--seed", "1"}, {"complete", "4", "--fix", "1:1", "--json"}} {
		code, out, errs := runCLIWith(t, s, "", args...)
		if code != exitUnknown || out != "" || strings.Count(errs, "\n") != 1 ||
			!strings.HasPrefix(errs, "nqueens: unknown: no completion found within the budget, and none ruled out: 16 runs of the local search found none, and the complete search of n = 4 needs") ||
			!strings.Contains(errs, "(n=4, 1 queen fixed, seed=") {
			t.Errorf("%v: exit %d %q %q", args, code, out, errs)
		}
	}
}

// TestCompleteGenerated: generated instances complete; each completion verifies and keeps
// the fixed queens; the count of small ones matches the number of listed solutions that
// keep them.
func TestCompleteGenerated(t *testing.T) {
	for _, n := range []int{6, 9, 40, 150} {
		for seed := range 4 {
			for _, mode := range []string{"solution", "random"} {
				args := []string{"complete", "--generate", fmt.Sprint(n), "--fixed", fmt.Sprint(n / 4), "--seed", fmt.Sprint(seed), "--mode", mode}
				code, inst, errs := runCLI(t, "", args...)
				if code != 0 {
					t.Fatalf("%v: exit %d %s", args, code, errs)
				}
				p, err := nqueens.ParsePartial(inst, n)
				if err != nil || p.Check() != nil {
					t.Fatalf("%q: %v %v", inst, err, p.Check())
				}
				code, out, errs := runCLI(t, "", "complete", fmt.Sprint(n), "--fix", inst, "--json", "--seed", "1")
				if code == 1 && mode == "random" {
					continue
				}
				var o struct{ Columns []int32 }
				if code != 0 || json.Unmarshal([]byte(out), &o) != nil {
					t.Fatalf("n=%d %s: exit %d %q %s", n, inst, code, out, errs)
				}
				q := make(nqueens.Placement, len(o.Columns))
				for i, c := range o.Columns {
					q[i] = c - 1
				}
				if err := nqueens.Verify(q); err != nil || len(q) != n {
					t.Fatalf("n=%d: %v", n, err)
				}
				for r, c := range p {
					if c >= 0 && q[r] != c {
						t.Fatalf("n=%d: fixed queen of row %d moved", n, r+1)
					}
				}
				if n > 9 {
					continue
				}
				_, list, _ := runCLI(t, "", "list", fmt.Sprint(n))
				want := 0
				for l := range strings.Lines(list) {
					s, _ := nqueens.ParsePlacement(l)
					keep := true
					for r, c := range p {
						keep = keep && (c < 0 || s[r] == c)
					}
					if keep {
						want++
					}
				}
				_, out, _ = runCLI(t, "", "complete", fmt.Sprint(n), "--fix", inst, "--count")
				if !strings.Contains(out, fmt.Sprintf(" total=%d ", want)) {
					t.Errorf("n=%d %s: %q, want count %d", n, inst, out, want)
				}
			}
		}
	}
}

// FuzzCompleteFix runs the CLI on arbitrary --fix strings: it never panics, exits 0, 1
// or 2, prints one error line when it fails, and prints only valid completions.
func FuzzCompleteFix(f *testing.F) {
	for _, s := range []string{"1:1,2:5", "1 5 0 0 . 0 0 0", "1:1,1:2", "9:9", "0:0", "1:", ":1", "1:1,,2:3", "-1:2", "1:1 4:4", "x", ". . .", "99999999999999999999:1", "1:1\n2:3"} {
		f.Add(s, uint8(8))
	}
	f.Fuzz(func(t *testing.T, fix string, n uint8) {
		size := int(n%12) + 1
		code, out, errs := runCLI(t, "", "complete", fmt.Sprint(size), "--fix", fix, "--seed", "1")
		switch code {
		case 0:
			q, err := nqueens.ParsePlacement(out)
			if err != nil || nqueens.Verify(q) != nil || len(q) != size {
				t.Fatalf("%q: printed %q (%v)", fix, out, err)
			}
			p, err := nqueens.ParsePartial(fix, size)
			if err != nil {
				t.Fatalf("%q: completed, but ParsePartial fails: %v", fix, err)
			}
			for r, c := range p {
				if c >= 0 && q[r] != c {
					t.Fatalf("%q: fixed queen of row %d moved", fix, r+1)
				}
			}
		case 1, 2:
			if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "nqueens: ") {
				t.Fatalf("%q: exit %d, stderr %q", fix, code, errs)
			}
		default:
			t.Fatalf("%q: exit %d", fix, code)
		}
	})
}

// TestCompleteCountInterrupted: Ctrl-C during complete --count prints the count so far,
// marked partial, and exits 130.
func TestCompleteCountInterrupted(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		args := []string{"complete", "20", "--fix", "1:1", "--count"}
		if asJSON {
			args = append(args, "--json")
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		var out, errb bytes.Buffer
		code := run(ctx, strings.NewReader(""), &out, &errb, args)
		if code != exitInterrupted || !strings.Contains(errb.String(), "partial") {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		if asJSON {
			var o completeOutput
			if err := json.Unmarshal(out.Bytes(), &o); err != nil || o.Total == nil || o.Complete == nil || *o.Complete {
				t.Errorf("%v: %q", args, out.String())
			}
		} else if !regexp.MustCompile(`^n=20 fixed=1 total=\d+ seconds=[0-9.]+ complete=false\n$`).MatchString(out.String()) {
			t.Errorf("%v: %q", args, out.String())
		}
	}
}

// TestCompleteTooLarge: a count whose search the memory cannot hold is refused at once, as
// a usage error saying what it needs (it grew to gigabytes, then died). Finding one
// completion of such a board is TestCompleteLargeBoard's.
func TestCompleteTooLarge(t *testing.T) {
	for _, args := range [][]string{{"complete", "1000000", "--fix", "1:1", "--count"}} {
		start := time.Now()
		code, out, errs := runCLI(t, "", args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, "n = 1000000 needs 24 TB of memory, more than") || time.Since(start) > 5*time.Second {
			t.Errorf("%v: exit %d after %v, %q %q", args, code, time.Since(start), out, errs)
		}
	}
}
