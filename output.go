package nqueens

import "github.com/nqueens/nqueens/internal/atomicfile"

// An OutputFile is an output file being written: Commit makes it the content of its
// path, Abort drops it. Made by CreateOutput.
type OutputFile = atomicfile.File

// The refusals of CreateOutput.
var (
	ErrIsDirectory    = atomicfile.ErrIsDir      // the path is a directory
	ErrNotRegularFile = atomicfile.ErrNotRegular // a device or a FIFO where a regular file is needed
)

// CreateOutput opens path for writing, checking that it can be written before any data
// are computed. A regular file (or a new one) is written through a temporary file in
// the same directory, synced and renamed over it on Commit, so that an interruption at
// any instant leaves the old file or the whole new one; a symbolic link is followed (it
// stays a link); a device or a FIFO (/dev/null, a named pipe) is written in place, and
// a name of an open descriptor (/dev/stdout, /dev/fd/N) through that descriptor, at its
// offset, unless regularOnly, which refuses them with ErrNotRegularFile; a directory is
// refused with ErrIsDirectory. Errors name path, never the temporary file.
func CreateOutput(path string, regularOnly bool) (*OutputFile, error) {
	return atomicfile.Create(path, regularOnly)
}

// checkOutput fails if a regular file cannot be written at path, before a long count
// that would write it.
func checkOutput(path string) error {
	f, err := atomicfile.Create(path, true)
	if err != nil {
		return err
	}
	f.Abort()
	return nil
}
