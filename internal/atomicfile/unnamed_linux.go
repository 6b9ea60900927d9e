package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// openUnnamed opens an unnamed regular file in dir (O_TMPFILE) with the given mode, or
// returns nil where that cannot be done: a kernel or a file system without O_TMPFILE,
// or no /proc to link it in with. The file gets a name only when Commit links it, so a
// process killed while writing leaves no file behind.
func openUnnamed(dir, base string, mode fs.FileMode) *os.File {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(mode.Perm()))
	if err != nil {
		return nil
	}
	// The mode without the umask, as for a named temporary file; and linkat needs the
	// descriptor's name in /proc (AT_EMPTY_PATH alone needs CAP_DAC_READ_SEARCH).
	if unix.Fchmod(fd, uint32(mode.Perm())) != nil || unix.Access(procFD(fd), unix.F_OK) != nil {
		unix.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), filepath.Join(dir, "."+base+tmpInfix+"(unnamed)"))
}

// linkUnnamed gives the unnamed file f the name name, which must not exist.
func linkUnnamed(f *os.File, name string) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := raw.Control(func(fd uintptr) {
		lerr = unix.Linkat(unix.AT_FDCWD, procFD(int(fd)), unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
	}); err != nil {
		return err
	}
	if lerr != nil {
		return &os.LinkError{Op: "linkat", Old: f.Name(), New: name, Err: lerr}
	}
	return nil
}

// procFD is the name of the descriptor fd in /proc.
func procFD(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }
