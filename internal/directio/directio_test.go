package directio

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"
)

// alignedBytes returns n random bytes starting on an Align boundary of memory.
func alignedBytes(t *testing.T, n int, seed uint64) []byte {
	t.Helper()
	raw := make([]byte, n+Align)
	off := (Align - int(uintptr(unsafe.Pointer(&raw[0]))%Align)) % Align
	b := raw[off : off+n]
	r := rand.New(rand.NewPCG(seed, 7))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestWriteMatchesTheBytes(t *testing.T) {
	dir := t.TempDir()
	supported := directSupported(t, dir)
	for _, tc := range []struct {
		name     string
		size     int
		prefix   int // bytes written before, moving the file offset
		misalign int // start of the buffer this many bytes past an Align boundary
		append   bool
	}{
		{"empty", 0, 0, 0, false},
		{"small", 100, 0, 0, false},
		{"one block", Align, 0, 0, false},
		{"blocks and a tail", 5*Align + 123, 0, 0, false},
		{"several chunks", 7*Align + 8, 0, 0, false},
		{"aligned offset", 3*Align + 4, Align, 0, false},
		{"unaligned offset", 3*Align + 4, 12, 0, false},
		{"unaligned memory", 3*Align + 4, 0, 4, false},
		{"append mode", 3*Align + 4, 2 * Align, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := alignedBytes(t, tc.size+tc.misalign, uint64(tc.size))
			b := all[tc.misalign:]
			prefix := bytes.Repeat([]byte{'x'}, tc.prefix)
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, prefix, 0o644); err != nil {
				t.Fatal(err)
			}
			flag := os.O_WRONLY
			if tc.append {
				flag |= os.O_APPEND
			}
			f, err := os.OpenFile(path, flag, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.append {
				if _, err := f.Seek(int64(tc.prefix), io.SeekStart); err != nil {
					t.Fatal(err)
				}
			}
			direct, err := write(f, b, 2*Align) // small chunks, to cross their boundaries
			if err != nil {
				t.Fatal(err)
			}
			// The flags are back: an ordinary unaligned write still works.
			if _, err := f.Write([]byte("end")); err != nil {
				t.Fatalf("write after Write: %v", err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := append(append(append([]byte{}, prefix...), b...), "end"...)
			if !bytes.Equal(got, want) {
				t.Fatalf("file differs from the bytes written (%d vs %d bytes)", len(got), len(want))
			}
			if direct%Align != 0 || direct > len(b) {
				t.Fatalf("direct = %d: not an aligned prefix of %d bytes", direct, len(b))
			}
			mayGoDirect := runtime.GOOS == "linux" && tc.misalign == 0 && tc.prefix%Align == 0 && !tc.append
			if !mayGoDirect && direct != 0 {
				t.Fatalf("direct = %d where O_DIRECT must not be used", direct)
			}
			if mayGoDirect && supported && direct != len(b)&^(Align-1) {
				t.Fatalf("direct = %d, want every whole block of %d bytes", direct, len(b))
			}
		})
	}
}

// directSupported reports whether dir's file system accepts O_DIRECT, asking the kernel
// directly rather than through the code under test.
func directSupported(t *testing.T, dir string) bool {
	t.Helper()
	if runtime.GOOS != "linux" {
		return false
	}
	f, err := os.OpenFile(filepath.Join(dir, ".probe"), os.O_CREATE|os.O_WRONLY|oDirect, 0o644)
	if err != nil {
		t.Logf("O_DIRECT refused in %s: %v", dir, err)
		return false
	}
	f.Close()
	return true
}

// TestWriteGoesDirect checks that the direct path is really taken where it can be: on a
// file system that accepts O_DIRECT, every whole block of an aligned buffer goes direct.
func TestWriteGoesDirect(t *testing.T) {
	dir := t.TempDir()
	if !directSupported(t, dir) {
		t.Skipf("no O_DIRECT in %s", dir)
	}
	f, err := os.Create(filepath.Join(dir, "probe"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := alignedBytes(t, 3*Align+5, 1)
	direct, err := Write(f, b)
	if err != nil {
		t.Fatal(err)
	}
	if direct != 3*Align {
		t.Fatalf("direct = %d, want %d", direct, 3*Align)
	}
}

func TestWriteToAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	b := alignedBytes(t, 2*Align+9, 3)
	done := make(chan []byte)
	go func() {
		got, _ := io.ReadAll(r)
		done <- got
	}()
	direct, err := Write(w, b)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if direct != 0 {
		t.Fatalf("direct = %d on a pipe", direct)
	}
	if got := <-done; !bytes.Equal(got, b) {
		t.Fatal("pipe got other bytes")
	}
}
