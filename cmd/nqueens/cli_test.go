package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// What a user sees at the command line: flags that exclude each other, the one summary
// line, empty answers, counters that are zero, help written to a full disk.

// TestConflictingFlags: two flags of which one would be ignored are refused before any
// work, exit 2, in one line that names both.
func TestConflictingFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		a, b string // the flags the message names
	}{
		{[]string{"solve", "8", "--json", "--format", "board"}, "--json", "--format board"},
		{[]string{"solve", "8", "-f", "text", "--json"}, "--json", "--format text"},
		{[]string{"solve", "100", "--json", "--format", "binary", "--out", "-"}, "--json", "--format binary"},
		{[]string{"list", "6", "--json", "--format", "board"}, "--json", "--format board"},
		{[]string{"list", "6", "--format", "text", "--json"}, "--json", "--format text"},
		{[]string{"complete", "8", "--fix", "1:1", "--json", "--format", "board"}, "--json", "--format board"},
		{[]string{"complete", "8", "--fix", "1:1", "--count", "--format", "board"}, "--count", "--format board"},
		{[]string{"complete", "--generate", "8", "--fixed", "2", "--format", "json"}, "--generate", "--format"},
		{[]string{"complete", "8", "--fix", "1:1", "--fixed", "3"}, "--fixed", "--generate"},
		{[]string{"complete", "8", "--fix", "1:1", "--mode", "random"}, "--mode", "--generate"},
		{[]string{"lab", "backtrack", "4", "--json", "--csv"}, "--json", "--csv"},
		{[]string{"lab", "lasvegas", "8", "--exact", "--trials", "5"}, "--exact", "--trials"},
		{[]string{"lab", "lasvegas", "8", "--seed", "1", "--exact"}, "--exact", "--seed"},
		{[]string{"lab", "lasvegas", "8", "--exact", "--objective", "time"}, "--exact", "--objective"},
		{[]string{"lab", "lasvegas", "8", "--exact", "--max-checks", "10"}, "--exact", "--max-checks"},
		{[]string{"lab", "lasvegas", "8", "--variant", "row", "--max-draws", "10"}, "--variant row", "--max-draws"},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 ||
			!strings.Contains(errs, c.a) || !strings.Contains(errs, c.b) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line naming %s and %s",
				c.args, code, out, errs, c.a, c.b)
		}
	}
}

// TestCompatibleFlags: flags that agree, or that speak of different outputs, still run.
func TestCompatibleFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "q.txt")
	for _, args := range [][]string{
		{"solve", "8", "--json", "--format", "json"},
		{"solve", "8", "--json=false", "--format", "board"},
		{"list", "4", "--json", "-f", "json"},
		{"complete", "8", "--fix", "1:1", "--json", "--format", "json"},
		{"lab", "lasvegas", "6", "--exact", "--variant", "cell", "--max-draws", "40", "--ms", "0..2"},
		{"lab", "lasvegas", "6", "--variant", "row", "--trials", "2", "--seed", "1", "--ms", "1"},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	// With --out, --format is the file's and --json the summary's.
	code, out, errs := runCLI(t, "", "solve", "8", "--seed", "1", "--json", "--format", "board", "--out", file)
	var o solveOutput
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil || o.Out != file {
		t.Fatalf("--out with --json --format board: exit %d, %q %q", code, out, errs)
	}
	if b, _ := os.ReadFile(file); !strings.HasPrefix(string(b), "Q . . . . . . .\n") {
		t.Errorf("the file is not a board: %q", b)
	}
}

// TestSolveOneSummaryLine: the local search's counters are on the summary line, not on a
// line of their own; with --format json they are in the JSON alone, all four, zeros
// included, and stderr is empty.
func TestSolveOneSummaryLine(t *testing.T) {
	counters := regexp.MustCompile(`^n=200 algorithm=localsearch seed=3 verified=true seconds=[0-9.]+ attempts=[1-9][0-9]* conflicts=[0-9]+ swaps=[0-9]+ restarts=[0-9]+( out=\S+)?\n$`)
	code, _, errs := runCLI(t, "", "solve", "200", "--seed", "3")
	if code != 0 || !counters.MatchString(errs) {
		t.Errorf("text: exit %d, stderr %q: want the one summary line with the counters", code, errs)
	}
	file := filepath.Join(t.TempDir(), "q.txt")
	code, out, errs := runCLI(t, "", "solve", "200", "--seed", "3", "--out", file)
	if code != 0 || errs != "" || !counters.MatchString(out) || !strings.HasSuffix(out, " out="+file+"\n") {
		t.Errorf("--out: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, args := range [][]string{
		{"solve", "200", "--seed", "3", "--format", "json"},
		{"solve", "200", "--seed", "3", "--json"},
		{"solve", "200", "--seed", "3", "--json", "--out", file},
	} {
		code, out, errs := runCLI(t, "", args...)
		var o map[string]any
		if code != 0 || errs != "" || json.Unmarshal([]byte(out), &o) != nil {
			t.Errorf("%v: exit %d, stdout %.200q, stderr %q: want JSON alone", args, code, out, errs)
			continue
		}
		for _, key := range []string{"attempts", "conflicts", "swaps", "restarts"} {
			if _, ok := o[key]; !ok {
				t.Errorf("%v: no %q in %.300s", args, key, out)
			}
		}
	}
	// The other algorithms have no such counters.
	_, out, _ = runCLI(t, "", "solve", "8", "--json")
	if strings.Contains(out, `"restarts"`) || strings.Contains(out, `"conflicts"`) {
		t.Errorf("backtrack with local-search counters: %s", out)
	}
}

// TestListNoSolution: a board without solution lists nothing and says so with
// listed=0, exit 0, as count does; solve, asked for a placement, still fails (exit 1).
func TestListNoSolution(t *testing.T) {
	for _, n := range []string{"2", "3"} {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"list", n}, "n=" + n + " listed=0 total=0 verified=true seconds=X\n"},
			{[]string{"list", n, "--json"}, "n=" + n + " listed=0 total=0 verified=true seconds=X\n"},
			{[]string{"list", n, "--unique", "--format", "board"}, "n=" + n + " listed=0 total=0 verified=true seconds=X\n"},
		} {
			code, out, errs := runCLI(t, "", c.args...)
			if code != 0 || out != "" || normalize(errs) != c.want {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0, nothing, %q", c.args, code, out, errs, c.want)
			}
		}
		code, out, errs := runCLI(t, "", "count", n)
		if code != 0 || !strings.HasPrefix(out, "n="+n+" total=0 unique=0 ") {
			t.Errorf("count %s: exit %d %q %q", n, code, out, errs)
		}
		for _, args := range [][]string{{"solve", n}, {"lab", "lasvegas", n, "--seed", "1"}, {"lab", "lasvegas", n, "--exact", "--json"}} {
			code, out, errs = runCLI(t, "", args...)
			if code != exitFailure || out != "" || errs != "nqueens: n = "+n+": no solution exists\n" {
				t.Errorf("%v: exit %d, %q %q; want exit 1, no solution exists", args, code, out, errs)
			}
		}
	}
}

