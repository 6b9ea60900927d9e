package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/backtrack"
	"github.com/nqueens/nqueens/internal/localsearch"
	"github.com/nqueens/nqueens/lab"
	"github.com/nqueens/nqueens/web"
)

// TestLabBacktrack10 checks the table of `lab backtrack 10` against docs/algorithms.md §3.1–3.4.
func TestLabBacktrack10(t *testing.T) {
	code, out, errs := runCLI(t, "", "lab", "backtrack", "10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res lab.BacktrackTable
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Rows) != 4 || !res.Complete {
		t.Fatalf("%v: %q", err, out)
	}
	want := map[string]lab.SearchRow{
		"classic":   {Total: 724, Nodes: 35539, Checks: 348150, PlaceLoopIterations: ptr(1297558)},
		"row":       {Total: 724, Nodes: 35539, Checks: 348150},
		"cell":      {Total: 724, Nodes: 7535369, Checks: 70450278, SkippedNodes: ptr(7499830), DeadNodes: ptr(429169)},
		"cellprune": {Total: 724, Nodes: 185489, Checks: 1256703},
	}
	for _, r := range res.Rows {
		w := want[r.Search]
		if r.Total != w.Total || r.Nodes != w.Nodes || r.Checks != w.Checks ||
			!sameCounter(r.PlaceLoopIterations, w.PlaceLoopIterations) || !sameCounter(r.SkippedNodes, w.SkippedNodes) || !sameCounter(r.DeadNodes, w.DeadNodes) {
			t.Errorf("%s: got %+v, want %+v", r.Search, r, w)
		}
		if r.NodesVsRow != float64(w.Nodes)/35539 {
			t.Errorf("%s: nodes ratio %v", r.Search, r.NodesVsRow)
		}
	}
}

