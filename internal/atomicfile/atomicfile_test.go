package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWrite(t *testing.T) { testWrite(t, options{}) }

// testWrite is TestWrite with the options of the writes.
func testWrite(t *testing.T, opt options) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := writeBytes(path, []byte("one"), opt); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := writeWith(path, false, func(w *os.File) error {
		w.Write([]byte("half of two"))
		return boom
	}, opt)
	if !errors.Is(err, boom) {
		t.Fatalf("want the writer's error, got %v", err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "one" {
		t.Errorf("a failed write changed the file: %q", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	missing := filepath.Join(dir, "no", "such", "dir")
	if err := writeBytes(missing, nil, opt); err == nil || !strings.HasPrefix(err.Error(), missing+":") {
		t.Errorf("a missing directory: %v, want an error naming %s", err, missing)
	}
}

// TestModeKept: replacing a file keeps its permissions.
func TestModeKept(t *testing.T) { testModeKept(t, options{}) }

// testModeKept is TestModeKept with the options of the writes.
func testModeKept(t *testing.T, opt options) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeBytes(path, []byte("new"), opt); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 as before", st.Mode().Perm())
	}
}

// TestCreateChecksFirst: the errors that would lose a long computation come from
// Create, before anything is written.
func TestCreateChecksFirst(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(dir, false); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Create(filepath.Join(dir, "none", "f"), false); err == nil {
		t.Error("a missing directory: accepted")
	}
	if _, err := Create("", false); err == nil {
		t.Error("an empty name: accepted")
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o500)
		if _, err := Create(filepath.Join(ro, "f"), false); err == nil {
			t.Error("a read-only directory: accepted")
		}
	}
}

// TestSymlink: a link stays a link; the file it points to gets the data, also when it
// does not exist yet.
func TestSymlink(t *testing.T) { testSymlink(t, options{}) }

// testSymlink is TestSymlink with the options of the writes.
func testSymlink(t *testing.T, opt options) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real"), filepath.Join(dir, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"first", "second"} { // dangling, then existing
		if err := writeBytes(link, []byte(data), opt); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
		}
		if got, _ := os.ReadFile(real); string(got) != data {
			t.Errorf("target holds %q, want %q", got, data)
		}
	}
}

// TestDevices: a device is written in place and stays a device; a full one fails with
// an error naming it; a file read back later cannot be a device.
func TestDevices(t *testing.T) {
	if err := Write("/dev/null", false, func(w *os.File) error {
		_, err := w.Write([]byte("discarded"))
		return err
	}); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
	if _, err := Create("/dev/null", true); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/null as a regular file: %v", err)
	}
	if st, err := os.Stat("/dev/full"); err == nil && st.Mode()&fs.ModeCharDevice != 0 {
		err := Write("/dev/full", false, func(w *os.File) error {
			_, err := w.Write([]byte("no room"))
			return err
		})
		if !errors.Is(err, syscall.ENOSPC) || !strings.HasPrefix(err.Error(), "/dev/full:") {
			t.Errorf("/dev/full: %v, want ENOSPC naming /dev/full", err)
		}
		if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("/dev/full is no longer a device: %v %v", st.Mode(), err)
		}
	}
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat("/dev/null"); st.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v", st.Mode())
	}
}

// TestFIFO: a named pipe is written, not replaced.
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteBytes(fifo, nil); err == nil {
		t.Error("a FIFO as a regular file: accepted")
	}
	if err := Write(fifo, false, func(w *os.File) error {
		_, err := io.WriteString(w, "through the pipe")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("reader got %q", s)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO became %v", st.Mode())
	}
}

// TestStaleTemporaries: the temporary files of a killed run are removed by the next
// write of the same path, and only those.
func TestStaleTemporaries(t *testing.T) { testStaleTemporaries(t, options{}) }

// testStaleTemporaries is TestStaleTemporaries with the options of the writes.
func testStaleTemporaries(t *testing.T, opt options) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ck")
	stale := []string{".ck.tmp123", ".ck.tmp4567890"}
	keep := []string{".ck.tmpx1", ".other.tmp1", "ck.tmp1"}
	for _, name := range append(append([]string{}, stale...), keep...) {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	if err := writeBytes(path, []byte("x"), opt); err != nil {
		t.Fatal(err)
	}
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s left behind", name)
		}
	}
	for _, name := range keep {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s removed", name)
		}
	}
}

