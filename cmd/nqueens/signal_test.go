package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nqueens/nqueens/cluster"
	"github.com/nqueens/nqueens/internal/fastcount"
)

// TestSignalsStopEveryCommand: SIGINT and SIGTERM stop every long-running command
// the same way: promptly, exit 130, and one line on stderr that says so.
func TestSignalsStopEveryCommand(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	audited := fakeShard(t, 19)
	commands := [][]string{
		{"audit", audited, "--only", "0"},
		{"count", "19"},
		{"list", "17", "-w", "2"},
		{"solve", "3e8", "--seed", "1", "--format", "binary", "--out", dir + "/q.bin"},
		{"complete", "20", "--fix", "1:1", "--count"},
		{"lab", "backtrack", "16", "--force"}, // 3 h: refused without --force
		{"lab", "lasvegas", "40"},
		{"verify", "/dev/zero"},
		{"lab", "localsearch", "--from", "1e7", "--to", "1e8"},
	}
	const within = 10 * time.Second // promptly, with room for a loaded CI machine
	for _, args := range commands {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			cmd := exec.Command(bin, args...)
			// (crash: a SIGQUIT below prints the stacks of running goroutines too.)
			cmd.Env = append(os.Environ(), "GOTRACEBACK=crash")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr // stdout: discarded
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(400 * time.Millisecond) // under way
			sent := time.Now()
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(within):
				// SIGQUIT makes the Go runtime print every goroutine's stack
				// on stderr and abort: where it hung, for the log.
				cmd.Process.Signal(syscall.SIGQUIT)
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					cmd.Process.Kill()
					<-done
				}
				t.Fatalf("%v: still running %v after %v; its stderr, with the stacks of a SIGQUIT:\n%s", args, within, sig, stderr.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
				t.Errorf("%v, %v: %v, want exit %d; stderr %q", args, sig, err, exitInterrupted, stderr.String())
				continue
			}
			msg := stderr.String()
			if lines := strings.Split(strings.TrimSuffix(msg, "\n"), "\n"); !strings.Contains(lines[len(lines)-1], "interrupted") {
				t.Errorf("%v, %v: the last line on stderr does not say interrupted: %q", args, sig, msg)
			}
			t.Logf("%v %v: exit 130 after %v", args, sig, time.Since(sent).Round(time.Millisecond))
		}
	}
	if m, _ := filepath.Glob(filepath.Join(audited, "audit-*.json")); len(m) > 0 {
		t.Errorf("an interrupted audit wrote %v", m)
	}
}

// fakeShard returns a directory holding the result file of the whole board of n as shard
// 0 of 1, with sums of 0: an audit counts all of n again.
func fakeShard(t *testing.T, n int) string {
	t.Helper()
	p, err := fastcount.NewPlan(n)
	if err != nil {
		t.Fatal(err)
	}
	r := &resultFile{Format: "nqueens-shard/4", Plan: p.Hash(), Engine: p.Version(), N: n, Shards: 1, Subs: p.Len(),
		IDs: fmt.Sprintf("0-%d", p.Len()-1), Kernel: "go", Version: "test"}
	dir := t.TempDir()
	writeResult(t, filepath.Join(dir, cluster.ResultFile(0, 1)), r)
	return dir
}

// TestSolveKilledLeavesNothing: solve --out killed with SIGKILL while it computes or
// writes leaves no file behind (not even a hidden temporary one of up to the whole
// output), where the file system has O_TMPFILE.
func TestSolveKilledLeavesNothing(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err != nil {
		t.Skipf("no O_TMPFILE in %s: %v", dir, err)
	}
	unix.Close(fd)
	for _, wait := range []time.Duration{200 * time.Millisecond, 900 * time.Millisecond} {
		cmd := exec.Command(bin, "solve", "1e8", "--algorithm", "construct", "--format", "binary", "--out", dir+"/q.bin")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(wait)
		cmd.Process.Kill()
		if err := cmd.Wait(); err == nil {
			t.Fatalf("the solve ended within %v: nothing to test", wait)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("killed after %v, it left %s", wait, entries[0].Name())
		}
	}
}
