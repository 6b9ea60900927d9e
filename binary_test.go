package nqueens

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteBinarySameBytes: WriteBinary writes exactly the bytes of the encoding path,
// into a buffer, a pipe-like writer and a file (where the bulk may go through O_DIRECT),
// for sizes around the 4 KiB blocks of direct I/O and across several chunks.
func TestWriteBinarySameBytes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, n := range []int{1, 4, 1023, 1024, 1025, 5000, 1 << 20, 1<<24 + 7} {
		p := Placement{0}
		if n > 1 {
			res, err := Solve(ctx, n, SolveOptions{Algorithm: Construct})
			if err != nil {
				t.Fatal(err)
			}
			p = res.Placement
		}
		var want bytes.Buffer
		if err := Write(&want, Binary, len(p), p.Columns()); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteBinary(ctx, &got, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("n=%d: WriteBinary to a buffer differs from Write", n)
		}
		path := filepath.Join(dir, "q.bin")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteBinary(ctx, f, p); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(file, want.Bytes()) {
			t.Fatalf("n=%d: WriteBinary to a file differs from Write", n)
		}
	}
}

func TestWriteBinaryCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var buf bytes.Buffer
	if err := WriteBinary(ctx, &buf, Placement{1, 3, 0, 2}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("wrote %d bytes after cancellation", buf.Len())
	}
}
