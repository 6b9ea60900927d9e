package nqueens

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/iotest"
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
		if err := Write(context.Background(), &want, Binary, len(p), p.Columns()); err != nil {
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

// TestBinaryColumnsErrors: BinaryColumns yields every whole column with a nil error, then
// ends a truncated input or a failing reader with one pair (0, err), and stops when the
// loop breaks.
func TestBinaryColumnsErrors(t *testing.T) {
	collect := func(r io.Reader) (cols []int, errs []error) {
		for c, err := range BinaryColumns(r) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			cols = append(cols, c)
		}
		return cols, errs
	}
	whole := []byte{3, 0, 0, 0, 1, 0, 0, 0}
	if cols, errs := collect(bytes.NewReader(whole)); len(errs) != 0 || !slices.Equal(cols, []int{3, 1}) {
		t.Errorf("whole input: columns %v, errors %v; want [3 1] and none", cols, errs)
	}
	cols, errs := collect(bytes.NewReader(append(whole, 9)))
	var pe *ParseError
	if !slices.Equal(cols, []int{3, 1}) || len(errs) != 1 || !errors.As(errs[0], &pe) {
		t.Errorf("truncated input: columns %v, errors %v; want [3 1] and one *ParseError", cols, errs)
	}
	boom := errors.New("boom")
	cols, errs = collect(io.MultiReader(bytes.NewReader(whole), iotest.ErrReader(boom)))
	if !slices.Equal(cols, []int{3, 1}) || len(errs) != 1 || !errors.Is(errs[0], boom) {
		t.Errorf("failing reader: columns %v, errors %v; want [3 1] and boom", cols, errs)
	}
	for range BinaryColumns(bytes.NewReader(append(whole, 9))) {
		break // must not panic by yielding after the loop ends
	}
}

// TestWriteCancelled: Write stops a stream when its context is done, within 2^20 rows,
// flushes a prefix (a closed JSON object) and returns the context's error.
func TestWriteCancelled(t *testing.T) {
	const n = 4 << 20
	endless := func(yield func(int) bool) {
		for i := range n {
			if !yield(i % 7) {
				return
			}
		}
	}
	for _, f := range []Format{Text, JSON, Binary} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var buf bytes.Buffer
		err := Write(ctx, &buf, f, n, endless)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", f, err)
		}
		if rows := bytes.Count(buf.Bytes(), []byte{','}) + bytes.Count(buf.Bytes(), []byte{'\n'}); f != Binary && (rows == 0 || rows > 1<<20+2) {
			t.Errorf("%s: %d rows written after the cancellation, want 1 to 2^20", f, rows)
		}
		if f == Binary && (buf.Len() == 0 || buf.Len() > 4<<20) {
			t.Errorf("binary: %d bytes written after the cancellation, want 4 to 4·2^20", buf.Len())
		}
		if f == JSON && !bytes.HasSuffix(buf.Bytes(), []byte("]}\n")) {
			t.Errorf("json: the object is not closed")
		}
	}
	var buf bytes.Buffer
	if err := Write(context.Background(), &buf, Binary, n, endless); err != nil || buf.Len() != 4*n {
		t.Errorf("not cancelled: %d bytes, %v; want %d", buf.Len(), err, 4*n)
	}
}