// ptr is &v, for the counters of a lab.SearchRow.
func ptr(v int64) *int64 { return &v }

// sameCounter says whether two search-specific counters are equal: both absent (the
// counter does not apply), or both there with the same value.
func sameCounter(a, b *int64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// TestLabBacktrackZeroCounters: on the 1×1 board the classic search's Place loop never
// runs and the cell search skips nothing: those counters are 0, printed as 0 in the JSON,
// the table and the CSV; a counter that a search does not have is absent from its JSON
// and "-" in the table, empty in the CSV.
func TestLabBacktrackZeroCounters(t *testing.T) {
	code, out, errs := runCLI(t, "", "lab", "backtrack", "1", "--json")
	var res struct{ Rows []map[string]any }
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Rows) != 4 {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	has := map[string][]string{"classic": {"place_loop_iterations"}, "row": nil, "cell": {"skipped_nodes", "dead_nodes"}, "cellprune": nil}
	for _, r := range res.Rows {
		v := r["search"].(string)
		for _, key := range []string{"place_loop_iterations", "skipped_nodes", "dead_nodes"} {
			got, ok := r[key]
			want := strings.Contains(strings.Join(has[v], ","), key)
			switch {
			case want && (!ok || got != 0.0):
				t.Errorf("%s: %s = %v (present %v), want 0", v, key, got, ok)
			case !want && ok:
				t.Errorf("%s: %s = %v, but %s has no such counter", v, key, got, v)
			}
		}
	}
	// The table: search total nodes checks "place loop" skipped dead ...
	code, out, _ = runCLI(t, "", "lab", "backtrack", "1")
	cells := map[string][]string{}
	for _, l := range strings.Split(out, "\n")[2:] {
		if f := strings.Fields(l); len(f) >= 7 {
			cells[f[0]] = f[4:7]
		}
	}
	want := map[string]string{"classic": "0 - -", "row": "- - -", "cell": "- 0 0", "cellprune": "- - -"}
	for v, w := range want {
		if got := strings.Join(cells[v], " "); got != w {
			t.Errorf("table, %s: place loop, skipped, dead = %q, want %q\n%s", v, got, w, out)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	code, out, _ = runCLI(t, "", "lab", "backtrack", "1", "--csv", "--searches", "classic,cell")
	if lines := strings.Split(out, "\n"); code != 0 || len(lines) < 3 ||
		!strings.HasPrefix(lines[1], "classic,1,2,1,0,,,") || !strings.HasPrefix(lines[2], "cell,1,2,1,,0,0,") {
		t.Errorf("csv: exit %d\n%s", code, out)
	}
}

// TestHelpToFullDisk: help that cannot be written is a failed write, exit 1 as for
// every other output, not a usage error.
func TestHelpToFullDisk(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {}, {"solve", "--help"}, {"help", "list"}, {"lab"}, {"lab", "backtrack", "-h"}} {
		var errb bytes.Buffer
		code := run(context.Background(), strings.NewReader(""), &failWriter{}, &errb, args)
		if code != exitFailure || errb.String() != "nqueens: write to stdout: no space left on device\n" {
			t.Errorf("%v > full disk: exit %d, stderr %q; want exit 1", args, code, errb.String())
		}
	}
	// A usage error stays one, whatever stdout is.
	var errb bytes.Buffer
	if code := run(context.Background(), strings.NewReader(""), &failWriter{}, &errb, []string{"frobnicate"}); code != exitUsage {
		t.Errorf("unknown command > full disk: exit %d, %q", code, errb.String())
	}
}
