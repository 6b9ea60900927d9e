package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// runCLI runs the command in-process and returns its exit code and outputs.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runCLIWith(t, defaultSettings(), stdin, args...)
}

// runCLIWith is runCLI with the settings s.
func runCLIWith(t *testing.T, s settings, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runWith(context.Background(), strings.NewReader(stdin), &out, &errb, args, s)
	return code, out.String(), errb.String()
}

// volatile masks what changes from run to run: times, random seeds, the Go version.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`seconds=[0-9.]+`), "seconds=X"},
	{regexp.MustCompile(`"seconds":[0-9.e+-]+`), `"seconds":X`},
	{regexp.MustCompile(`workers=[0-9]+`), "workers=W"},
	{regexp.MustCompile(`"workers":[0-9]+`), `"workers":W`},
	// The memory estimate of plan grows with the workers (one per core).
	{regexp.MustCompile(`memory=[0-9.]+[kMG]B`), "memory=M"},
	{regexp.MustCompile(`"memory":[0-9]+`), `"memory":M`},
	// How the counter splits the work is its own business (plan shows it).
	{regexp.MustCompile(`"subs":[0-9]+,"subs_done":[0-9]+`), `"subs":N,"subs_done":N`},
	{regexp.MustCompile(`"nodes":[0-9]+`), `"nodes":N`},
	// Plan's estimate follows the CPU and its kernel.
	{regexp.MustCompile(`core_hours=[0-9.e+-]+`), "core_hours=H"},
	{regexp.MustCompile(`core_hours_(low|high)=[0-9.e+-]+`), "core_hours_$1=H"},
	{regexp.MustCompile(`"core_hours_(low|high)":[0-9.e+-]+`), `"core_hours_$1":H`},
	{regexp.MustCompile(`"core_hours":[0-9.e+-]+`), `"core_hours":H`},
	{regexp.MustCompile(`kernels=[a-z0-9,]+`), "kernels=K"},
	{regexp.MustCompile(`"kernels":\["[a-z0-9",]*\]`), `"kernels":K`},
	{regexp.MustCompile(`kernel=[a-z0-9]+`), "kernel=K"},
	{regexp.MustCompile(`"kernel":"[a-z0-9]*"`), `"kernel":K`},
	{regexp.MustCompile(`calibration="[^"]*"`), "calibration=C"},
	{regexp.MustCompile(`"calibration":"[^"]*"`), `"calibration":C`},
}

func normalize(s string) string {
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

// goldenCase is a command line whose transcript (exit code, stdout, stderr) must equal
// testdata/NAME.golden; go test ./cmd/nqueens -run TEST -update rewrites the files.
type goldenCase struct {
	name, stdin string
	args        []string
}

// transcript is what a golden file holds for one run.
func transcript(args []string, code int, out, errs string) string {
	return fmt.Sprintf("$ nqueens %s\n--- exit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(args, " "), code, normalize(out), normalize(errs))
}

// checkGolden compares got with testdata/NAME.golden, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("mismatch with %s\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

// runGolden runs each case in-process and checks its transcript.
func runGolden(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, c.stdin, c.args...)
			checkGolden(t, c.name, transcript(c.args, code, out, errs))
		})
	}
}

