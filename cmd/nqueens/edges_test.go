package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/cluster"
	"github.com/spf13/pflag"
)

// The rough edges of the fifth new-user round (issue 39), each driven to its fix.

// TestFlagValueErrors: a value a flag cannot take is a usage error in one line that says
// what the flag wants, never the parser's own words (strconv.ParseFloat: parsing ...), for
// every flag of every command that takes a number, a list or a duration.
func TestFlagValueErrors(t *testing.T) {
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, settings: defaultSettings()}
	walk(newRoot(e))
	tried := 0
	for _, c := range cmds {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			switch f.Value.Type() {
			case "int", "int64", "uint", "uint64", "float64", "intSlice", "duration":
			default:
				return
			}
			args := append(strings.Fields(c.CommandPath())[1:], "--"+f.Name, "abc")
			code, _, errs := runCLI(t, "", args...)
			tried++
			if code != exitUsage || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "strconv") ||
				strings.Contains(errs, "parsing") || !strings.Contains(errs, "--"+f.Name) {
				t.Errorf("%v: exit %d, %q", args, code, errs)
			}
		})
	}
	if tried < 20 {
		t.Errorf("only %d flags tried", tried)
	}
}

// TestLabUnknownExperiment: "lab foo" names the experiment it does not know.
func TestLabUnknownExperiment(t *testing.T) {
	code, _, errs := runCLI(t, "", "lab", "foo")
	if code != exitUsage || errs != "nqueens: unknown lab experiment \"foo\": want backtrack, lasvegas or localsearch\n" {
		t.Errorf("lab foo: exit %d, %q", code, errs)
	}
}

// TestLabBacktrackTotal: the text table's column is "total", as in the JSON and CSV.
func TestLabBacktrackTotal(t *testing.T) {
	_, out, _ := runCLI(t, "", "lab", "backtrack", "6")
	_, csv, _ := runCLI(t, "", "lab", "backtrack", "6", "--csv")
	head := strings.Fields(strings.Split(out, "\n")[1])
	if len(head) < 2 || head[1] != "total" || !strings.HasPrefix(csv, "search,total,") {
		t.Errorf("lab backtrack 6: text head %v, csv %q", head, strings.SplitN(csv, "\n", 2)[0])
	}
}

// TestVerifyCutShortAndMark: a text file cut inside its line is "cut short" (exit 2), not
// an invalid board of the entries it kept; the same entries with a newline are an invalid
// placement (exit 1); a class_size mark that is not the class's is refused (exit 2).
func TestVerifyCutShortAndMark(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "q.txt")
	if code, _, errs := runCLI(t, "", "solve", "300", "--seed", "1", "--out", whole); code != 0 {
		t.Fatal(errs)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.txt")
	os.WriteFile(cut, b[:500], 0o644)
	if code, _, errs := runCLI(t, "", "verify", cut); code != exitUsage || !strings.Contains(errs, "cut short") || strings.Count(errs, "\n") != 1 {
		t.Errorf("verify of a file cut at byte 500: exit %d, %q", code, errs)
	}
	os.WriteFile(cut, append(b[:500:500], '\n'), 0o644)
	if code, out, _ := runCLI(t, "", "verify", cut); code != exitFailure || !strings.HasPrefix(out, "invalid") {
		t.Errorf("verify of the same entries with a newline: exit %d, %q", code, out)
	}
	_, list, _ := runCLI(t, "", "list", "8", "--unique")
	if code, _, errs := runCLI(t, list, "verify"); code != 0 {
		t.Errorf("verify of list 8 --unique: exit %d %s", code, errs)
	}
	lie := strings.Replace(list, "class_size=8", "class_size=9", 1)
	if code, _, errs := runCLI(t, lie, "verify"); code != exitUsage || !strings.Contains(errs, "class_size=9") {
		t.Errorf("verify of a class_size=9: exit %d, %q", code, errs)
	}
}

// TestSolveOutFormatByName: with --out and no --format, a .json file gets JSON and a .bin
// file binary, which verify reads back; --format still wins.
func TestSolveOutFormatByName(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, format, head string
	}{{"q.json", "", `{"n":8,"columns":[`}, {"q.bin", "", "\x00"}, {"q.txt", "", "1 5 8"}, {"r.json", "text", "1 5 8"}} {
		path := filepath.Join(dir, c.name)
		args := []string{"solve", "8", "--algorithm", "backtrack", "--out", path}
		if c.format != "" {
			args = append(args, "--format", c.format)
		}
		if code, _, errs := runCLI(t, "", args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
		b, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(b), c.head) {
			t.Errorf("%v wrote %q", args, b)
		}
		if code, out, errs := runCLI(t, "", "verify", path); code != 0 || !strings.HasPrefix(out, "valid (n=8)") {
			t.Errorf("verify %s: exit %d %s%s", c.name, code, out, errs)
		}
	}
}

// cancelOn is a writer that cancels when what it was written contains text.
type cancelOn struct {
	mu     sync.Mutex
	b      strings.Builder
	text   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.text) {
		w.cancel()
	}
	return len(p), nil
}

