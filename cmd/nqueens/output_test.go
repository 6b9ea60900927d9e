package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
)

// TestOutputPaths: --out and --checkpoint respect what is at the path. A regular file is
// replaced whole, a link stays a link, a device or a FIFO is written in place and stays
// what it is, a directory is refused (exit 2), and a path that cannot be written fails
// before the search starts.
func TestOutputPaths(t *testing.T) {
	dir := t.TempDir()
	verifyFile := func(path string) {
		t.Helper()
		if code, out, errs := runCLI(t, "", "verify", path); code != 0 {
			t.Errorf("verify %s: exit %d %s%s", path, code, out, errs)
		}
	}

	if code, _, errs := runCLI(t, "", "solve", "1000", "--seed", "1", "--out", dir); code != exitUsage || !strings.Contains(errs, dir+" is a directory") {
		t.Errorf("--out DIR: exit %d, %q", code, errs)
	}
	missing := filepath.Join(dir, "none", "q.txt")
	code, _, errs := runCLI(t, "", "solve", "100000", "--seed", "1", "--out", missing)
	if code != exitFailure || !strings.Contains(errs, missing) || strings.Contains(errs, "localsearch:") {
		t.Errorf("--out in a missing directory: exit %d, %q (want a failure naming the path, before the search)", code, errs)
	}

	link, target := filepath.Join(dir, "link"), filepath.Join(dir, "target.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Fatal(err)
	}
	for range 2 { // dangling, then pointing at a file
		if code, _, errs := runCLI(t, "", "solve", "500", "--seed", "2", "--out", link); code != 0 {
			t.Fatalf("--out LINK: exit %d %s", code, errs)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v", err)
		}
		verifyFile(target)
	}

	if st, err := os.Stat("/dev/full"); err == nil && st.Mode()&fs.ModeCharDevice != 0 {
		code, _, errs := runCLI(t, "", "solve", "100000", "--seed", "1", "--out", "/dev/full")
		if code != exitFailure || !strings.Contains(errs, "/dev/full: no space left on device") {
			t.Errorf("--out /dev/full: exit %d, %q", code, errs)
		}
		if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("/dev/full is no longer a device: %v", err)
		}
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		got := make(chan []byte)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- b
		}()
		if code, _, errs := runCLI(t, "", "solve", "300", "--seed", "3", "--out", fifo); code != 0 {
			t.Errorf("--out FIFO: exit %d %s", code, errs)
		}
		b := <-got
		if p, err := nqueens.ParsePlacement(string(b)); err != nil || len(p) != 300 || nqueens.Verify(p) != nil {
			t.Errorf("through the FIFO: %d bytes, %v", len(b), err)
		}
		if st, _ := os.Lstat(fifo); st.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("the FIFO became %v", st.Mode())
		}
	}

	for _, ck := range []string{dir, "/dev/null"} {
		code, _, errs := runCLI(t, "", "count", "10", "--checkpoint", ck)
		if code != exitUsage || !strings.Contains(errs, ck) {
			t.Errorf("--checkpoint %s: exit %d, %q", ck, code, errs)
		}
	}
	if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v", err)
	}
}

// TestCheckpointStaleTemporaries: the temporary files a killed run left beside its
// checkpoint are gone after the next run.
func TestCheckpointStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "ck")
	stale := filepath.Join(dir, ".ck.tmp1234567")
	if err := os.WriteFile(stale, []byte("half a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "", "count", "11", "--checkpoint", ck); code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "ck" {
			t.Errorf("left in the directory: %s", e.Name())
		}
	}
}

// failWriter fails every write, as a full disk does.
type failWriter struct{ writes int }

func (f *failWriter) Write([]byte) (int, error) {
	f.writes++
	return 0, syscall.ENOSPC
}