// TestDescriptor: a name of an open descriptor (/dev/fd/N, /proc/self/fd/N) is written
// through it, at its offset: the file it is open on keeps what was before and gets
// what comes after, as with a shell's >>. It is never replaced, cannot be a file read
// back, and must be open for writing.
func TestDescriptor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ino := func() uint64 {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Sys().(*syscall.Stat_t).Ino
	}
	before := ino()
	f.WriteString("header\n")
	for _, name := range []string{fmt.Sprintf("/dev/fd/%d", f.Fd()), fmt.Sprintf("/proc/self/fd/%d", f.Fd()), fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), f.Fd())} {
		if err := writeTo(name, []byte("body\n")); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	f.WriteString("footer\n")
	if b, _ := os.ReadFile(path); string(b) != "header\nbody\nbody\nbody\nfooter\n" || ino() != before {
		t.Errorf("after writing through the descriptor: %q (replaced: %v)", b, ino() != before)
	}
	if _, err := Create(fmt.Sprintf("/dev/fd/%d", f.Fd()), true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a descriptor as a file read back: %v", err)
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := Create(fmt.Sprintf("/dev/fd/%d", r.Fd()), false); err == nil || !strings.Contains(err.Error(), "reading only") {
		t.Errorf("a read-only descriptor: %v", err)
	}
	others := []string{"/dev/fd/x", "/dev/fd/01", "/dev/fd/-1", "fd/1", "/dev/fdx/1", "/proc/self/fdinfo/1"}
	if os.Getpid() != 1 {
		others = append(others, "/proc/1/fd/1") // another process's
	}
	for _, p := range others {
		if fd := descriptor(p); fd >= 0 {
			t.Errorf("%s taken for descriptor %d", p, fd)
		}
	}
}

// writeTo writes data to a path that need not be a regular file.
func writeTo(path string, data []byte) error {
	return Write(path, false, func(w *os.File) error {
		_, err := w.Write(data)
		return err
	})
}

// unnamedWorks reports whether O_TMPFILE files can be made in dir: the kernel, the file
// system and /proc allow it.
func unnamedWorks(dir string) bool {
	f := openUnnamed(dir, "probe", 0o644)
	if f == nil {
		return false
	}
	f.Close()
	return true
}

// TestNothingLeftWhileWriting: where the file system has O_TMPFILE, an output being
// written has no name in the directory, so a process killed before Commit (kill -9, a
// crash) leaves nothing behind; Commit gives it its name, Abort leaves nothing.
func TestNothingLeftWhileWriting(t *testing.T) {
	dir := t.TempDir()
	if !unnamedWorks(dir) {
		t.Skipf("no O_TMPFILE in %s", dir)
	}
	path := filepath.Join(dir, "q.bin")
	for _, commit := range []bool{false, true} {
		f, err := Create(path, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(make([]byte, 1<<20)); err != nil {
			t.Fatal(err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("while writing, the directory holds %v: a kill now would leave it", names(entries))
		}
		if !commit {
			f.Abort()
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Fatalf("after Abort: %v", names(entries))
			}
			continue
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(dir)
		if st, err := os.Stat(path); err != nil || st.Size() != 1<<20 || st.Mode().Perm() != 0o644 || len(entries) != 1 {
			t.Fatalf("after Commit: %v %v, directory %v", st, err, names(entries))
		}
	}
}

func names(entries []os.DirEntry) []string {
	var s []string
	for _, e := range entries {
		s = append(s, e.Name())
	}
	return s
}

// TestNamedTemporaries runs the tests of replacing files with the named temporary files
// that systems without O_TMPFILE get.
func TestNamedTemporaries(t *testing.T) {
	named := options{named: true}
	for name, test := range map[string]func(*testing.T, options){"Write": testWrite, "ModeKept": testModeKept,
		"Symlink": testSymlink, "StaleTemporaries": testStaleTemporaries} {
		t.Run(name, func(t *testing.T) { test(t, named) })
	}
	dir := t.TempDir()
	f, err := create(filepath.Join(dir, "f"), false, named)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), ".f"+tmpInfix) {
		t.Errorf("the named temporary file: %v", names(entries))
	}
}

// TestTemporaryRefused: a file that exists and may be written, in a directory that
// takes no new file (/proc for root, a read-only directory for others), is refused
// with an error that says the temporary file is what failed, not "no such file".
func TestTemporaryRefused(t *testing.T) {
	path := "/proc/version"
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		path = filepath.Join(dir, "f")
		os.WriteFile(path, []byte("old"), 0o644)
		os.Chmod(dir, 0o555)
		defer os.Chmod(dir, 0o755)
	} else if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	_, err := Create(path, false)
	if err == nil || !strings.HasPrefix(err.Error(), path+": cannot create a temporary file in "+filepath.Dir(path)) {
		t.Errorf("got %v", err)
	}
}
