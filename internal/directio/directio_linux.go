package directio

import (
	"errors"
	"io"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// writeDirect writes the longest aligned prefix of b with O_DIRECT set on f and returns
// its length, in writes of at most chunk bytes; 0 and no error when the conditions are
// not met or the file system refuses.
// An error other than a refusal of O_DIRECT is returned with the bytes written so far.
func writeDirect(f *os.File, b []byte, chunk int) (int, error) {
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
	flags, err := fcntl(f, unix.F_GETFL, 0)
	if err != nil || flags&unix.O_APPEND != 0 {
		return 0, nil // with O_APPEND each write lands at the end, maybe unaligned
	}
	if _, err := fcntl(f, unix.F_SETFL, flags|unix.O_DIRECT); err != nil {
		return 0, nil // this file system does not do O_DIRECT
	}
	done := 0
	for done < bulk {
		k, err := f.Write(b[done:min(done+chunk, bulk)])
		done += k
		if err != nil {
			fcntl(f, unix.F_SETFL, flags)
			if errors.Is(err, unix.EINVAL) && k == 0 && done%Align == 0 {
				return done, nil // refused after all: the rest goes the ordinary way
			}
			return done, err
		}
	}
	_, err = fcntl(f, unix.F_SETFL, flags)
	return done, err
}

// fcntl runs fcntl(2) on f's descriptor.
func fcntl(f *os.File, cmd, arg int) (int, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var r int
	var ferr error
	if err := raw.Control(func(fd uintptr) { r, ferr = unix.FcntlInt(fd, cmd, arg) }); err != nil {
		return 0, err
	}
	return r, ferr
}