// TestStdoutFailure: a command whose output cannot be written exits 1 and says so,
// whatever the command.
func TestStdoutFailure(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "", "count", "10", "--shard", "0/1", "--out-dir", dir); code != 0 {
		t.Fatalf("shard: exit %d %s", code, errs)
	}
	placements := "2 4 1 3\n3 1 4 2\n"
	for _, args := range [][]string{
		{"count", "10"}, {"count", "10", "--json"}, {"count", "10", "--checkpoint", filepath.Join(dir, "ck")},
		{"plan", "12"}, {"plan", "12", "--shards", "3", "--json"},
		{"merge", dir}, {"merge", dir, "--json"}, {"audit", dir}, {"audit", dir, "--json"},
		{"status", dir}, {"status", dir, "--json"},
		{"verify"}, {"verify", "--json"},
		{"version"}, {"version", "--json"},
		{"solve", "8"}, {"solve", "8", "--json"}, {"solve", "1000", "--format", "binary"},
		{"solve", "8", "--out", filepath.Join(dir, "q.txt")},
		{"list", "6"}, {"list", "8", "--unique", "--format", "json"},
		{"complete", "8", "--fix", "1:1"}, {"complete", "8", "--fix", "1:1", "--count"},
		{"complete", "--generate", "10", "--fixed", "3", "--seed", "1"},
		{"lab", "backtrack", "6"}, {"lab", "lasvegas", "8", "--exact"},
	} {
		w := &failWriter{}
		var errb bytes.Buffer
		code := run(context.Background(), strings.NewReader(placements), w, &errb, args)
		os.Remove(filepath.Join(dir, "ck"))
		if code != exitFailure || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%v > full disk: exit %d, stderr %q", args, code, errb.String())
		}
		if w.writes == 0 {
			t.Errorf("%v: wrote nothing", args)
		}
	}
}

// TestVerifyTrailingData: a JSON placement must be alone on its line.
func TestVerifyTrailingData(t *testing.T) {
	for _, in := range []string{
		`{"n":4,"columns":[2,4,1,3]}{"n":4,"columns":[1,2,3,4]}`,
		`{"n":4,"columns":[2,4,1,3]} 7`,
		`{"n":4,"columns":[2,4,1,3]},`,
	} {
		code, out, errs := runCLI(t, in+"\n", "verify")
		if code != exitUsage || !strings.Contains(errs, "after the JSON object") || strings.Contains(out, "valid") {
			t.Errorf("%s: exit %d, %q %q", in, code, out, errs)
		}
	}
	if code, out, _ := runCLI(t, `{"n":4,"columns":[2,4,1,3]}  `+"\n", "verify"); code != 0 || out != "valid (n=4)\n" {
		t.Errorf("trailing blanks: exit %d %q", code, out)
	}
}

// TestVerifyStreams: verify prints each verdict as it reads, so that a stream of
// placements is checked in the memory of one: the first verdicts are out while the
// writer still holds the rest back.
func TestVerifyStreams(t *testing.T) {
	pr, pw := io.Pipe()
	out := &lockedBuffer{}
	var errb bytes.Buffer
	done := make(chan int)
	go func() { done <- run(context.Background(), pr, out, &errb, []string{"verify"}) }()
	io.WriteString(pw, "2 4 1 3\n3 1 4 2\n1 2 3 4\n")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "placement 2: valid") {
		if time.Now().After(deadline) {
			t.Fatalf("no verdict while the input is open: %q", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	io.WriteString(pw, "2 4 1 3\n")
	pw.Close()
	if code := <-done; code != exitFailure {
		t.Errorf("exit %d, want 1 (placement 3 is invalid)", code)
	}
	want := "placement 1: valid (n=4)\nplacement 2: valid (n=4)\nplacement 3: invalid"
	if !strings.HasPrefix(out.String(), want) || !strings.HasSuffix(out.String(), "placement 4: valid (n=4)\n") {
		t.Errorf("output %q", out.String())
	}
}

// zeros is an endless stream of zero bytes, like /dev/zero.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

// TestVerifyEndlessInput: an endless stream stops verify at Ctrl-C (exit 130), holding
// little memory meanwhile.
func TestVerifyEndlessInput(t *testing.T) {
	for _, format := range []string{"binary", "text"} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		in := io.Reader(zeros{})
		if format == "text" {
			in = io.MultiReader(strings.NewReader("1"), &repeat{b: []byte(" 1")})
		}
		var out, errb bytes.Buffer
		code := run(ctx, in, &out, &errb, []string{"verify", "--format", format})
		cancel()
		if code != exitInterrupted && !(format == "text" && code == exitUsage) {
			t.Errorf("%s: exit %d %q", format, code, errb.String())
		}
	}
}

// repeat is b over and over (a read may end inside b: off is where the next one starts).
type repeat struct {
	b   []byte
	off int
}

func (r *repeat) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.b[r.off:])
		n += k
		r.off = (r.off + k) % len(r.b)
	}
	return n, nil
}