// TestLabExact8 prints Brassard & Bratley's table for n=8, row variant (docs/algorithms.md
// §3.5): p and t in the text table, rounded as they publish them, the optimum marked * on
// k = 2 and named below; the CSV has the same numbers in full.
func TestLabExact8(t *testing.T) {
	code, out, errs := runCLI(t, "", "lab", "lasvegas", "8", "--variant", "row", "--exact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	wantT := []string{"114.00", "39.63", "28.20", "29.01", "35.10", "46.92", "53.50", "55.93", "55.93"}
	wantP := []string{"1.0000", "1.0000", "0.8750", "0.4931", "0.2618", "0.1624", "0.1357", "0.1293", "0.1293"}
	if len(lines) != 12 || !strings.HasPrefix(lines[0], "n=8 variant=row exact objective=explored") {
		t.Fatalf("want a line of settings, a header, 9 rows and the optimum, got %q", out)
	}
	for k := range 9 {
		f := strings.Fields(lines[k+2])
		if f[0] != fmt.Sprint(k) || f[1] != wantP[k] || f[4] != wantT[k] {
			t.Errorf("k=%d: %q, want p=%s t=%s", k, lines[k+2], wantP[k], wantT[k])
		}
		if star := len(f) == 7 && f[6] == "*"; star != (k == 2) {
			t.Errorf("k=%d: %q: the optimum is k=2", k, lines[k+2])
		}
	}
	if lines[11] != "optimum: m=2 (explored 28.20 per solution)" {
		t.Errorf("last line %q", lines[11])
	}
	code, out, errs = runCLI(t, "", "lab", "lasvegas", "8", "--variant", "row", "--exact", "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 10 || recs[0][5] != "explored" || recs[2][5] != "39.625" || recs[3][10] != "true" {
		t.Errorf("--csv: exit %d, %v, %q %s", code, err, out, errs)
	}
}

// TestLabObjective: the optimum follows --objective, the exact table's too: for n = 4 the
// least nodes explored is m = 2 (t = 8.5), the least checks m = 0.
func TestLabObjective(t *testing.T) {
	for _, c := range []struct {
		objective string
		m         int
	}{{"", 2}, {"explored", 2}, {"checks", 0}} {
		args := []string{"lab", "lasvegas", "4", "--variant", "row", "--exact", "--json"}
		if c.objective != "" {
			args = append(args, "--objective", c.objective)
		}
		code, out, errs := runCLI(t, "", args...)
		var res lab.LasVegasTable
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.Optimum < 0 {
			t.Fatalf("%v: exit %d, %v: %s", args, code, err, errs)
		}
		if m := res.Rows[res.Optimum].M; m != c.m {
			t.Errorf("--objective %q: optimum m = %d, want %d", c.objective, m, c.m)
		}
	}
	if code, _, errs := runCLI(t, "", "lab", "lasvegas", "4", "--exact", "--objective", "time"); code != 2 || !strings.Contains(errs, "no time") {
		t.Errorf("--exact --objective time: exit %d, %q", code, errs)
	}
}

func TestLabLasVegasSweep(t *testing.T) {
	code, out, errs := runCLI(t, "", "lab", "lasvegas", "12", "--variant", "cell", "--trials", "20", "--seed", "4", "--ms", "0..12/3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res lab.LasVegasTable
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Exact || res.Trials != 20 || res.Seed != 4 || len(res.Rows) != 5 || res.Optimum < 0 {
		t.Fatalf("%v: %q", err, out)
	}
	for i, r := range res.Rows {
		if r.M != 3*i || r.Runs != 20 || r.Expected != (lab.Expected{}) {
			t.Errorf("row %d: %+v", i, r)
		}
	}
}

func TestLabLocalSearch(t *testing.T) {
	code, out, errs := runCLI(t, "", "lab", "localsearch", "--from", "1000", "--to", "1e4", "--seed", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res lab.LocalSearchTable
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Rows) != 2 {
		t.Fatalf("%v: %q", err, out)
	}
	for _, r := range res.Rows {
		if r.Conflicts <= 0 || r.Conflicts > 200 || r.InitialScanSeconds == nil || *r.InitialScanSeconds <= 0 || r.InitialPlacedSeconds <= 0 {
			t.Errorf("implausible row %+v", r)
		}
	}
}

// TestLabBacktrackVariants: --variants, the old name of --searches (issue 29: "variant"
// is the Las Vegas hybrid's rule only), still picks the searches, and says on stderr that
// it is deprecated, leaving stdout to the JSON.
func TestLabBacktrackVariants(t *testing.T) {
	code, out, errs := runCLI(t, "", "lab", "backtrack", "6", "--variants", "cell,row", "--json")
	var res lab.BacktrackTable
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Rows) != 2 ||
		res.Rows[0].Search != "cell" || res.Rows[1].Search != "row" {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	if !strings.Contains(errs, "--variants has been deprecated, use --searches") {
		t.Errorf("stderr %q does not say that --variants is deprecated", errs)
	}
	if _, _, errs := runCLI(t, "", "lab", "backtrack", "6", "--searches", "row", "--json"); errs != "" {
		t.Errorf("--searches: stderr %q", errs)
	}
}

func TestLabUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // what the error must name
	}{
		{[]string{"lab", "backtrack", "10", "--searches", "magic"}, "magic"},
		{[]string{"lab", "backtrack", "10", "--json", "--csv"}, "--csv"},
		{[]string{"lab", "backtrack", "10", "--plot", "x.gif"}, "x.gif"},
		{[]string{"lab", "lasvegas", "8", "--variant", "diagonal"}, "diagonal"},
		{[]string{"lab", "lasvegas", "8", "--ms", "3..1"}, "3..1"},
		{[]string{"lab", "lasvegas", "8", "--ms", "9"}, "9"},
		{[]string{"lab", "lasvegas", "40", "--variant", "cell", "--exact"}, "cell"},
		{[]string{"lab", "lasvegas", "30", "--variant", "row", "--exact"}, "n ≤ 14"},
		{[]string{"lab", "lasvegas", "8", "--max-draws", "-1"}, "--max-draws"},
		{[]string{"lab", "lasvegas", "8", "--max-checks", "-1"}, "--max-checks"},
		{[]string{"lab", "lasvegas", "8", "--trials", "0"}, "--trials"},
		{[]string{"lab", "localsearch", "--from", "10", "--to", "5"}, "--from"},
		{[]string{"lab", "localsearch", "--scan-max", "0"}, "--scan-max"},
		{[]string{"lab", "localsearch", "--from", "1e3", "--to", "1e99"}, "--to"},
	} {
		start := time.Now()
		if code, _, errs := runCLI(t, "", c.args...); code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) || time.Since(start) > 5*time.Second {
			t.Errorf("%v: exit %d after %v, %q (want one line naming %s, at once)", c.args, code, time.Since(start), errs, c.want)
		}
	}
}