// TestGolden runs command lines and compares exit code, stdout and stderr with the files
// in testdata.
func TestGolden(t *testing.T) {
	runGolden(t, []goldenCase{
		{"count-12", "", []string{"count", "12"}},
		{"count-12-json", "", []string{"count", "12", "--json"}},
		{"count-1", "", []string{"count", "1", "--workers", "3"}},
		{"count-3", "", []string{"count", "3"}},
		{"count-0", "", []string{"count", "0"}},
		{"count-too-big", "", []string{"count", "33"}},
		{"count-much-too-big", "", []string{"count", "1e10"}},
		{"plan-much-too-big", "", []string{"plan", "1e10"}},
		{"count-garbage", "", []string{"count", "twelve"}},
		{"count-no-arg", "", []string{"count"}},
		{"count-bad-workers", "", []string{"count", "8", "--workers", "-1"}},
		{"count-checkpoint-every-alone", "", []string{"count", "8", "--checkpoint-every", "5s"}},
		{"plan-shards-0", "", []string{"plan", "8", "--shards", "0"}},
		{"solve-8", "", []string{"solve", "8", "--seed", "1"}},
		{"solve-8-board", "", []string{"solve", "8", "--seed", "1", "--format", "board"}},
		{"solve-8-json", "", []string{"solve", "8", "--seed", "7", "--format", "json"}},
		{"solve-1", "", []string{"solve", "1", "--seed", "1"}},
		{"solve-2", "", []string{"solve", "2"}},
		{"solve-3", "", []string{"solve", "3", "--json"}},
		{"solve-negative", "", []string{"solve", "-5"}},
		{"solve-fraction", "", []string{"solve", "1.5"}},
		{"solve-sci", "", []string{"solve", "1.2e1", "--seed", "3", "--algorithm", "construct"}},
		{"solve-backtrack-too-big", "", []string{"solve", "40", "--algorithm", "backtrack"}},
		{"solve-bad-algo", "", []string{"solve", "8", "--algorithm", "magic"}},
		{"solve-bad-format", "", []string{"solve", "8", "--format", "png"}},
		{"solve-huge-board", "", []string{"solve", "2000", "--format", "board"}},
		{"solve-too-big", "", []string{"solve", "1e10"}},
		{"solve-backtrack-much-too-big", "", []string{"solve", "1e10", "--algorithm", "backtrack"}},
		{"solve-max-memory", "", []string{"solve", "1e8", "--max-memory", "100M"}},
		{"solve-bad-max-memory", "", []string{"solve", "1e8", "--max-memory", "lots"}},
		{"verify-valid", "2 4 1 3\n", []string{"verify"}},
		{"verify-invalid", "1 3 2 4\n", []string{"verify"}},
		{"verify-invalid-json", "1 3 2 4\n", []string{"verify", "--json"}},
		{"verify-many", "2 4 1 3\n3 1 4 2\n1 2\n", []string{"verify", "-"}},
		{"verify-board", ".Q..\n...Q\nQ...\n..Q.\n", []string{"verify"}},
		{"verify-offboard", "1 9 3\n", []string{"verify"}},
		{"verify-garbage", "2 four 1\n", []string{"verify"}},
		{"verify-empty", "", []string{"verify"}},
		{"verify-missing-file", "", []string{"verify", "testdata/no-such-file"}},
		{"unknown-command", "", []string{"frobnicate"}},
		{"help-unknown-topic", "", []string{"help", "frobnicate"}},
		{"unknown-flag", "", []string{"count", "8", "--fast"}},
		{"flag-not-a-number", "", []string{"count", "8", "-w", "x"}},
		{"flag-negative-seed", "", []string{"solve", "8", "--seed", "-1"}},
		{"flag-seed-out-of-range", "", []string{"solve", "8", "--seed", "99999999999999999999999"}},
		{"flag-not-a-bool", "", []string{"solve", "8", "--json=maybe"}},
		{"flag-not-a-duration", "", []string{"count", "8", "--checkpoint-every", "x"}},
	})
}