// TestVerifyDirectory: a directory is a usage error, exit 2.
func TestVerifyDirectory(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "", "verify", dir); code != exitUsage || !strings.Contains(errs, "is a directory") {
		t.Errorf("verify DIR: exit %d %q", code, errs)
	}
}

// TestSolveOutSummaryOnly: with --out, stdout gets the summary and not the placement.
func TestSolveOutSummaryOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.json")
	for _, extra := range [][]string{{"--json"}, {"--json", "--format", "json"}, {}} {
		args := append([]string{"solve", "100000", "--seed", "4", "--out", path}, extra...)
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || len(out) > 1000 || strings.Contains(out, "columns") {
			t.Errorf("%v: exit %d, %d bytes on stdout %.100q %s", extra, code, len(out), out, errs)
		}
	}
	b, _ := os.ReadFile(path) // the last run wrote text
	if p, err := nqueens.ParsePlacement(string(b)); err != nil || len(p) != 100000 || nqueens.Verify(p) != nil {
		t.Errorf("the file: %v", err)
	}
}

// TestSolveJSONStreamed: the JSON of a placement is written while the columns are
// produced, not built whole first.
func TestSolveJSONStreamed(t *testing.T) {
	var buf bytes.Buffer
	const n = 1 << 20
	firstSeen := -1
	cols := func(yield func(int) bool) {
		for i := range n {
			if firstSeen < 0 && buf.Len() > 0 {
				firstSeen = i
			}
			if !yield(i) {
				return
			}
		}
	}
	if err := writeSolveJSON(context.Background(), &buf, solveOutput{N: n, Algorithm: "test", Verified: true}, cols); err != nil {
		t.Fatal(err)
	}
	if firstSeen < 0 || firstSeen > n/4 {
		t.Errorf("the first bytes came out after %d of %d columns", firstSeen, n)
	}
	var v struct {
		N       int   `json:"n"`
		Columns []int `json:"columns"`
	}
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil || v.N != n || len(v.Columns) != n || v.Columns[n-1] != n {
		t.Errorf("not the JSON of the placement: %v", err)
	}
}

// TestLongArgumentsCut: an error quotes a long argument by its start only.
func TestLongArgumentsCut(t *testing.T) {
	long := strings.Repeat("9", 100000)
	for _, args := range [][]string{
		{"count", long}, {"solve", "x" + long}, {"solve", "8", "--algorithm", long}, {long},
		{"verify", "--format", long}, {"count", "8", "--shard", long + "/2", "--out-dir", t.TempDir()},
	} {
		code, _, errs := runCLI(t, "", args...)
		if code == 0 || len(errs) > 300 || !strings.Contains(errs, "…") {
			t.Errorf("%.20v: exit %d, %d bytes of error: %.200q", args, code, len(errs), errs)
		}
	}
	code, _, errs := runCLI(t, "1 2 "+long+"\n", "verify")
	if code != exitUsage || len(errs) > 300 {
		t.Errorf("verify of a long token: exit %d, %d bytes of error", code, len(errs))
	}
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("é", 50)
	for in, want := range map[string]string{
		`short "abc"`:                        `short "abc"`,
		`x "` + long + `" y`:                 `x "` + strings.Repeat("é", maxQuote) + `…" y`,
		`"` + strings.Repeat(`\"`, 30) + `"`: `"` + strings.Repeat(`\"`, 20) + `…"`,
	} {
		if got := shorten(in); got != want {
			t.Errorf("shorten(%.30q) = %q, want %q", in, got, want)
		}
	}
	if got := shorten(strings.Repeat("a", 5000)); len(got) > maxMessage+3 {
		t.Errorf("a long message: %d bytes", len(got))
	}
}

