// Package atomicfile writes output files so that a crash, a Ctrl-C or a kill at any
// instant leaves either the old file or the complete new one, never a part, and so that
// what is at the path is respected:
//
//   - a regular file, or nothing: the data go to a temporary file in the same directory,
//     which is synced, renamed over the target and the directory synced, so that the
//     rename itself is durable; an existing file keeps its mode. Where the kernel and the
//     file system have O_TMPFILE (Linux: ext4, xfs, btrfs, tmpfs...), the temporary file
//     has no name until Commit links it in, so that a process killed while writing
//     leaves nothing behind; elsewhere it is a hidden file (".NAME.tmp123"), and the
//     next Create of the same path removes those that a killed run left;
//   - a symbolic link: the same, for the file it points to (the link stays a link);
//   - a device or a FIFO (/dev/full, a named pipe): written in place, as a shell
//     redirection would, never replaced by a regular file;
//   - a name of a descriptor the process holds open (/dev/stdout, /dev/fd/N,
//     /proc/self/fd/N): written through that descriptor, at its offset, whatever it
//     is open on: "--out /dev/stdout >> log" appends to log, as a redirection would,
//     instead of replacing the file;
//   - a directory: refused.
//
// Errors name the path the caller gave, never the temporary file.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// tmpInfix joins the target's name and the random suffix of its temporary files:
// ".q.bin.tmp123456". Files of that shape left by a killed run are removed by the next
// Create of the same path.
const tmpInfix = ".tmp"

// maxLinks bounds the symbolic links followed to the real target, as the kernel does.
const maxLinks = 40

// The refusals of Create, for the callers that treat them as usage errors.
var (
	ErrIsDir      = errors.New("is a directory")
	ErrNotRegular = errors.New("is not a regular file")
)

// A File is an output being written: Commit makes it visible at its path, Abort drops it.
type File struct {
	path    string   // the caller's path, for errors
	target  string   // the file written: path with its links resolved
	f       *os.File // the temporary file, or the device itself
	tmp     string   // the temporary file's name; "" while it has none (O_TMPFILE)
	unnamed bool     // f was opened with O_TMPFILE: Commit links it in
	direct  bool     // f is the target (a device or a FIFO)
	done    bool
}

// Create opens path for writing, checking before any data are computed that the output
// can be written: a missing directory, a directory at path or a read-only place fail here.
// With regularOnly, anything but a regular file (or nothing) at path is refused: a file
// that is read back later, such as a checkpoint, cannot be a device.
func Create(path string, regularOnly bool) (*File, error) {
	return create(path, regularOnly, options{})
}

// options are the settings of create, write and writeBytes; the exported functions use
// the zero value. named makes create use a named temporary file even where O_TMPFILE
// works: the tests set it to run the named temporary files of other systems.
type options struct {
	named bool
}

// create is Create with its options.
func create(path string, regularOnly bool, opt options) (*File, error) {
	if path == "" {
		return nil, errors.New("no file name given")
	}
	target, fd, err := resolve(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	if fd >= 0 {
		return openDescriptor(path, fd, regularOnly)
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("%s %w", path, ErrIsDir)
	case err == nil && !st.Mode().IsRegular():
		if regularOnly {
			return nil, fmt.Errorf("%s %w (%s)", path, ErrNotRegular, kind(st.Mode()))
		}
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, pathError(path, err)
		}
		return &File{path: path, target: target, f: f, direct: true}, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, pathError(path, err)
	}
	mode := fs.FileMode(0o644)
	if err == nil {
		mode = st.Mode().Perm()
		if unix.Access(target, unix.W_OK) != nil {
			return nil, fmt.Errorf("%s: permission denied", path)
		}
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	if !opt.named {
		if tmp := openUnnamed(dir, base, mode); tmp != nil {
			return &File{path: path, target: target, f: tmp, unnamed: true}, nil
		}
	}
	tmp, err := os.CreateTemp(dir, "."+base+tmpInfix+"*")
	if err != nil {
		return nil, tempError(path, dir, err)
	}
	if err := tmp.Chmod(mode); err != nil { // CreateTemp makes it private
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, pathError(path, err)
	}
	return &File{path: path, target: target, f: tmp, tmp: tmp.Name()}, nil
}

// tempError is the error of a temporary file that could not be made in dir. A missing
// directory is the caller's path not existing; any other refusal (a read-only place, a
// directory such as /proc that takes no new files) is said as it is, since the file at
// path may well exist: only the temporary file beside it failed.
func tempError(path, dir string, err error) error {
	if _, serr := os.Stat(dir); serr != nil {
		return pathError(path, serr)
	}
	return fmt.Errorf("%s: cannot create a temporary file in %s (the output is written to one, then renamed): %w",
		path, filepath.Clean(dir), stripPath(err))
}

// Write writes to the output.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		err = pathError(f.path, err)
	}
	return n, err
}

