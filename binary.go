package nqueens

import (
	"context"
	"encoding/binary"
	"io"
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
// the same bytes as WritePlacement(w, Binary, p), without encoding them: on little-endian
// machines the memory of p is written as it is. When w is a regular file (an *os.File) on
// Linux, the bulk goes to the disk straight from p's memory, bypassing the page cache
// (O_DIRECT; see internal/directio): for the 4 GB of n = 10^9 that saves most of the
// system time of the write. It stops with ctx.Err() between chunks when ctx is done; what
// was written by then is a prefix of the placement. The columns of p are not checked.
func WriteBinary(ctx context.Context, w io.Writer, p Placement) error {
	if !littleEndian {
		return Write(w, Binary, len(p), p.Columns())
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