// TestOutStdout: --out /dev/stdout writes to the descriptor the shell opened: a log that
// stdout appends to keeps what was before and gets what comes after (it was replaced by
// the placement alone), and the summary goes to stderr, as with --out -, not into the
// data. --out - is stdout, as if --out were not given, and makes no file named "-".
func TestOutStdout(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	logPath := filepath.Join(dir, "log")
	if err := os.WriteFile(logPath, []byte("header\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "solve", "8", "--seed", "1", "--out", "/dev/stdout")
	var errs bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Dir = log, &errs, dir
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v %s", err, &errs)
	}
	log.WriteString("footer\n")
	log.Close()
	b, _ := os.ReadFile(logPath)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || lines[0] != "header" || lines[1] != "1 5 8 6 3 7 2 4" || lines[2] != "footer" ||
		!strings.HasPrefix(errs.String(), "n=8 ") {
		t.Errorf("the log after --out /dev/stdout:\n%s\nstderr: %s", b, &errs)
	}

	cmd = exec.Command(bin, "solve", "8", "--seed", "1", "--out", "-")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil || string(out) != "1 5 8 6 3 7 2 4\n" { // as without --out: the summary on stderr
		t.Errorf("--out -: %v %q", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error(`--out - made a file named "-"`)
	}
}

// TestOutIsStdout: --out naming the command's own standard output (/dev/stdout,
// /dev/fd/1, /proc/self/fd/1, or the file stdout is redirected to) is --out -: the
// placement alone on stdout, the summary on stderr. "solve 1000 --format binary --out
// /dev/stdout | nqueens verify" failed, the summary line after the placement.
func TestOutIsStdout(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		out, format string
	}{{"/dev/stdout", "binary"}, {"/dev/fd/1", "text"}, {"/proc/self/fd/1", "json"}, {"SELF", "binary"}, {"SELF", "text"}} {
		path := filepath.Join(dir, fmt.Sprint(i))
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		out := c.out
		if out == "SELF" { // the file stdout is redirected to: solve ... --out q > q
			out = path
		}
		var errb bytes.Buffer
		code := run(context.Background(), strings.NewReader(""), f, &errb, []string{"solve", "1000", "--seed", "1", "--format", c.format, "--out", out})
		f.Close()
		data, _ := os.ReadFile(path)
		summary := strings.HasPrefix(errb.String(), "n=1000 algorithm=localsearch seed=1 verified=true") && !strings.Contains(string(data), "algorithm=")
		if c.format == "json" { // the summary is the JSON object's, as without --out
			summary = errb.Len() == 0 && strings.Contains(string(data), `"algorithm":"localsearch"`)
		}
		if code != 0 || !summary {
			t.Errorf("--out %s --format %s: exit %d, stderr %q, %d bytes on stdout", c.out, c.format, code, errb.String(), len(data))
			continue
		}
		code, vout, verrs := runCLI(t, "", "verify", "--format", map[string]string{"binary": "binary", "text": "auto", "json": "auto"}[c.format], path)
		if code != 0 || !strings.HasPrefix(vout, "valid (n=1000)") {
			t.Errorf("--out %s --format %s: what stdout holds does not verify: exit %d %q %q", c.out, c.format, code, vout, verrs)
		}
	}
}