// TestPlanCalibrateSaysAndStops: plan --calibrate says up front when one sub-problem takes
// longer than the time given (n = 25: about a second each), and Ctrl-C while calibrating
// prints the plan with the stored calibration, then exits 130; "1 worker", not "1 workers".
func TestPlanCalibrateSaysAndStops(t *testing.T) {
	if testing.Short() {
		t.Skip("plans n = 25 (0.7 s, 30 MB)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	errw := &cancelOn{text: "the sample counts at least one", cancel: cancel}
	code := runWith(ctx, strings.NewReader(""), &out, errw, []string{"plan", "25", "--calibrate", "100ms", "-w", "1"}, defaultSettings())
	errs := errw.b.String()
	if code != exitInterrupted || !strings.Contains(errs, "on 1 worker (") || !strings.Contains(errs, "one sub-problem of n=25 takes about") ||
		!strings.Contains(errs, "the plan printed uses the stored calibration") || !strings.Contains(out.String(), "sampled=0 calibration=\"stored: ") {
		t.Errorf("plan 25 --calibrate 100ms, interrupted: exit %d\n%s%s", code, out.String(), errs)
	}
}

// TestLargestShard: a split whose largest shard costs more than 1.5 times a mean shard,
// and 3 minutes or more, is warned of, with the K that balances it when it is one
// sub-problem (shard 0 at n = 27 with K = 10^6 holds the search S180 alone: 2.6 times a
// mean shard by the model); even splits, short shards and empty shards are not.
func TestLargestShard(t *testing.T) {
	even := []cluster.ShardSize{{Subs: 9, Cost: 100}, {Subs: 9, Cost: 100}, {Subs: 8, Cost: 110}, {Subs: 9, Cost: 90}}
	if w := largestShard(400, 35, even, 1); w != "" {
		t.Errorf("an even split: %q", w)
	}
	s180 := []cluster.ShardSize{{Subs: 1, Cost: 260}, {Subs: 9, Cost: 50}, {Subs: 9, Cost: 45}, {Subs: 9, Cost: 45}}
	if w := largestShard(400, 28, s180, 1); !strings.Contains(w, "shard 0 of 4 costs 2.6 times a mean shard") || !strings.Contains(w, "K ≤ 1 ") {
		t.Errorf("S180 alone: %q", w)
	}
	s180[2] = cluster.ShardSize{Subs: 2, Cost: 300}
	if w := largestShard(400, 28, s180, 1); !strings.Contains(w, "shard 2 of 4 costs 3.0 times") || strings.Contains(w, "one sub-problem") {
		t.Errorf("two sub-problems: %q", w)
	}
	if w := largestShard(400, 28, s180, 0.05/301); w != "" {
		t.Errorf("a shard under 3 minutes: %q", w)
	}
	if w := largestShard(400, 3, s180, 1); w != "" {
		t.Errorf("more shards than sub-problems: %q", w)
	}
}

// TestGivenTwice: merge, status and audit refuse a directory given twice, however spelled,
// in one line (merge printed four "appears twice" lines).
func TestGivenTwice(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	for i := range 2 {
		if code, _, errs := runCLI(t, "", "count", "12", "--shard", fmt.Sprintf("%d/2", i), "--out-dir", dir); code != 0 {
			t.Fatal(errs)
		}
	}
	for _, cmd := range []string{"merge", "status", "audit"} {
		for _, again := range []string{dir, dir + "/", filepath.Join(dir, ".")} {
			code, out, errs := runCLI(t, "", cmd, dir, again)
			if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "is given twice") {
				t.Errorf("%s %s %s: exit %d, %q %q", cmd, dir, again, code, out, errs)
			}
		}
	}
	if code, out, errs := runCLI(t, "", "merge", dir); code != 0 || !strings.Contains(out, "total=14200 ") {
		t.Errorf("merge once: exit %d %s%s", code, out, errs)
	}
}

// TestCountSaysKernel: count's line and JSON name the matcher kernel that counted: the
// one NQUEENS_KERNEL asks for, none below the join.
func TestCountSaysKernel(t *testing.T) {
	t.Setenv(kernelEnv, "go")
	if code, out, errs := runCLI(t, "", "count", "14"); code != 0 || !strings.Contains(out, " kernel=go") {
		t.Errorf("count 14 with the go kernel: exit %d %s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "", "count", "14", "--json"); code != 0 || !strings.Contains(out, `"kernel":"go"`) {
		t.Errorf("count 14 --json with the go kernel: exit %d %s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "", "count", "8"); code != 0 || !strings.Contains(out, " kernel=none") {
		t.Errorf("count 8: exit %d %s%s", code, out, errs)
	}
}

// TestShardsSayKernel: a shard's line, merge and status name the kernels that counted;
// audit takes NQUEENS_KERNEL (refusing one that is no kernel, exit 2), and --only with a
// shard the run does not have is a usage error; a finished checkpoint resumed is only
// read, not written again.
func TestShardsSayKernel(t *testing.T) {
	clearIndexEnv(t)
	dir := t.TempDir()
	for i, k := range []string{"go", "", "go"} {
		t.Setenv(kernelEnv, k)
		code, out, errs := runCLI(t, "", "count", "13", "--shard", fmt.Sprintf("%d/3", i), "--out-dir", dir)
		if code != 0 || (k == "go") != strings.Contains(out, " kernel=go ") || !strings.Contains(out, " kernel=") {
			t.Fatalf("count 13 --shard %d/3 with kernel %q: exit %d %s%s", i, k, code, out, errs)
		}
	}
	t.Setenv(kernelEnv, "")
	_, merged, _ := runCLI(t, "", "merge", dir)
	_, status, _ := runCLI(t, "", "status", dir, "--json")
	auto := ""
	if m := regexp.MustCompile(`kernels=([a-z0-9,]+)`).FindStringSubmatch(merged); m != nil {
		auto = m[1]
	}
	if !strings.HasPrefix(auto, "go") || !strings.Contains(status, `"kernels":["go"`) {
		t.Errorf("merge says %q, status %s", merged, status)
	}
	t.Setenv(kernelEnv, "foo")
	if code, _, errs := runCLI(t, "", "audit", dir); code != exitUsage || !strings.Contains(errs, "NQUEENS_KERNEL=foo") {
		t.Errorf("audit with NQUEENS_KERNEL=foo: exit %d %s", code, errs)
	}
	t.Setenv(kernelEnv, "go")
	code, out, errs := runCLI(t, "", "audit", dir, "--fraction", "1", "--json")
	if code != 0 || strings.Count(out, `"audit_kernel":"go"`) != 3 || !strings.Contains(errs, "it is the kernel asked for") {
		t.Errorf("audit with NQUEENS_KERNEL=go: exit %d %s%s", code, out, errs)
	}
	t.Setenv(kernelEnv, "")
	if code, _, errs := runCLI(t, "", "audit", dir, "--only", "3"); code != exitUsage || !strings.Contains(errs, "no such shard") {
		t.Errorf("audit --only 3 of 3: exit %d %s", code, errs)
	}

	ck := filepath.Join(t.TempDir(), "c.json")
	if code, _, errs := runCLI(t, "", "count", "12", "--checkpoint", ck); code != 0 {
		t.Fatal(errs)
	}
	before, _ := os.ReadFile(ck)
	if code, out, errs := runCLI(t, "", "count", "12", "--checkpoint", ck, "--resume"); code != 0 || !strings.Contains(out, "total=14200 ") {
		t.Errorf("resume of a finished checkpoint: exit %d %s%s", code, out, errs)
	}
	if after, _ := os.ReadFile(ck); !bytes.Equal(before, after) {
		t.Errorf("a finished checkpoint resumed was written again:\n%s\n%s", before, after)
	}
}

// TestPlanOtherKernel (issue 38, item 5): with another kernel than the stored
// calibration's, plan scales the estimate to it and gives its range, in the JSON and the
// text line; with the calibration's own kernel there is no range.
func TestPlanOtherKernel(t *testing.T) {
	t.Setenv(kernelEnv, "go")
	out := planJSON(t, "16")
	if !(out.CoreHoursLow > 0 && out.CoreHoursLow < out.CoreHours && out.CoreHours < out.CoreHoursHigh) ||
		!strings.Contains(out.Calibration, "this machine runs the go kernel") {
		t.Errorf("plan 16 with the go kernel: %v (%v to %v), %q", out.CoreHours, out.CoreHoursLow, out.CoreHoursHigh, out.Calibration)
	}
	if _, text, _ := runCLI(t, "", "plan", "16"); !strings.Contains(text, " core_hours_low=") || !strings.Contains(text, " core_hours_high=") {
		t.Errorf("plan 16's text with the go kernel: %s", text)
	}
	t.Setenv(kernelEnv, "avx512")
	if code, text, _ := runCLI(t, "", "plan", "16"); code == 0 {
		if out := planJSON(t, "16"); out.CoreHoursLow != out.CoreHours || out.CoreHoursHigh != out.CoreHours || strings.Contains(text, "core_hours_low") {
			t.Errorf("plan 16 with the AVX-512 kernel has a range: %v (%v to %v)", out.CoreHours, out.CoreHoursLow, out.CoreHoursHigh)
		}
	}
}

// TestWorkersReported: --workers 0 means one per core, and the lines say the number the
// library reports having run on (count, a shard, plan), not 0.
func TestWorkersReported(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"count", "11", "-w", "0", "--json"}, cores},
		{[]string{"count", "11", "-w", "3", "--json"}, 3},
		{[]string{"count", "12", "--shard", "0/2", "--out-dir", dir, "-w", "0", "--json"}, cores},
		{[]string{"plan", "16", "-w", "0", "--json"}, cores},
		{[]string{"plan", "16", "-w", "5", "--json"}, 5},
	} {
		code, stdout, stderr := runCLI(t, "", c.args...)
		var out struct {
			Workers int `json:"workers"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil || out.Workers != c.want {
			t.Errorf("%v: exit %d, workers %d, want %d\n%s%s", c.args, code, out.Workers, c.want, stdout, stderr)
		}
	}
}
