package nqueens_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBenchPair runs bench/pair.py on two tiny programs: a shell script that burns a
// known share of CPU more than the other, and checks its medians' ratio, that {D} is
// a fresh directory per process, that a failing program fails the run (exit 1) and
// that bad arguments are a usage error (exit 2).
func TestBenchPair(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	// slow spins longer than fast; both record the directory they were given.
	script := func(name string, loops int) string {
		p := filepath.Join(dir, name)
		body := "#!/bin/sh\nmkdir \"$1/seen\" || exit 3\necho \"$1\" >> " + filepath.Join(dir, "dirs") +
			"\ni=0\nwhile [ $i -lt " + strconv.Itoa(loops) + " ]; do i=$((i+1)); done\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fast, slow := script("fast", 20000), script("slow", 200000)
	cmd := exec.Command(py, "bench/pair.py", "3", slow, fast, "--", "{D}")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pair.py: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`ratio A/B ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no ratio in:\n%s", out)
	}
	if ratio, err := strconv.ParseFloat(string(m[1]), 64); err != nil || ratio < 2 {
		t.Errorf("slow/fast ratio %s, want well above 2 (10 times the loops)\n%s", m[1], out)
	}
	if n := strings.Count(string(out), "round "); n != 6 {
		t.Errorf("%d lines of rounds, want 6:\n%s", n, out)
	}
	dirs, _ := os.ReadFile(filepath.Join(dir, "dirs"))
	seen := map[string]bool{}
	for _, d := range strings.Fields(string(dirs)) {
		seen[d] = true
	}
	if len(seen) != 6 {
		t.Errorf("{D} gave %d distinct directories to 6 processes", len(seen))
	}

	code := func(args ...string) int {
		err := exec.Command(py, append([]string{"bench/pair.py"}, args...)...).Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	if c := code("1", fast, "/bin/false", "--", "{D}"); c != 1 {
		t.Errorf("a failing program: exit %d, want 1", c)
	}
	for _, args := range [][]string{{}, {"3", fast}, {"x", fast, slow, "--"}, {"3", fast, slow}} {
		if c := code(args...); c != 2 {
			t.Errorf("pair.py %q: exit %d, want 2", args, c)
		}
	}
}
