//go:build !linux

package directio

import "os"

func writeDirect(f *os.File, b []byte) (int, error) { return 0, nil }
