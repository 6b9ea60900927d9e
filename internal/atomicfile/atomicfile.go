// Package atomicfile replaces files so that a crash or a Ctrl-C at any instant leaves
// either the old file or the complete new one, never a part: the data go to a temporary
// file in the same directory, which is synced, renamed over the target, and the
// directory synced so that the rename itself is durable.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write replaces path with what write writes. When write returns an error, path is left
// as it was and the temporary file is removed. The new file has mode 0644.
func Write(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o644); err != nil { // CreateTemp makes it private
		return err
	}
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WriteBytes replaces path with data.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