// TestLabPlots: every lab command draws a valid image of the expected size.
func TestLabPlots(t *testing.T) {
	dir := t.TempDir()
	cases := [][]string{
		{"lab", "backtrack", "7", "--plot", filepath.Join(dir, "bars.png")},
		{"lab", "lasvegas", "10", "--variant", "row", "--trials", "10", "--seed", "1", "--plot", filepath.Join(dir, "u.png")},
		{"lab", "lasvegas", "8", "--variant", "row", "--exact", "--plot", filepath.Join(dir, "exact.svg")},
		{"lab", "localsearch", "--from", "1000", "--to", "1e4", "--per-decade", "2", "--seed", "1", "--plot", filepath.Join(dir, "ls.png")},
	}
	for _, args := range cases {
		if code, _, errs := runCLI(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		path := args[len(args)-1]
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(path, ".svg") {
			if !strings.Contains(string(data), "<svg") {
				t.Errorf("%s is not an SVG file", path)
			}
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		b := img.Bounds()
		if b.Dx() != 800 || (b.Dy() != 500 && b.Dy() != 800) {
			t.Errorf("%s: %v", path, b)
		}
	}

	// A figure that cannot be written is refused before the experiment runs: no table.
	for _, plot := range []string{filepath.Join(dir, "missing", "b.png"), filepath.Join(dir, "d.png")} {
		os.Mkdir(filepath.Join(dir, "d.png"), 0o755)
		code, out, errs := runCLI(t, "", "lab", "backtrack", "8", "--plot", plot)
		if code == 0 || out != "" || !strings.Contains(errs, plot) {
			t.Errorf("--plot %s: exit %d, stdout %q, stderr %q", plot, code, out, errs)
		}
	}
}

// TestLabInterrupted: Ctrl-C in a sweep prints the rows done so far and exits 130.
func TestLabInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(400*time.Millisecond, cancel)
	var out, errb bytes.Buffer
	start := time.Now()
	code := run(ctx, strings.NewReader(""), &out, &errb, []string{"lab", "lasvegas", "40", "--variant", "cell", "--trials", "50", "--seed", "3", "--ms", "30..40", "--json"})
	if code != exitInterrupted || time.Since(start) > 3*time.Second {
		t.Fatalf("exit %d after %v: %s", code, time.Since(start), errb.String())
	}
	var res struct {
		Rows []struct{ M, Runs int }
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("partial output is not JSON: %v %q", err, out.String())
	}
	if len(res.Rows) >= 11 {
		t.Errorf("all %d rows done in 400 ms? %q", len(res.Rows), out.String())
	}
}

// labMachineOutputs are lab command lines whose --json and --csv outputs are checked for
// machine-friendly names.
var labMachineOutputs = [][]string{
	{"lab", "backtrack", "8"},
	{"lab", "lasvegas", "8", "--trials", "3", "--seed", "1"},
	{"lab", "lasvegas", "8", "--variant", "row", "--exact"},
	{"lab", "localsearch", "--from", "1e3", "--to", "1e3", "--seed", "1"},
}

// TestLabJSONNames: every key of every lab JSON output is snake_case, and enums are
// written by name (no Go field names, no bare integers for variants or objectives).
func TestLabJSONNames(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	var walk func(args []string, path string, v any)
	walk = func(args []string, path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if !snake.MatchString(k) {
					t.Errorf("%v: key %s.%s is not snake_case", args, path, k)
				}
				if k == "variant" || k == "objective" {
					if _, ok := e.(string); !ok {
						t.Errorf("%v: %s.%s is %v, want a name", args, path, k, e)
					}
				}
				walk(args, path+"."+k, e)
			}
		case []any:
			for i, e := range x {
				walk(args, fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	for _, args := range labMachineOutputs {
		code, out, errs := runCLI(t, "", append(args, "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		walk(args, "", v)
	}
}

// TestLabCSVHeaders: every lab CSV has one header row of distinct, non-empty names and
// as many fields in every row.
func TestLabCSVHeaders(t *testing.T) {
	for _, args := range labMachineOutputs {
		code, out, errs := runCLI(t, "", append(args, "--csv")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("%v: %v: %q", args, err, out)
		}
		seen := map[string]bool{}
		for _, h := range recs[0] {
			if h == "" || seen[h] {
				t.Errorf("%v: header %q empty or repeated: %v", args, h, recs[0])
			}
			seen[h] = true
		}
	}
}

// TestLabRefusesLongRuns: an experiment estimated past an hour is refused at once, saying
// how long it would take and how to run it anyway; `lab backtrack 40` enumerated forever.
func TestLabRefusesLongRuns(t *testing.T) {
	for _, args := range [][]string{
		{"lab", "backtrack", "40"},
		{"lab", "backtrack", "20", "--searches", "row"},
		{"lab", "lasvegas", "65536", "--variant", "row", "--seed", "1", "--max-checks", "1000000000"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var out, errb bytes.Buffer
		code := run(ctx, strings.NewReader(""), &out, &errb, args)
		cancel()
		if errs := errb.String(); code != exitUsage || out.Len() != 0 || !strings.Contains(errs, "would take about") ||
			!strings.Contains(errs, "--force") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %.100q %q", args, code, out.String(), errs)
		}
	}
}

// TestLabWarnsLongRuns: an experiment estimated past 10 s says so on stderr before it
// starts (lab lasvegas 1000 --trials 1 ran for minutes without a word); --force runs one
// past an hour. Both are stopped as Ctrl-C would.
func TestLabWarnsLongRuns(t *testing.T) {
	for _, c := range []struct {
		args []string
		warn string
	}{
		{[]string{"lab", "lasvegas", "1000", "--trials", "1", "--seed", "1"}, "lab lasvegas 1000: this takes about "},
		{[]string{"lab", "backtrack", "12", "--searches", "cell"}, "lab backtrack 12: this takes about "}, // 30 s; 10 min under the race detector
		{[]string{"lab", "backtrack", "40", "--searches", "row", "--force"}, "lab backtrack 40: this takes about "},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errb lockedBuffer
		done := make(chan int, 1)
		go func() { done <- run(ctx, strings.NewReader(""), &out, &errb, c.args) }()
		deadline := time.After(10 * time.Second)
	wait:
		for !strings.Contains(errb.String(), c.warn) {
			select {
			case code := <-done:
				t.Fatalf("%v: exit %d without the warning: %q", c.args, code, errb.String())
			case <-deadline:
				break wait
			case <-time.After(10 * time.Millisecond):
			}
		}
		cancel()
		if code := <-done; code != exitInterrupted || !strings.HasPrefix(errb.String(), c.warn) || !strings.Contains(errb.String(), "Ctrl-C prints the rows done so far") {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errb.String())
		}
	}
}

// TestLabSameAsAPI: "lab lasvegas N --json" and the web board's /api/lab/lasvegas give the
// same table, in the same JSON, with the same optimum, for n = 4..10 and both variants:
// exact where the API computes it (row n ≤ 10, cell n ≤ 7), and sampled with the API's
// settings (30 trials, seed 1, 10^6 checks per run) for every n, by each objective that
// does not depend on the machine. Only the times of a sampled table differ. (The command
// starred m = 2 for n = 4, row, exact, where the API said m = 0.)
func TestLabSameAsAPI(t *testing.T) {
	h := web.New(web.Options{})
	api := func(query string) (map[string]any, lab.LasVegasTable) {
		t.Helper()
		r := httptest.NewRequest("GET", "/api/lab/lasvegas?"+query, nil)
		r.Host = "127.0.0.1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", query, w.Code, w.Body)
		}
		return decodeBoth(t, w.Body.Bytes())
	}
	untimed := func(v map[string]any) map[string]any {
		for _, r := range v["rows"].([]any) {
			for _, k := range []string{"seconds", "seconds_se", "median_seconds"} {
				delete(r.(map[string]any), k)
			}
		}
		return v
	}
	for n := 4; n <= 10; n++ {
		for _, variant := range []string{"row", "cell"} {
			for _, objective := range []string{"", "explored", "checks"} { // "": the default
				type mode struct {
					query string
					args  []string
				}
				base, flags := fmt.Sprintf("n=%d&variant=%s", n, variant), []string{"lab", "lasvegas", fmt.Sprint(n), "--variant", variant, "--json"}
				if objective != "" {
					base += "&objective=" + objective
					flags = append(flags, "--objective", objective)
				}
				modes := []mode{{base + "&trials=30&seed=1", []string{"--trials", "30", "--seed", "1", "--max-checks", "1000000"}}}
				if variant == "row" || n <= 7 {
					modes = append(modes, mode{base + "&exact=true", []string{"--exact"}})
				}
				for _, m := range modes {
					args := append(flags[:len(flags):len(flags)], m.args...)
					code, out, errs := runCLI(t, "", args...)
					if code != 0 {
						t.Fatalf("%v: exit %d: %s", args, code, errs)
					}
					cmdJSON, cmdTab := decodeBoth(t, []byte(out))
					apiJSON, apiTab := api(m.query)
					if cmdTab.Optimum < 0 || cmdTab.Optimum != apiTab.Optimum {
						t.Errorf("%v: optimum %d, the API's %d (%s)", args, cmdTab.Optimum, apiTab.Optimum, m.query)
					}
					if !reflect.DeepEqual(untimed(cmdJSON), untimed(apiJSON)) {
						t.Errorf("%v and %s: the JSON differs\n%s\n%s", args, m.query, out, mustJSON(apiJSON))
					}
				}
			}
		}
	}
}

// decodeBoth decodes a JSON table as a generic value and as a lab.LasVegasTable.
func decodeBoth(t *testing.T, b []byte) (map[string]any, lab.LasVegasTable) {
	t.Helper()
	var v map[string]any
	var tab lab.LasVegasTable
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v, tab
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestLabLasVegasHeader: the header of a sampled table gives the bound of draws for the
// cell variant only: the row variant draws no squares, and refuses --max-draws.
func TestLabLasVegasHeader(t *testing.T) {
	for variant, want := range map[string]bool{"row": false, "cell": true} {
		code, out, errs := runCLI(t, "", "lab", "lasvegas", "8", "--variant", variant, "--trials", "3", "--seed", "1", "--ms", "0..1")
		head, _, _ := strings.Cut(out, "\n")
		if code != 0 || !strings.HasPrefix(head, "n=8 variant="+variant+" trials=3 seed=1 ") || strings.Contains(head, "max_draws=") != want {
			t.Errorf("%s: exit %d, header %q (%s); want max_draws: %v", variant, code, head, errs, want)
		}
	}
}

// TestLabLocalSearchColumns: the text table heads its columns with the JSON's names for
// the local search's counters, as solve prints them: conflicts (it said k), swaps.
func TestLabLocalSearchColumns(t *testing.T) {
	code, out, errs := runCLI(t, "", "lab", "localsearch", "--from", "1e3", "--to", "1e3", "--seed", "1")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) < 3 {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	head := strings.Fields(lines[1])
	if !slices.Contains(head, "conflicts") || !slices.Contains(head, "swaps") || slices.Contains(head, "k") {
		t.Errorf("the columns %q: want conflicts and swaps, no k", head)
	}
}

// TestAlgorithmLimits: solve's help reads the algorithms' limits from the library's
// answers (a size error's Max, Auto.Pick): they are the engines' own.
func TestAlgorithmLimits(t *testing.T) {
	if got := algorithmMax(nqueens.Backtrack); got != backtrack.MaxN {
		t.Errorf("algorithmMax(backtrack) = %d, want %d", got, backtrack.MaxN)
	}
	if got := algorithmMax(nqueens.LocalSearch); got != localsearch.MaxN {
		t.Errorf("algorithmMax(localsearch) = %d, want %d", got, localsearch.MaxN)
	}
	if n := autoBacktrackMax(); n < 8 || nqueens.Auto.Pick(n) != nqueens.Backtrack || nqueens.Auto.Pick(n+1) != nqueens.LocalSearch {
		t.Errorf("autoBacktrackMax() = %d: auto picks %s there and %s beyond", n, nqueens.Auto.Pick(n), nqueens.Auto.Pick(n+1))
	}
}

// TestPowerOfTwo: the limits the help texts take from the constants read as people
// write them (complete's N up to 2^31−1, its --count n ≤ 2^20).
func TestPowerOfTwo(t *testing.T) {
	for v, want := range map[int64]string{1 << 20: "2^20", 1<<31 - 1: "2^31−1", 20_000_000: "20,000,000", 1: "2^0", 14: "14"} {
		if got := powerOfTwo(v); got != want {
			t.Errorf("powerOfTwo(%d) = %q, want %q", v, got, want)
		}
	}
}