// TestErrorsAreOneLine: every failing command prints exactly one line on stderr.
func TestErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{{"count", "x"}, {"solve", "0"}, {"solve", "3"}, {"verify", "nope"}, {"nope"}, {"solve", "9", "--out", "/nonexistent-dir/q.txt"}} {
		code, _, errs := runCLI(t, "", args...)
		if code == 0 || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "nqueens: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

func TestHelpEverywhere(t *testing.T) {
	for _, cmd := range []string{"", "count", "solve", "verify", "version"} {
		args := strings.Fields(cmd + " --help")
		code, out, _ := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: exit %d, output %q", args, code, out)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "version", "--json")
	var v map[string]string
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v["version"] == "" {
		t.Errorf("exit %d, %q", code, out)
	}
}

func TestSolveVerifyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"text", "board", "json", "binary"} {
		for _, n := range []string{"1", "4", "9", "25", "1000"} {
			if format == "board" && n == "1000" {
				continue
			}
			path := filepath.Join(dir, n+"."+format)
			code, out, errs := runCLI(t, "", "solve", n, "--format", format, "--out", path, "--seed", "5")
			if code != 0 || !strings.Contains(out, "verified=true") {
				t.Fatalf("solve %s %s: %d %q %q", n, format, code, out, errs)
			}
			vf := "auto"
			if format == "binary" {
				vf = "binary"
			}
			code, out, errs = runCLI(t, "", "verify", "--format", vf, path)
			if code != 0 || !strings.HasPrefix(out, "valid (n="+n+")") {
				t.Errorf("verify %s: %d %q %q", path, code, out, errs)
			}
		}
	}
}

func TestVerifyCorruptBinary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "q.bin")
	if code, _, errs := runCLI(t, "", "solve", "1000", "--algorithm", "construct", "--format", "binary", "--out", path); code != 0 {
		t.Fatal(errs)
	}
	data, _ := os.ReadFile(path)
	// Put row 701's queen in the column of row 1's.
	copy(data[700*4:], data[0:4])
	os.WriteFile(path, data, 0o644)
	code, out, _ := runCLI(t, "", "verify", "--json", path)
	var o verifyOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil || code != 1 || o.Valid {
		t.Fatalf("exit %d, %q", code, out)
	}
	if o.Conflict.Row2 != 701 || o.Conflict.Row1 == 0 || o.Conflict.Kind == "" {
		t.Errorf("conflict not named: %+v", o.Conflict)
	}
	// The named pair really attacks.
	p, _ := nqueens.ReadBinary(bytes.NewReader(data))
	r1, r2 := o.Conflict.Row1-1, o.Conflict.Row2-1
	d := int(p[r1]) - int(p[r2])
	if d != 0 && d != r2-r1 && d != r1-r2 {
		t.Errorf("rows %d and %d do not attack", r1+1, r2+1)
	}
	os.WriteFile(path, data[:len(data)-3], 0o644)
	if code, _, errs := runCLI(t, "", "verify", path); code != 2 || !strings.Contains(errs, "truncated") {
		t.Errorf("truncated: exit %d %q", code, errs)
	}
}

func TestSolveSeedPrinted(t *testing.T) {
	code, out, _ := runCLI(t, "", "solve", "10", "--json")
	var o struct {
		Algorithm string
		Verified  bool
		Columns   []int
	}
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil || !o.Verified || o.Algorithm != "backtrack" || len(o.Columns) != 10 {
		t.Fatalf("exit %d %q", code, out)
	}
	if !strings.Contains(out, `"seed":`) {
		t.Errorf("seed missing: %q", out)
	}
}

// The interruption tests cancel a count of n = 22 (an hour of work) after countUnderWay: its
// plan (the quadrant join's, with sampled costs) takes 0.2 s, and up to a second or two
// under the race detector on a loaded machine (at 500 ms CI cancelled one before its
// first sub-problem, when there is no partial line yet), so the count is under way by then.
const countUnderWay = 3 * time.Second

func TestInterruptedCount(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(countUnderWay, cancel)
	var out, errb bytes.Buffer
	start := time.Now()
	code := run(ctx, strings.NewReader(""), &out, &errb, []string{"count", "22", "--json"})
	if code != exitInterrupted || time.Since(start) > countUnderWay+3*time.Second {
		t.Fatalf("exit %d after %v: %s", code, time.Since(start), errb.String())
	}
	var o countOutput
	if err := json.Unmarshal(out.Bytes(), &o); err != nil || o.Complete || o.SubsDone >= o.Subs {
		t.Errorf("partial output not honest: %q", out.String())
	}
	if !strings.Contains(errb.String(), "interrupted") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("want one line on stderr, got %q", errb.String())
	}
}

