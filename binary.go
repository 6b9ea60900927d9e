package nqueens

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"unsafe"

	"github.com/nqueens/nqueens/internal/directio"
)

// littleEndian reports whether int32s are stored little end first, as the binary format
// stores them: then a placement in memory is already its binary form.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// binaryChunk is the number of bytes WriteBinary hands over per call, between two looks
// at the context: 64 MiB is well under a second at any disk speed.
const binaryChunk = 64 << 20

// WriteBinary writes p in the binary format (one little-endian uint32 per row, 0-based),
// the same bytes as WritePlacement(ctx, w, Binary, p), without encoding them: on little-endian
// machines the memory of p is written as it is. When w is a regular file (an *os.File) on
// Linux, the bulk goes to the disk straight from p's memory, bypassing the page cache
// (O_DIRECT; see internal/directio): for the 4 GB of n = 10^9 that saves most of the
// system time of the write. It stops with ctx.Err() between chunks when ctx is done; what
// was written by then is a prefix of the placement. The columns of p are not checked.
func WriteBinary(ctx context.Context, w io.Writer, p Placement) error {
	if !littleEndian {
		return Write(ctx, w, Binary, len(p), p.Columns())
	}
	if len(p) == 0 {
		return ctx.Err()
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&p[0])), 4*len(p))
	f, isFile := w.(*os.File)
	for len(b) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		part := b[:min(len(b), binaryChunk)]
		var err error
		if isFile {
			_, err = directio.Write(f, part)
		} else {
			_, err = w.Write(part)
		}
		if err != nil {
			return err
		}
		b = b[len(part):]
	}
	return ctx.Err()
}

// BinaryColumns streams the 0-based columns of a binary placement from r, each with a nil
// error. A read error, or an input whose size is not a multiple of 4, ends the stream with
// one last pair (0, err).
func BinaryColumns(r io.Reader) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		buf := make([]byte, 1<<16)
		have := 0 // bytes in buf not yet decoded
		for {
			k, e := io.ReadAtLeast(r, buf[have:], 4-have)
			have += k
			words := have / 4
			for i := range words {
				if !yield(int(binary.LittleEndian.Uint32(buf[4*i:])), nil) {
					return
				}
			}
			have = copy(buf, buf[4*words:have])
			if e == io.EOF || e == io.ErrUnexpectedEOF {
				if have != 0 {
					yield(0, &ParseError{Msg: "binary placement is truncated: its size is not a multiple of 4"})
				}
				return
			}
			if e != nil {
				yield(0, e)
				return
			}
		}
	}
}

// ReadBinary reads a whole binary placement (little-endian uint32 per row, 0-based) into
// memory, 4 bytes per queen. Columns past 2^31−1 read as 2^31−1, off every board.
func ReadBinary(r io.Reader) (Placement, error) {
	var p Placement
	cr := &countingReader{r: r}
	for c, err := range BinaryColumns(cr) {
		if err != nil {
			return nil, binaryError(err, cr.n)
		}
		if len(p) == MaxN {
			return nil, tooManyRows()
		}
		p = append(p, clampColumn(c))
	}
	return p, nil
}

// clampColumn is a column of the binary form as an int32: past 2^31−1 it is 2^31−1, off
// every board, which Verify reports.
func clampColumn(c int) int32 { return int32(min(c, 1<<31-1)) }

// binaryError is the error of BinaryColumns on an input of size bytes, its truncation
// told with the size.
func binaryError(err error, size int64) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		return &ParseError{Msg: fmt.Sprintf("binary placement is truncated: %d bytes is not a multiple of 4", size)}
	}
	return err
}

// tooManyRows is the error of a binary input longer than the largest board.
func tooManyRows() error {
	return &ParseError{Msg: fmt.Sprintf("a binary placement of more than %d rows, the largest board", MaxN)}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
