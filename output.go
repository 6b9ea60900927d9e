package nqueens

import "github.com/nqueens/nqueens/internal/atomicfile"

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
