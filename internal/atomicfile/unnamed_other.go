//go:build !linux

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
)

// openUnnamed returns nil: O_TMPFILE is Linux's; Create uses a named temporary file.
func openUnnamed(dir, base string, mode fs.FileMode) *os.File { return nil }

// linkUnnamed is never called where openUnnamed returns nil.
func linkUnnamed(f *os.File, name string) error { return errors.ErrUnsupported }
