package directio

import (
	"errors"
	"io"
	"os"
	"syscall"
	"unsafe"
)

// chunk is the size of one direct write: large enough that the system call costs
// nothing, small enough that the kernel never pins gigabytes of user memory at once. A
// variable so that the tests can cross chunk boundaries cheaply.
var chunk = 64 << 20

// writeDirect writes the longest aligned prefix of b with O_DIRECT set on f and returns
// its length; 0 and no error when the conditions are not met or the file system refuses.
// An error other than a refusal of O_DIRECT is returned with the bytes written so far.
func writeDirect(f *os.File, b []byte) (int, error) {
	bulk := len(b) &^ (Align - 1)
	if bulk == 0 || uintptr(unsafe.Pointer(&b[0]))%Align != 0 {
		return 0, nil
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return 0, nil
	}
	if off, err := f.Seek(0, io.SeekCurrent); err != nil || off%Align != 0 {
		return 0, nil
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return 0, nil
	}
	var flags int
	var ferr error
	setFlags := func(fl int) {
		ferr = nil
		cerr := raw.Control(func(fd uintptr) {
			if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETFL, uintptr(fl)); e != 0 {
				ferr = e
			}
		})
		if cerr != nil {
			ferr = cerr
		}
	}
	if err := raw.Control(func(fd uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		flags = int(r)
		if e != 0 {
			ferr = e
		}
	}); err != nil || ferr != nil {
		return 0, nil
	}
	if flags&syscall.O_APPEND != 0 {
		return 0, nil // the offset of each write is the end of the file, maybe unaligned
	}
	setFlags(flags | syscall.O_DIRECT)
	if ferr != nil {
		return 0, nil // this file system does not do O_DIRECT
	}
	done := 0
	for done < bulk {
		k, err := f.Write(b[done:min(done+chunk, bulk)])
		done += k
		if err != nil {
			setFlags(flags)
			if errors.Is(err, syscall.EINVAL) && k == 0 && done%Align == 0 {
				return done, nil // refused after all: the rest goes the ordinary way
			}
			return done, err
		}
	}
	setFlags(flags)
	if ferr != nil {
		return done, ferr
	}
	return done, nil
}