// Commit makes the data written the content of the path: for a regular file, syncs the
// temporary file, renames it over the target and syncs the directory.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: Commit after Commit or Abort")
	}
	f.done = true
	if f.direct {
		return pathError(f.path, f.f.Close())
	}
	err := f.f.Sync()
	if err == nil && f.unnamed {
		err = f.link()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp, f.target)
	}
	if err != nil {
		if f.tmp != "" {
			os.Remove(f.tmp)
		}
		return pathError(f.path, err)
	}
	d, err := os.Open(filepath.Dir(f.target))
	if err != nil {
		return pathError(f.path, err)
	}
	defer d.Close()
	return pathError(f.path, d.Sync())
}

// Abort drops what was written: the path keeps what it held. It does nothing after
// Commit, so that it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	if f.tmp != "" {
		os.Remove(f.tmp)
	}
}

// link gives the unnamed temporary file a name beside the target, in the shape that
// removeStale recognises, for the rename over the target: linkat cannot replace a file.
func (f *File) link() error {
	dir, base := filepath.Split(f.target)
	for range 100 {
		name := filepath.Join(dir, "."+base+tmpInfix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		err := linkUnnamed(f.f, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err == nil {
			f.tmp = name
		}
		return err
	}
	return errors.New("no free temporary name")
}

// OS is the open file underneath, for writers that use its system calls (O_DIRECT):
// the temporary file, or the device. Errors of its methods name that file; Rename
// gives them the caller's path.
func (f *File) OS() *os.File { return f.f }

// Rename gives a file error (an *fs.PathError, as the methods of OS return) the
// caller's path in place of the temporary file's; other errors are returned as they are.
func (f *File) Rename(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pathError(f.path, err)
	}
	return err
}

// Write replaces path with what write writes (see Create) to the open file underneath.
// When write returns an error, a regular file at path is left as it was.
func Write(path string, regularOnly bool, write func(*os.File) error) error {
	return writeWith(path, regularOnly, write, options{})
}

// writeWith is Write with its options.
func writeWith(path string, regularOnly bool, write func(*os.File) error, opt options) error {
	f, err := create(path, regularOnly, opt)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f.OS()); err != nil {
		return f.Rename(err)
	}
	return f.Commit()
}

// WriteBytes replaces the regular file path with data.
func WriteBytes(path string, data []byte) error {
	return writeBytes(path, data, options{})
}

// writeBytes is WriteBytes with its options.
func writeBytes(path string, data []byte, opt options) error {
	return writeWith(path, true, func(w *os.File) error {
		_, err := w.Write(data)
		return err
	}, opt)
}

// resolve follows the symbolic links of path's last element to the file they name,
// which may not exist yet (a dangling link names the file to create). When a step of
// the way names one of the process's open descriptors, it stops there and returns the
// descriptor (else -1).
func resolve(path string) (string, int, error) {
	for range maxLinks {
		if fd := descriptor(path); fd >= 0 {
			return path, fd, nil
		}
		st, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && st.Mode()&fs.ModeSymlink == 0) {
			return path, -1, nil
		}
		if err != nil {
			return "", -1, err
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", -1, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", -1, errors.New("too many levels of symbolic links")
}

// Descriptor returns N when path names the descriptor N of this process, directly or
// through symbolic links (/dev/stdout is a link to /proc/self/fd/1 on Linux), as Create
// would write through it; ok is false otherwise.
func Descriptor(path string) (fd int, ok bool) {
	_, fd, err := resolve(path)
	return fd, err == nil && fd >= 0
}

// descriptor returns N when path is /dev/fd/N or /proc/P/fd/N for this process (P is
// self, thread-self or its pid), else -1.
func descriptor(path string) int {
	path = filepath.Clean(path)
	dir, num := filepath.Split(path)
	fd, err := strconv.Atoi(num)
	if err != nil || fd < 0 || num != strconv.Itoa(fd) {
		return -1
	}
	switch dir {
	case "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", fmt.Sprintf("/proc/%d/fd/", os.Getpid()):
		return fd
	}
	return -1
}

// openDescriptor opens a copy of the open descriptor fd, which path names. A file read
// back later (regularOnly) cannot be one: it would not survive the process.
func openDescriptor(path string, fd int, regularOnly bool) (*File, error) {
	if regularOnly {
		return nil, fmt.Errorf("%s %w (an open file descriptor)", path, ErrNotRegular)
	}
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, pathError(path, err)
	}
	if fl, err := unix.FcntlInt(uintptr(dup), unix.F_GETFL, 0); err == nil && fl&unix.O_ACCMODE == unix.O_RDONLY {
		unix.Close(dup)
		return nil, fmt.Errorf("%s: descriptor %d is open for reading only", path, fd)
	}
	return &File{path: path, target: path, f: os.NewFile(uintptr(dup), path), direct: true}, nil
}

// removeStale removes the temporary files of base that a killed run left in dir.
func removeStale(dir, base string) {
	prefix := "." + base + tmpInfix
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		suffix, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && suffix != "" && strings.Trim(suffix, "0123456789") == "" && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// stripPath is the cause of a file error, without the name of the file.
func stripPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// pathError names the caller's path in err instead of the temporary file's.
func pathError(path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", path, stripPath(err))
}

// kind names what a non-regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