// TestInterruptedCountText: the text line of an interrupted count says it is
// partial, with and without a checkpoint, so that no script takes it for the
// answer.
func TestInterruptedCountText(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ck")
	for _, args := range [][]string{{"count", "22"}, {"count", "22", "--checkpoint", ck}} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(countUnderWay, cancel)
		var out, errb bytes.Buffer
		code := run(ctx, strings.NewReader(""), &out, &errb, args)
		if code != exitInterrupted {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		if !regexp.MustCompile(`^n=22 total=\d+ unique=\d+ .* complete=false subs=\d+ subs_done=\d+\n$`).MatchString(out.String()) {
			t.Errorf("%v: the line does not say it is partial: %q", args, out.String())
		}
	}
}

func TestSolveLocalSearchSeeds(t *testing.T) {
	solve := func(seed string) string {
		code, out, errs := runCLI(t, "", "solve", "1000", "--seed", seed)
		if code != 0 || !strings.Contains(errs, "algorithm=localsearch seed="+seed+" verified=true") || !strings.Contains(errs, "conflicts=") {
			t.Fatalf("seed %s: exit %d, stderr %q", seed, code, errs)
		}
		return out
	}
	a, b, c := solve("9"), solve("9"), solve("10")
	if a != b {
		t.Errorf("same seed, different placements")
	}
	if a == c {
		t.Errorf("seeds 9 and 10 gave the same placement")
	}
	p, err := nqueens.ParsePlacement(a)
	if err != nil || len(p) != 1000 || nqueens.Verify(p) != nil {
		t.Errorf("placement does not verify: %v", err)
	}
}

// TestSolveBinaryFileMatchesText: the binary file of a local-search solve (written from
// memory, its bulk straight to the disk) holds the placement that the text format prints
// for the same seed.
func TestSolveBinaryFileMatchesText(t *testing.T) {
	dir := t.TempDir()
	bin, txt := filepath.Join(dir, "q.bin"), filepath.Join(dir, "q.txt")
	for _, args := range [][]string{
		{"solve", "100003", "--algorithm", "localsearch", "--seed", "9", "--format", "binary", "--out", bin},
		{"solve", "100003", "--algorithm", "localsearch", "--seed", "9", "--out", txt},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d %q", args, code, errs)
		}
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 4*100003 {
		t.Fatalf("binary file has %d bytes, want %d", len(data), 4*100003)
	}
	p, err := nqueens.ReadBinary(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(txt)
	if err != nil {
		t.Fatal(err)
	}
	q, err := nqueens.ParsePlacement(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p, q) {
		t.Fatal("the binary and text files of the same seed hold different placements")
	}
	if err := nqueens.Verify(p); err != nil {
		t.Fatal(err)
	}
}

// TestKernelEnvRefused: a bad NQUEENS_KERNEL is a usage error (exit 2, one line naming
// the variable) for every count and plan, whatever n: count 8 and plan 16 ignored it,
// count 12 failed with exit 1 once counting.
func TestKernelEnvRefused(t *testing.T) {
	t.Setenv("NQUEENS_KERNEL", "foo")
	dir := t.TempDir()
	for _, args := range [][]string{{"count", "8"}, {"count", "12"}, {"plan", "16"}, {"count", "12", "--json"},
		{"count", "12", "--checkpoint", filepath.Join(dir, "ck")}, {"count", "12", "--shard", "0/2", "--out-dir", dir}} {
		code, out, errs := runCLI(t, "", args...)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, `nqueens: NQUEENS_KERNEL=foo: unknown kernel "foo"`) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 naming NQUEENS_KERNEL", args, code, out, errs)
		}
	}
	t.Setenv("NQUEENS_KERNEL", "go")
	if code, out, errs := runCLI(t, "", "count", "12"); code != 0 || !strings.HasPrefix(out, "n=12 total=14200 ") {
		t.Errorf("NQUEENS_KERNEL=go: exit %d %q %q", code, out, errs)
	}
}
